import { randomUUID } from 'node:crypto';
import { and, eq, type InferInsertModel } from 'drizzle-orm';
import type { CreateTransactionRequest } from '#contract/transaction.ts';
import type { Database } from '../../../db/client.ts';
import { transactionStatusEvents, transactions } from '../../../db/schema/sandbox.ts';
import { ApiError } from '#contract/api-error.ts';
import type { CustodyActor } from '../../backend.ts';
import { recordStatusChange } from '../../../capabilities/webhooks/sandbox/outbox.ts';
import { creatorOf, openChangeRequest } from '../change-request.ts';
import type { TransactionRow } from '../mappers.ts';
import { ENGINE_CODES } from './problems.ts';
import type { Executor } from './transitions.ts';
import { resolveCreate } from './validate-create.ts';
import { refuseUnstakeBeyondStaked } from './unstake.ts';

/**
 * Endpoint 7: a new transaction starts PENDING with a change request that
 * gates it; nothing moves until that request is approved (approval-outcome.ts).
 */

export interface CreateInput {
  orgId: string;
  actor: CustodyActor | undefined;
  body: CreateTransactionRequest;
  now: Date;
}

/** How far ahead a transfer may be scheduled: a month, so a forgotten schedule cannot lie in wait for years. */
const MAX_SCHEDULE_AHEAD_MS = 30 * 24 * 60 * 60_000;

/** A transfer's `executeAt`, checked against the sandbox's clock: later than now, at most a month ahead. */
function scheduledFor(body: CreateTransactionRequest, now: Date): string | undefined {
  if (body.category !== 'TRANSFER' || body.executeAt === undefined) return undefined;
  const at = new Date(body.executeAt);
  const refuse = (message: string) =>
    new ApiError(400, ENGINE_CODES.executeAtOutOfRange, `executeAt: ${message}`, [
      { field: 'executeAt', message },
    ]);
  if (at.getTime() <= now.getTime())
    throw refuse(`executeAt ${body.executeAt} has passed (it is ${now.toISOString()})`);
  if (at.getTime() - now.getTime() > MAX_SCHEDULE_AHEAD_MS)
    throw refuse(`executeAt may be at most 30 days ahead; ${body.executeAt} is further`);
  return at.toISOString();
}

export async function createTransaction(db: Database, input: CreateInput): Promise<TransactionRow> {
  const executeAt = scheduledFor(input.body, input.now);
  const resolved = await resolveCreate(db, input.orgId, input.body);
  const { plan: resolvedPlan, ...columns } = resolved;
  const plan = executeAt ? { ...resolvedPlan, executeAt } : resolvedPlan;
  return insertWithDuplicateCheck(db, input.orgId, columns.externalId, async (tx) => {
    if (columns.subCategory === 'UNSTAKE') await refuseUnstakeBeyondStaked(tx, columns);
    return insertPendingTransaction(tx, {
      orgId: input.orgId,
      actor: input.actor,
      now: input.now,
      values: { ...columns, simulation: { ...plan } },
    });
  });
}

type NewTransaction = Omit<
  InferInsertModel<typeof transactions>,
  'id' | 'orgId' | 'status' | 'transactionType' | 'createdAt' | 'updatedAt'
>;

export interface PendingInput {
  orgId: string;
  actor: CustodyActor | undefined;
  now: Date;
  values: NewTransaction;
  /** OUTGOING unless said: an on-ramp comes in (capabilities/ramps). */
  transactionType?: 'INCOMING' | 'OUTGOING';
}

/**
 * Inserts the PENDING row, its first status event and its change request, in
 * the caller's database transaction: an accepted transaction is never
 * without the request that must approve it.
 */
export async function insertPendingTransaction(
  tx: Executor,
  input: PendingInput,
): Promise<TransactionRow> {
  const creator = creatorOf(input.actor);
  const [row] = await tx
    .insert(transactions)
    .values({
      ...input.values,
      id: randomUUID(),
      orgId: input.orgId,
      status: 'PENDING',
      transactionType: input.transactionType ?? 'OUTGOING',
      createdById: creator.id,
      createdByType: creator.type,
      // Waits for the approval decision; the simulator ignores it until then.
      nextStepAt: null,
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returning();
  if (!row) throw new Error('insert into transactions returned no row');
  await tx
    .insert(transactionStatusEvents)
    .values({ transactionId: row.id, status: 'PENDING', at: input.now });
  // Its first status is a webhook too (the outbox, in this database transaction).
  await recordStatusChange(tx, {
    transactionId: row.id,
    orgId: row.orgId,
    at: input.now,
    statusChanged: true,
    operationsBefore: row.operations,
  });
  await openChangeRequest(tx, {
    orgId: input.orgId,
    entityType: 'TRANSACTION',
    entityId: row.id,
    creator,
    now: input.now,
  });
  return row;
}

function duplicate(externalId: string, existingId: string | undefined): ApiError {
  const which = existingId ? ` by transaction ${existingId}` : '';
  const message = `externalId "${externalId}" is already used${which} in this organization; nothing was created (find the original with the externalId filter)`;
  return new ApiError(400, ENGINE_CODES.duplicateExternalId, message, [
    { field: 'externalId', message },
  ]);
}

async function findByExternalId(db: Executor, orgId: string, externalId: string) {
  const [row] = await db
    .select({ id: transactions.id })
    .from(transactions)
    .where(and(eq(transactions.orgId, orgId), eq(transactions.externalId, externalId)))
    .limit(1);
  return row?.id;
}

/** PostgreSQL's unique_violation on the per-organization externalId index. */
function isExternalIdConflict(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const { code, constraint, message } = current as {
      code?: unknown;
      constraint?: unknown;
      message?: unknown;
    };
    if (
      code === '23505' &&
      (constraint === 'transactions_org_external_id_uq' ||
        (typeof message === 'string' && message.includes('transactions_org_external_id_uq')))
    )
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Runs the insert in one database transaction. The early lookup gives the
 * usual duplicate a helpful answer; the unique index is what actually
 * guarantees one transaction per externalId when two creates race.
 */
export async function insertWithDuplicateCheck(
  db: Database,
  orgId: string,
  externalId: string | null | undefined,
  insert: (tx: Executor) => Promise<TransactionRow>,
): Promise<TransactionRow> {
  try {
    return await db.transaction(async (tx) => {
      if (externalId) {
        const existing = await findByExternalId(tx, orgId, externalId);
        if (existing) throw duplicate(externalId, existing);
      }
      return insert(tx);
    });
  } catch (error) {
    if (externalId && isExternalIdConflict(error))
      throw duplicate(externalId, await findByExternalId(db, orgId, externalId));
    throw error;
  }
}
