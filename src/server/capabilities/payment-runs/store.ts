import { randomUUID } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { canonicalJson } from '#contract/approval-card.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { add } from '#contract/decimal.ts';
import {
  paymentRowExternalId,
  type PaymentCheckError,
  type PaymentRowInput,
  type PaymentRun,
  type PaymentRunReconciliation,
  type PaymentRunSimulation,
  type PaymentRunStatus,
  type RunPreApproval,
} from '#contract/payment-runs.ts';
import type { Database } from '../../db/client.ts';
import { declaredWrite } from '../../db/declared-writes.ts';
import { paymentRunOccurrences, paymentRunRows, paymentRuns } from '../../db/schema/console.ts';

/**
 * A payment run and its rows in the console's database. A run's rows change
 * only while it is not yet approved; each change writes the rows' new digest,
 * which the approval card carries.
 */

export type RowRecord = typeof paymentRunRows.$inferSelect;

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
  run: {
    name: string;
    subOrgId: string | null;
    createdById: string;
    rows: PaymentRowInput[];
    /** A schedule's occurrence names its own, derived from the schedule and its due time. */
    id?: string;
  },
): Promise<string> {
  const id = run.id ?? randomUUID();
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
    // One statement and one parameter for every row (up to 2,000): a parameter per field made
    // a 1,000-row run's insert 15,000 parameters, seconds to build and to parse.
    const records = run.rows.map((row, i) => {
      const p = payable(row);
      return {
        index: i + 1,
        kind: p.kind,
        source_vault_id: p.sourceVaultId,
        contact_id: p.contactId,
        address: p.address,
        bank_account_id: p.bankAccountId,
        asset: p.asset,
        block_chain: p.blockChain,
        amount: p.amount,
        reference: p.reference,
        memo: p.memo,
        external_id: paymentRowExternalId(id, i + 1),
      };
    });
    if (records.length > 0)
      await declaredWrite(tx, [paymentRunRows], () =>
        tx.execute(sql`
          insert into ${paymentRunRows} (run_id, "index", kind, source_vault_id, contact_id,
            address, bank_account_id, asset, block_chain, amount, reference, memo, status, errors,
            external_id)
          select ${id}, r."index", r.kind, r.source_vault_id, r.contact_id, r.address,
            r.bank_account_id, r.asset, r.block_chain, r.amount, r.reference, r.memo, 'PENDING',
            '[]'::jsonb, r.external_id
          from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r("index" integer,
            kind text, source_vault_id text, contact_id text, address text, bank_account_id text,
            asset text, block_chain text, amount text, reference text, memo text,
            external_id text)`),
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

/** The run's own record, without its rows: what a decision on it or its state needs. */
export async function loadRunRecord(
  db: Pick<Database, 'select'>,
  id: string,
): Promise<StoredRun['run'] | null> {
  const [run] = await db.select().from(paymentRuns).where(eq(paymentRuns.id, id));
  return run ?? null;
}

/** The vaults a run's rows pay from (in the order first paid from) and how many rows it has. */
export async function runSources(
  db: Pick<Database, 'select'>,
  id: string,
): Promise<{ vaultIds: string[]; rowCount: number }> {
  const found = await db
    .select({
      vaultId: paymentRunRows.sourceVaultId,
      first: sql<number>`min(${paymentRunRows.index})::integer`,
      rows: sql<number>`count(*)::integer`,
    })
    .from(paymentRunRows)
    .where(eq(paymentRunRows.runId, id))
    .groupBy(paymentRunRows.sourceVaultId);
  found.sort((a, b) => a.first - b.first);
  return {
    vaultIds: found.map((f) => f.vaultId),
    rowCount: found.reduce((n, f) => n + f.rows, 0),
  };
}

/** The run (null when missing) and one of its rows: what a row's create is held to. */
export async function loadRunRow(
  db: Database,
  id: string,
  index: number,
): Promise<{ run: StoredRun['run']; row: RowRecord | undefined } | null> {
  const [run] = await db.select().from(paymentRuns).where(eq(paymentRuns.id, id));
  if (!run) return null;
  const [row] = await db
    .select()
    .from(paymentRunRows)
    .where(and(eq(paymentRunRows.runId, id), eq(paymentRunRows.index, index)));
  return { run, row };
}

/**
 * The run and the rows the executor has work in: every row sent and not yet ended, and the
 * first `unsent` rows not yet sent, in order. A run of 1,000 rows is not read whole each pass.
 */
export async function loadRunAtWork(
  db: Database,
  id: string,
  unsent: number,
): Promise<StoredRun | null> {
  const [run] = await db.select().from(paymentRuns).where(eq(paymentRuns.id, id));
  if (!run) return null;
  const sent = await db
    .select()
    .from(paymentRunRows)
    .where(and(eq(paymentRunRows.runId, id), eq(paymentRunRows.status, 'SUBMITTED')));
  const next =
    unsent > 0
      ? await db
          .select()
          .from(paymentRunRows)
          .where(and(eq(paymentRunRows.runId, id), eq(paymentRunRows.status, 'PENDING')))
          .orderBy(asc(paymentRunRows.index))
          .limit(unsent)
      : [];
  return { run, rows: [...sent, ...next].sort((a, b) => a.index - b.index) };
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
    ...(run.preApproved ? { preApproved: run.preApproved } : {}),
  };
}

/** Statuses in which the rows may still change: before the run is approved. */
const EDITABLE: readonly PaymentRunStatus[] = ['DRAFT', 'CHECKED', 'PENDING_APPROVAL'];

/**
 * Replaces one row (a fix in place), under the run's row lock. The run goes
 * back to DRAFT unless it waits for approval: then it keeps waiting, and the
 * new digest voids the votes cast on the old rows. `editorId`, the member
 * who changed it, is kept among the run's editors unless they made it.
 * `expected`: the run must still be in that status with those rows (what the
 * edit was judged on).
 */
export async function replaceRow(
  db: Database,
  now: Date,
  id: string,
  index: number,
  row: PaymentRowInput,
  editorId: string,
  expected?: { status: PaymentRunStatus; rowsDigest: string },
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
    if (expected && (run.status !== expected.status || run.rowsDigest !== expected.rowsDigest))
      throw new ApiError(
        409,
        ERROR_CODES.conflict,
        'The run changed while this row was checked: read it again and repeat the change',
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
        editorIds:
          editorId === run.createdById || run.editorIds.includes(editorId)
            ? run.editorIds
            : [...run.editorIds, editorId],
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
): Promise<StoredRun['run'] | null> {
  return db.transaction(async (tx) => {
    const [run] = await tx.select().from(paymentRuns).where(eq(paymentRuns.id, id)).for('update');
    if (!run) throw notFound(id);
    // The rows changed while they were checked: this outcome is another rows' and is dropped.
    if (run.rowsDigest !== digest) return null;
    const byRow = errorsByRow(result.errors);
    // One statement for every row whose errors changed (a statement each held a 1,000-row
    // run's check for seconds): the rows named get theirs, every other row none.
    const named = [...byRow].map(([row, errors]) => ({ row, errors }));
    await declaredWrite(tx, [paymentRunRows], () =>
      tx.execute(sql`
        update ${paymentRunRows} as r set errors = coalesce(e.errors, '[]'::jsonb)
        from ${paymentRunRows} as o
          left join jsonb_to_recordset(${JSON.stringify(named)}::jsonb) as e("row" integer, errors jsonb)
            on e."row" = o."index"
        where r.run_id = ${id} and o.run_id = r.run_id and o."index" = r."index"
          and r.errors is distinct from coalesce(e.errors, '[]'::jsonb)`),
    );
    const status: PaymentRunStatus =
      run.status === 'DRAFT' || run.status === 'CHECKED'
        ? result.errors.length === 0
          ? 'CHECKED'
          : 'DRAFT'
        : run.status;
    const [saved] = await tx
      .update(paymentRuns)
      .set({ errors: result.errors, simulation: result.simulation, status, updatedAt: now })
      .where(eq(paymentRuns.id, id))
      .returning();
    return saved ?? null;
  });
}

/** A check's errors by row number, each row's in the order found. */
export function errorsByRow(
  errors: readonly PaymentCheckError[],
): Map<number, PaymentCheckError[]> {
  const byRow = new Map<number, PaymentCheckError[]>();
  for (const e of errors) {
    const list = byRow.get(e.row);
    if (list) list.push(e);
    else byRow.set(e.row, [e]);
  }
  return byRow;
}

/** Moves a run from one of `from` to `to`; false when it was in none of them (someone else moved it). */
export async function moveRun(
  db: Pick<Database, 'update'>,
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

/**
 * A run just submitted, approved by its schedule's pre-approval instead of a
 * vote: moved on to APPROVED with what approved it. False when it no longer
 * waits.
 */
export async function markPreApproved(
  db: Pick<Database, 'update'>,
  now: Date,
  id: string,
  preApproved: RunPreApproval,
): Promise<boolean> {
  const moved = await db
    .update(paymentRuns)
    .set({ status: 'APPROVED', preApproved, updatedAt: now })
    .where(and(eq(paymentRuns.id, id), eq(paymentRuns.status, 'PENDING_APPROVAL')))
    .returning({ id: paymentRuns.id });
  return moved.length > 0;
}

/**
 * Runs whose unsent rows count in their vaults' 24-hour outflow: submitted
 * and not yet ended. A row counts until its transaction exists (from then
 * the custody backend's outflow counts the transaction itself).
 */
const COMMITTED: readonly PaymentRunStatus[] = [
  'PENDING_APPROVAL',
  'APPROVED',
  'EXECUTING',
  'PAUSED',
];

/**
 * The key every writer of a run's references to pay takes beside its vaults'
 * outflow locks (policies/outflow-lock.ts), and holds until it has written:
 * a submit, a waiting run's row edit, a retry. Each checks `paidReferences`
 * under it, so two of them never both find a reference free. One key for the
 * organization: the console's database is one organization's, and
 * `paidReferences` reads every run.
 */
export const PAYMENT_REFERENCES_LOCK = 'organization:payment-run-references';

/**
 * The references among `references` that rows of other runs have paid or
 * are paying: sent (or paid), or not yet sent in a run submitted and not
 * ended. A file made twice is caught while its first run still waits for
 * approval, not only once it has paid. A schedule's occurrences pay the same
 * references month after month by design: the runs of the run's own schedule
 * are not counted.
 */
export async function paidReferences(
  db: Database,
  runId: string,
  references: readonly string[],
): Promise<Set<string>> {
  if (references.length === 0) return new Set();
  const siblings = paymentRunOccurrences;
  const own = db
    .select({ scheduleId: siblings.scheduleId })
    .from(siblings)
    .where(eq(siblings.runId, runId));
  const sameSchedule = new Set(
    (
      await db
        .select({ runId: siblings.runId })
        .from(siblings)
        .where(inArray(siblings.scheduleId, own))
    ).map((r) => r.runId),
  );
  const rows = await db
    .select({ reference: paymentRunRows.reference, runId: paymentRunRows.runId })
    .from(paymentRunRows)
    .innerJoin(paymentRuns, eq(paymentRuns.id, paymentRunRows.runId))
    .where(
      and(
        // One parameter for all the references (up to 2,000), not one each.
        sql`${paymentRunRows.reference} in (select jsonb_array_elements_text(${JSON.stringify([...new Set(references)])}::jsonb))`,
        or(
          inArray(paymentRunRows.status, ['SUBMITTED', 'COMPLETED']),
          and(eq(paymentRunRows.status, 'PENDING'), inArray(paymentRuns.status, [...COMMITTED])),
        ),
      ),
    );
  return new Set(
    rows.filter((r) => r.runId !== runId && !sameSchedule.has(r.runId)).map((r) => r.reference),
  );
}

/**
 * The USD value of `vaultId`'s unsent rows in runs submitted and not ended
 * (other than `exceptRunId`): a run's whole total counts toward the 24-hour
 * cap from its submit on. Null when a row's value is unknown (a cap then
 * matches: fail closed).
 */
export async function committedOutflowUsd(
  db: Pick<Database, 'select'>,
  vaultId: string,
  exceptRunId?: string,
): Promise<string | null> {
  const rows = await db
    .select({ runId: paymentRunRows.runId, amountUsd: paymentRunRows.amountUsd })
    .from(paymentRunRows)
    .innerJoin(paymentRuns, eq(paymentRuns.id, paymentRunRows.runId))
    .where(
      and(
        eq(paymentRunRows.sourceVaultId, vaultId),
        eq(paymentRunRows.status, 'PENDING'),
        inArray(paymentRuns.status, [...COMMITTED]),
      ),
    );
  let total = '0';
  for (const row of rows) {
    if (row.runId === exceptRunId) continue;
    if (row.amountUsd === null) return null;
    total = add(total, row.amountUsd);
  }
  return total;
}

/** Each row's USD value as judged at submit (null: unpriced), written with the move to PENDING_APPROVAL. */
export async function submitRun(
  db: Database,
  now: Date,
  id: string,
  usdByRow: ReadonlyMap<number, string | null>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const moved = await moveRun(tx, now, id, ['CHECKED'], 'PENDING_APPROVAL');
    if (!moved) return false;
    await writeRowsUsd(tx, id, usdByRow);
    return true;
  });
}

/**
 * Each row's USD value as judged (null: unpriced): what its vault's 24-hour outflow counts
 * until the row is sent. Written at submit, and again when a waiting run's rows change.
 */
export async function writeRowsUsd(
  db: Database,
  id: string,
  usdByRow: ReadonlyMap<number, string | null>,
): Promise<void> {
  // One statement for all rows (up to 2,000): a statement each would hold the database long.
  const values = [...usdByRow].map(([index, usd]) => sql`(${index}::integer, ${usd}::text)`);
  if (values.length > 0)
    await declaredWrite(db, [paymentRunRows], () =>
      db.execute(sql`
        update ${paymentRunRows} set amount_usd = v.usd
        from (values ${sql.join(values, sql`, `)}) as v(idx, usd)
        where ${paymentRunRows.runId} = ${id} and ${paymentRunRows.index} = v.idx`),
    );
}

/** Runs the executor has work in: to start or send, or rows sent and not yet ended. */
export async function runsAtWork(
  db: Pick<Database, 'select' | 'selectDistinct'>,
): Promise<string[]> {
  const sending = await db
    .select({ id: paymentRuns.id })
    .from(paymentRuns)
    .where(inArray(paymentRuns.status, ['APPROVED', 'EXECUTING']));
  const moving = await db
    .selectDistinct({ id: paymentRunRows.runId })
    .from(paymentRunRows)
    .where(eq(paymentRunRows.status, 'SUBMITTED'));
  return [...new Set([...sending, ...moving].map((r) => r.id))];
}

const rowKey = (runId: string, index: number, attempt: number) =>
  and(
    eq(paymentRunRows.runId, runId),
    eq(paymentRunRows.index, index),
    eq(paymentRunRows.attempt, attempt),
  );

/**
 * The transaction the row's attempt made: recorded whatever the row's status
 * now (a cancel that came while it was being made still finds it sent).
 */
export async function recordRowSent(
  db: Database,
  row: { runId: string; index: number; attempt: number },
  transactionId: string,
): Promise<void> {
  await db
    .update(paymentRunRows)
    .set({ status: 'SUBMITTED', transactionId, failure: null })
    .where(
      and(
        rowKey(row.runId, row.index, row.attempt),
        inArray(paymentRunRows.status, ['PENDING', 'CANCELLED']),
      ),
    );
}

/** The custody backend refused to make the row's transaction: nothing was sent. */
export async function recordRowRefused(
  db: Database,
  row: { runId: string; index: number; attempt: number },
  failure: string,
): Promise<void> {
  await db
    .update(paymentRunRows)
    .set({ status: 'REFUSED', failure })
    .where(and(rowKey(row.runId, row.index, row.attempt), eq(paymentRunRows.status, 'PENDING')));
}

/** The row's transaction ended: what the reconciliation reads. */
export async function recordRowEnded(
  db: Database,
  row: { runId: string; index: number; attempt: number },
  ended: {
    status: 'COMPLETED' | 'FAILED';
    failure: string | null;
    txHash: string | null;
    feeAmount: string | null;
    feeAsset: string | null;
    feeUsd: string | null;
    completedAt: Date | null;
  },
): Promise<void> {
  await db
    .update(paymentRunRows)
    .set(ended)
    .where(and(rowKey(row.runId, row.index, row.attempt), eq(paymentRunRows.status, 'SUBMITTED')));
}

/** An executing run with every row ended: COMPLETED, or PARTIALLY_FAILED if any row did not pay. */
export async function finishRun(db: Database, now: Date, runId: string): Promise<void> {
  const [counts] = await db
    .select({
      open: sql<number>`count(*) filter (where ${paymentRunRows.status} in ('PENDING', 'SUBMITTED'))::int`,
      unpaid: sql<number>`count(*) filter (where ${paymentRunRows.status} <> 'COMPLETED')::int`,
    })
    .from(paymentRunRows)
    .where(eq(paymentRunRows.runId, runId));
  if (!counts || counts.open > 0) return;
  await moveRun(
    db,
    now,
    runId,
    ['EXECUTING'],
    counts.unpaid === 0 ? 'COMPLETED' : 'PARTIALLY_FAILED',
  );
}

/**
 * Cancels what is not yet sent: the run ends CANCELLED, its unsent rows too.
 * Rows already sent go on (their transactions exist) and are reconciled.
 */
export async function cancelRun(db: Database, now: Date, runId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const moved = await moveRun(tx, now, runId, ['APPROVED', 'EXECUTING', 'PAUSED'], 'CANCELLED');
    if (!moved) return false;
    await tx
      .update(paymentRunRows)
      .set({ status: 'CANCELLED' })
      .where(and(eq(paymentRunRows.runId, runId), eq(paymentRunRows.status, 'PENDING')));
    return true;
  });
}

/**
 * Sends the failed and refused rows again, each failed one as a new attempt
 * under a new externalId (the failed attempt moved nothing; its externalId
 * stays its own), and takes the run up again. Rows in `kept` stay as they
 * are: one whose transaction was declined at the custody side (a decline is
 * a decision against that payment, and the run's approval never overrides
 * it; such a row is paid only in a new run, approved anew), and one whose
 * reference another run has paid or is paying since.
 */
export async function retryFailedRows(
  db: Database,
  now: Date,
  runId: string,
  kept: ReadonlySet<number> = new Set(),
): Promise<number> {
  return db.transaction(async (tx) => {
    const [run] = await tx
      .select()
      .from(paymentRuns)
      .where(eq(paymentRuns.id, runId))
      .for('update');
    if (!run || !['EXECUTING', 'PAUSED', 'PARTIALLY_FAILED'].includes(run.status)) return -1;
    const failed = (
      await tx
        .select()
        .from(paymentRunRows)
        .where(
          and(
            eq(paymentRunRows.runId, runId),
            inArray(paymentRunRows.status, ['FAILED', 'REFUSED']),
          ),
        )
    ).filter((row) => !kept.has(row.index));
    for (const row of failed) {
      // A refused attempt made nothing: its externalId is free to use again.
      const attempt = row.status === 'REFUSED' ? row.attempt : row.attempt + 1;
      await tx
        .update(paymentRunRows)
        .set({
          status: 'PENDING',
          attempt,
          externalId: paymentRowExternalId(runId, row.index, attempt),
          transactionId: null,
          failure: null,
          txHash: null,
          feeAmount: null,
          feeAsset: null,
          feeUsd: null,
          completedAt: null,
        })
        .where(rowKey(runId, row.index, row.attempt));
    }
    if (failed.length > 0 && run.status === 'PARTIALLY_FAILED')
      await moveRun(tx, now, runId, ['PARTIALLY_FAILED'], 'EXECUTING');
    return failed.length;
  });
}

/** Every row as paid, for the reconciliation (JSON and CSV). */
export function reconciliationOf({ run, rows }: StoredRun): PaymentRunReconciliation {
  return {
    runId: run.id,
    status: run.status,
    rows: rows.map((r) => ({
      index: r.index,
      reference: r.reference,
      asset: r.asset,
      blockChain: r.blockChain,
      amount: r.amount,
      status: r.status,
      externalId: r.externalId,
      transactionId: r.transactionId,
      txHash: r.txHash,
      feeAmount: r.feeAmount,
      feeAsset: r.feeAsset,
      feeUsd: r.feeUsd,
      completedAt: r.completedAt?.toISOString() ?? null,
      failure: r.failure,
    })),
  };
}
