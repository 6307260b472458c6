import type { InferInsertModel } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { BankAccountStatus, TransactionStatus } from '#contract/enums.ts';
import type { Database } from '../../db/client.ts';
import {
  assets,
  bankAccounts,
  changeRequests,
  contacts,
  organizations,
  stakingPositions,
  subOrgs,
  transactionStatusEvents,
  transactions,
  vaultBalances,
  vaults,
  wallets,
} from '../../db/schema/sandbox.ts';
import { approvalMessage, type ChangeRequestEntityType } from './change-request.ts';
import { readPlan } from './engine/plan.ts';
import { seededStakingPositions } from './engine/staking-rewards.ts';
import { buildBankAccounts } from './seed/bank-account-data.ts';
import { applySeedHolds } from './seed/in-flight.ts';
import { planSeedLedger, recordSeedLedger } from './seed/ledger-past.ts';
import { SeedRandom } from './seed/random.ts';
import { buildReferenceData } from './seed/reference-data.ts';
import {
  buildTransactions,
  type StatusEventSeedRow,
  type TransactionSeedRow,
} from './seed/transaction-data.ts';

/**
 * First-start data for the sandbox: an organization with
 * sub-organizations, vaults with wallets and balances, assets, contacts in
 * every status, bank accounts in every rail × status, and a few hundred
 * transactions of every category and status over the last 60 days with their
 * status timelines and change requests. Ids and shapes come from a fixed
 * random seed; times are relative to `now`.
 */

export interface SeedOptions {
  /** The moment seeded times are relative to; the entry point passes its clock's now. */
  now: Date;
  transactionCount?: number;
  randomSeed?: number;
}

export interface SeedSummary {
  seeded: boolean;
  organizationId?: string;
  counts?: Record<
    | 'subOrgs'
    | 'vaults'
    | 'contacts'
    | 'assets'
    | 'bankAccounts'
    | 'transactions'
    | 'statusEvents'
    | 'changeRequests',
    number
  >;
}

const DEFAULT_TRANSACTION_COUNT = 360;
const BATCH = 500;

type ChangeRequestRow = InferInsertModel<typeof changeRequests>;

/** Seeds an empty sandbox; does nothing when an organization already exists. */
export async function seedSandbox(db: Database, options: SeedOptions): Promise<SeedSummary> {
  // Every start but the first finds the sandbox seeded: building the whole
  // history first cost about a second of CPU per start for nothing.
  if (await isSeeded(db)) return { seeded: false };
  const { now } = options;
  const rng = new SeedRandom(options.randomSeed ?? 20_240_601);

  const ref = buildReferenceData(rng, now);
  const accounts = buildBankAccounts(
    rng,
    now,
    ref.org.id,
    ref.subOrgs.map((s) => s.id),
    ref.creatorIds,
  );
  const approvedAccounts = accounts.filter((a) => a.status === 'APPROVED');
  const history = buildTransactions(
    { rng, ref, approvedBankAccounts: approvedAccounts },
    now,
    options.transactionCount ?? DEFAULT_TRANSACTION_COUNT,
  );
  // In-flight seeded transactions hold what they will spend, as the engine's signing would have.
  applySeedHolds(
    ref.balances,
    history.transactions.map((t) => readPlan(t.simulation)),
    now,
  );
  // Last: it may raise a balance its history would otherwise have overdrawn.
  const ledgerPast = planSeedLedger(
    ref.balances,
    history.transactions,
    history.fees,
    new Set(ref.vaults.map((v) => v.id)),
    now,
  );
  const requests = [
    ...accounts.map((a) =>
      changeRequestFor(
        rng,
        ref.org.id,
        'BANK_ACCOUNT',
        a.id,
        a.status,
        a.createdById,
        a.createdAt,
        a.updatedAt,
      ),
    ),
    ...transactionChangeRequests(rng, ref.org.id, history.transactions, history.events),
  ];

  return db.transaction(async (tx) => {
    // Inside the transaction so two first starts cannot both seed (with the
    // startup lock on PostgreSQL) and a crash mid-seed leaves nothing behind.
    if (await isSeeded(tx)) return { seeded: false };

    await tx.insert(organizations).values(ref.org);
    await tx.insert(subOrgs).values(ref.subOrgs);
    await tx.insert(vaults).values(ref.vaults);
    await insertAll(tx, wallets, ref.wallets);
    await insertAll(tx, vaultBalances, ref.balances);
    await insertAll(tx, assets, ref.assets);
    await insertAll(tx, contacts, ref.contacts);
    await insertAll(tx, bankAccounts, accounts);
    await insertAll(tx, transactions, history.transactions);
    // The seed's past in the ledger, its openings worked back from today's balances: a
    // balance is the sum of its movements, and a demo's history has the days it lists.
    await recordSeedLedger(tx, ref.org.id, ledgerPast);
    await insertAll(tx, transactionStatusEvents, history.events);
    await insertAll(tx, stakingPositions, seededStakingPositions(history.transactions, now));
    await insertAll(tx, changeRequests, requests);

    return {
      seeded: true,
      organizationId: ref.org.id,
      counts: {
        subOrgs: ref.subOrgs.length,
        vaults: ref.vaults.length,
        contacts: ref.contacts.length,
        assets: ref.assets.length,
        bankAccounts: accounts.length,
        transactions: history.transactions.length,
        statusEvents: history.events.length,
        changeRequests: requests.length,
      },
    };
  });
}

// Multi-row inserts in batches: one round trip per few hundred rows, well
// under PostgreSQL's 65,535 bind parameters per statement.
async function insertAll<T extends PgTable>(
  db: Pick<Database, 'insert'>,
  table: T,
  rows: ReadonlyArray<InferInsertModel<T>>,
) {
  for (let i = 0; i < rows.length; i += BATCH) {
    await db.insert(table).values(rows.slice(i, i + BATCH));
  }
}

function changeRequestFor(
  rng: SeedRandom,
  orgId: string,
  entityType: ChangeRequestEntityType,
  entityId: string,
  entityStatus: TransactionStatus | BankAccountStatus,
  createdById: string,
  createdAt: Date,
  decidedAt: Date,
): ChangeRequestRow {
  const id = rng.uuid();
  const approvalId = rng.uuid();
  const status =
    entityStatus === 'PENDING' ? 'PENDING' : entityStatus === 'DECLINED' ? 'REJECTED' : 'APPROVED';
  const decided = status !== 'PENDING';
  return {
    id,
    orgId,
    entityType,
    entityId,
    status,
    approvalId,
    approvalMessage: approvalMessage({
      approvalId,
      changeRequestId: id,
      entityType,
      entityId,
      orgId,
      createdAt,
    }),
    createdById,
    decidedById: decided ? `approver-${rng.hex(4)}` : null,
    reason: status === 'REJECTED' ? 'Details could not be verified with the counterparty' : null,
    createdAt,
    updatedAt: decided ? decidedAt : createdAt,
    decidedAt: decided ? decidedAt : null,
  };
}

/** Every transaction the organization created went through approval, except drafts. */
function transactionChangeRequests(
  rng: SeedRandom,
  orgId: string,
  rows: readonly TransactionSeedRow[],
  events: readonly StatusEventSeedRow[],
): ChangeRequestRow[] {
  const decidedAt = new Map<string, Date>();
  for (const e of events) {
    if ((e.status === 'APPROVED' || e.status === 'DECLINED') && e.at)
      decidedAt.set(e.transactionId, e.at);
  }
  return rows
    .filter((r) => r.createdById && r.status !== 'DRAFT')
    .map((r) =>
      changeRequestFor(
        rng,
        orgId,
        'TRANSACTION',
        r.id,
        r.status === 'PENDING' || r.status === 'DECLINED' ? r.status : 'APPROVED',
        r.createdById ?? '',
        r.createdAt,
        decidedAt.get(r.id) ?? r.createdAt,
      ),
    );
}

async function isSeeded(db: Pick<Database, 'select'>): Promise<boolean> {
  const existing = await db.select({ id: organizations.id }).from(organizations).limit(1);
  return existing.length > 0;
}
