import { randomUUID } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { canonicalJson } from '#contract/approval-card.ts';
import { ERROR_CODES } from '#contract/common.ts';
import {
  paymentRowExternalId,
  type PaymentCheckError,
  type PaymentRowInput,
  type PaymentRun,
  type PaymentRunSimulation,
  type PaymentRunStatus,
} from '#contract/payment-runs.ts';
import type { Database } from '../../db/client.ts';
import { paymentRunRows, paymentRuns } from '../../db/schema/console.ts';

/**
 * A payment run and its rows in the console's database. A run's rows change
 * only while it is not yet approved; each change writes the rows' new digest,
 * which the approval card carries.
 */

type RowRecord = typeof paymentRunRows.$inferSelect;

/** What is paid of a row: what the digest binds, in a fixed shape. */
function payable(row: PaymentRowInput | RowRecord) {
  return {
    kind: row.kind,
    sourceVaultId: row.sourceVaultId,
    contactId: row.contactId ?? null,
    address: row.address ?? null,
    bankAccountId: row.bankAccountId ?? null,
    asset: row.asset,
    blockChain: row.blockChain,
    amount: row.amount,
    reference: row.reference,
    memo: row.memo ?? null,
  };
}

/** SHA-256 (hex) of the rows as they will be paid, in order. */
export function rowsDigest(rows: readonly (PaymentRowInput | RowRecord)[]): string {
  return bytesToHex(sha256(utf8ToBytes(canonicalJson(rows.map(payable)))));
}

/** A row as the checks and the executor read it. */
export function rowInput(row: RowRecord): PaymentRowInput {
  const p = payable(row);
  return {
    kind: p.kind,
    sourceVaultId: p.sourceVaultId,
    ...(p.contactId !== null ? { contactId: p.contactId } : {}),
    ...(p.address !== null ? { address: p.address } : {}),
    ...(p.bankAccountId !== null ? { bankAccountId: p.bankAccountId } : {}),
    asset: p.asset,
    blockChain: p.blockChain,
    amount: p.amount,
    reference: p.reference,
    ...(p.memo !== null ? { memo: p.memo } : {}),
  };
}

const notFound = (id: string) =>
  new ApiError(404, ERROR_CODES.notFound, `No payment run with id "${id}"`);

export async function createRun(
  db: Database,
  now: Date,
  run: { name: string; subOrgId: string | null; createdById: string; rows: PaymentRowInput[] },
): Promise<string> {
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await tx.insert(paymentRuns).values({
      id,
      name: run.name,
      status: 'DRAFT',
      subOrgId: run.subOrgId,
      createdById: run.createdById,
      rowsDigest: rowsDigest(run.rows),
      errors: [],
      simulation: null,
      createdAt: now,
      updatedAt: now,
    });
    await tx.insert(paymentRunRows).values(
      run.rows.map((row, i) => ({
        runId: id,
        index: i + 1,
        ...payable(row),
        status: 'PENDING' as const,
        errors: [],
        externalId: paymentRowExternalId(id, i + 1),
      })),
    );
  });
  return id;
}

export interface StoredRun {
  run: typeof paymentRuns.$inferSelect;
  rows: RowRecord[];
}

export async function loadRun(db: Database, id: string): Promise<StoredRun | null> {
  const [run] = await db.select().from(paymentRuns).where(eq(paymentRuns.id, id));
  if (!run) return null;
  const rows = await db
    .select()
    .from(paymentRunRows)
    .where(eq(paymentRunRows.runId, id))
    .orderBy(asc(paymentRunRows.index));
  return { run, rows };
}

export function answerOf({ run, rows }: StoredRun): PaymentRun {
  return {
    id: run.id,
    name: run.name,
    status: run.status,
    subOrgId: run.subOrgId,
    createdById: run.createdById,
    createdAt: run.createdAt.toISOString(),
    updatedAt: run.updatedAt.toISOString(),
    rowsDigest: run.rowsDigest,
    rows: rows.map((r) => ({
      ...payable(r),
      index: r.index,
      status: r.status,
      errors: r.errors,
      externalId: r.externalId,
      transactionId: r.transactionId,
    })),
    errors: run.errors,
    simulation: run.simulation,
  };
}

/** Statuses in which the rows may still change: before the run is approved. */
const EDITABLE: readonly PaymentRunStatus[] = ['DRAFT', 'CHECKED', 'PENDING_APPROVAL'];

/**
 * Replaces one row (a fix in place), under the run's row lock. The run goes
 * back to DRAFT unless it waits for approval: then it keeps waiting, and the
 * new digest voids the votes cast on the old rows.
 */
export async function replaceRow(
  db: Database,
  now: Date,
  id: string,
  index: number,
  row: PaymentRowInput,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [run] = await tx.select().from(paymentRuns).where(eq(paymentRuns.id, id)).for('update');
    if (!run) throw notFound(id);
    if (!EDITABLE.includes(run.status))
      throw new ApiError(
        409,
        ERROR_CODES.conflict,
        `The run is ${run.status}: its rows can no longer change`,
      );
    const updated = await tx
      .update(paymentRunRows)
      .set({ ...payable(row), errors: [] })
      .where(and(eq(paymentRunRows.runId, id), eq(paymentRunRows.index, index)))
      .returning({ index: paymentRunRows.index });
    if (updated.length === 0)
      throw new ApiError(404, ERROR_CODES.notFound, `The run has no row ${index}`, [
        { field: 'index', message: `no row ${index}` },
      ]);
    const rows = await tx
      .select()
      .from(paymentRunRows)
      .where(eq(paymentRunRows.runId, id))
      .orderBy(asc(paymentRunRows.index));
    await tx
      .update(paymentRuns)
      .set({
        rowsDigest: rowsDigest(rows),
        status: run.status === 'PENDING_APPROVAL' ? 'PENDING_APPROVAL' : 'DRAFT',
        updatedAt: now,
      })
      .where(eq(paymentRuns.id, id));
  });
}

/**
 * Records a check's outcome: each row's errors, the run's, its simulation; a
 * draft with no error becomes CHECKED, one with errors stays (or goes back
 * to) DRAFT. A run waiting for approval keeps waiting: its settle refuses
 * while errors remain.
 */
export async function saveCheck(
  db: Database,
  now: Date,
  id: string,
  digest: string,
  result: { errors: PaymentCheckError[]; simulation: PaymentRunSimulation },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [run] = await tx.select().from(paymentRuns).where(eq(paymentRuns.id, id)).for('update');
    if (!run) throw notFound(id);
    // The rows changed while they were checked: this outcome is another rows' and is dropped.
    if (run.rowsDigest !== digest) return false;
    const byRow = new Map<number, PaymentCheckError[]>();
    for (const e of result.errors) byRow.set(e.row, [...(byRow.get(e.row) ?? []), e]);
    const rows = await tx
      .select({ index: paymentRunRows.index, errors: paymentRunRows.errors })
      .from(paymentRunRows)
      .where(eq(paymentRunRows.runId, id));
    const changed = rows.filter(
      (r) => canonicalJson(r.errors) !== canonicalJson(byRow.get(r.index) ?? []),
    );
    for (const r of changed)
      await tx
        .update(paymentRunRows)
        .set({ errors: byRow.get(r.index) ?? [] })
        .where(and(eq(paymentRunRows.runId, id), eq(paymentRunRows.index, r.index)));
    const status: PaymentRunStatus =
      run.status === 'DRAFT' || run.status === 'CHECKED'
        ? result.errors.length === 0
          ? 'CHECKED'
          : 'DRAFT'
        : run.status;
    await tx
      .update(paymentRuns)
      .set({ errors: result.errors, simulation: result.simulation, status, updatedAt: now })
      .where(eq(paymentRuns.id, id));
    return true;
  });
}

/** Moves a run from one of `from` to `to`; false when it was in none of them (someone else moved it). */
export async function moveRun(
  db: Database,
  now: Date,
  id: string,
  from: readonly PaymentRunStatus[],
  to: PaymentRunStatus,
): Promise<boolean> {
  const moved = await db
    .update(paymentRuns)
    .set({ status: to, updatedAt: now })
    .where(and(eq(paymentRuns.id, id), inArray(paymentRuns.status, [...from])))
    .returning({ id: paymentRuns.id });
  return moved.length > 0;
}

/** The references among `references` that rows of other runs have already paid. */
export async function paidReferences(
  db: Database,
  runId: string,
  references: readonly string[],
): Promise<Set<string>> {
  if (references.length === 0) return new Set();
  const rows = await db
    .select({ reference: paymentRunRows.reference, runId: paymentRunRows.runId })
    .from(paymentRunRows)
    .where(
      and(
        inArray(paymentRunRows.reference, [...new Set(references)]),
        inArray(paymentRunRows.status, ['SUBMITTED', 'COMPLETED']),
      ),
    );
  return new Set(rows.filter((r) => r.runId !== runId).map((r) => r.reference));
}
