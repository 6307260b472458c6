import { asc } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.ts';
import { cachedRead } from '../../db/read-cache.ts';
import {
  assets,
  organizations,
  subOrgs,
  transactions,
  vaults,
  wallets,
} from '../../db/schema/sandbox.ts';
import type { CustodyBackend, CustodyContext } from '../backend.ts';
import { createApiClientDirectory } from './api-users.store.ts';
import { approvalDecisions } from '../../capabilities/approvals/sandbox/latest-decisions.ts';
import {
  approvalEntityId,
  decideApproval,
  getApprovalMessage,
} from '../../capabilities/approvals/sandbox/approval-action.ts';
import { createBankAccount } from '../../capabilities/bank-accounts/sandbox/create.ts';
import { changeRequestHistory } from '../../capabilities/approvals/sandbox/history.ts';
import {
  countsKey,
  PENDING_COUNT_TABLES,
  PENDING_PAGE_TABLES,
  pendingApprovalCounts,
  pendingApprovalPage,
} from '../../capabilities/approvals/sandbox/pending.ts';
import {
  getBankAccount,
  listBankAccounts,
} from '../../capabilities/bank-accounts/sandbox/store.ts';
import {
  getContact,
  getVault,
  getVaultBalances,
  listAssets,
  listContacts,
  listSubOrgs,
  listSupportedChains,
  listVaults,
} from '../../capabilities/reference/sandbox/store.ts';
import { contactsSandbox } from '../../capabilities/contacts/sandbox/index.ts';
import { vaultsSandbox } from '../../capabilities/vaults/sandbox/index.ts';
import { createTransactionEngine } from './engine/api.ts';
import { systemClock, type Clock } from '../../clock.ts';
import { getTransaction, listTransactions } from '../../capabilities/transactions/sandbox/store.ts';

export interface SandboxBackendOptions {
  db: Database;
  /**
   * The organization a caller without one of its own acts in. Defaults to the
   * oldest organization, which on a seeded sandbox is the only one.
   */
  orgId?: string;
  /** The engine's time (fees, timestamps); tests pass a TestClock. */
  clock?: Clock;
}

/** The embedded custody service: every read and write over the sandbox's tables. */
export function createSandboxBackend(options: SandboxBackendOptions): CustodyBackend {
  const { db } = options;
  // One clock for everything the sandbox stamps: transactions, fees, bank accounts, decisions.
  const clock = options.clock ?? systemClock;
  const engine = createTransactionEngine(db, clock);
  let defaultOrgId = options.orgId;

  async function orgIdFor(ctx: CustodyContext): Promise<string | null> {
    if (ctx.actor?.orgId) return ctx.actor.orgId;
    if (!defaultOrgId) {
      // Not cached while absent: the seed may create the organization later.
      const [org] = await db
        .select({ id: organizations.id })
        .from(organizations)
        .orderBy(asc(organizations.createdAt), asc(organizations.id))
        .limit(1);
      defaultOrgId = org?.id;
    }
    return defaultOrgId ?? null;
  }

  /**
   * A list read through the read cache, keyed by the organization and the
   * whole query; `tables` are every table its load reads (db/read-cache.ts).
   */
  async function cachedList<T>(
    ctx: CustodyContext,
    kind: string,
    query: unknown,
    tables: readonly PgTable[],
    load: (orgId: string | null) => Promise<T>,
  ): Promise<T> {
    const orgId = await orgIdFor(ctx);
    return cachedRead(`${kind}:${orgId}:${JSON.stringify(query)}`, () => load(orgId), tables);
  }

  return {
    kind: 'sandbox',
    ...contactsSandbox({ db, clock, orgIdFor }),
    ...vaultsSandbox({ db, clock, orgIdFor }),
    // The console's hottest reads, reused while nothing commits (db/read-cache.ts); the key holds
    // the organization and the whole query, the scope's sub-orgs included (console/scoped-backend.ts).
    listTransactions: (ctx, query) =>
      cachedList(ctx, 'transactions', query, [transactions], (orgId) =>
        listTransactions(db, orgId, query),
      ),
    getTransaction: async (ctx, id) => {
      const orgId = await orgIdFor(ctx);
      return cachedRead(`transaction:${orgId}:${id}`, () => getTransaction(db, orgId, id));
    },
    createTransaction: async (ctx, body) => engine.create(await orgIdFor(ctx), ctx.actor, body),
    replaceTransaction: async (ctx, body) => engine.replace(await orgIdFor(ctx), ctx.actor, body),
    estimateFee: async (ctx, body) => engine.estimateFee(await orgIdFor(ctx), body),
    listBankAccounts: async (ctx, query) => listBankAccounts(db, await orgIdFor(ctx), query),
    getBankAccount: async (ctx, id) => getBankAccount(db, await orgIdFor(ctx), id),
    createBankAccount: async (ctx, input) =>
      createBankAccount(db, await orgIdFor(ctx), ctx.actor, input, clock.now()),
    getApprovalMessage: async (ctx, entityId) =>
      getApprovalMessage(db, await orgIdFor(ctx), entityId),
    decideApproval: async (ctx, approvalId, request) =>
      decideApproval(db, await orgIdFor(ctx), ctx.actor, approvalId, request, clock.now()),
    approvalEntityId: async (ctx, approvalId) =>
      approvalEntityId(db, await orgIdFor(ctx), approvalId),
    changeRequestHistory: async (ctx, entityId) =>
      changeRequestHistory(db, await orgIdFor(ctx), entityId),
    approvalDecisions: async (ctx, entityIds) =>
      approvalDecisions(db, await orgIdFor(ctx), entityIds),
    // Every page's navigation asks for the inbox's count: reused while neither table is
    // written, and kept apart from the pages, whose cursors do not change it. A page also
    // reads who proposed its items (API users' names).
    pendingApprovals: async (ctx, query) => {
      const [page, counts] = await Promise.all([
        cachedList(ctx, 'pending-approvals', query, PENDING_PAGE_TABLES, (orgId) =>
          pendingApprovalPage(db, orgId, query),
        ),
        cachedList(
          ctx,
          'pending-approval-counts',
          countsKey(query),
          PENDING_COUNT_TABLES,
          (orgId) => pendingApprovalCounts(db, orgId, query),
        ),
      ]);
      return { ...page, ...counts };
    },
    apiClients: createApiClientDirectory(db),
    // Reference data every signed-in page reads (and every server render of
    // the list: http/server-render.ts), reused while nothing commits too.
    listVaults: (ctx, query) =>
      cachedList(ctx, 'vaults', query, [vaults, wallets], (orgId) => listVaults(db, orgId, query)),
    getVault: async (ctx, id) => getVault(db, await orgIdFor(ctx), id),
    getVaultBalances: async (ctx, id) => getVaultBalances(db, await orgIdFor(ctx), id),
    listContacts: async (ctx, query) => listContacts(db, await orgIdFor(ctx), query),
    getContact: async (ctx, id) => getContact(db, await orgIdFor(ctx), id),
    listAssets: async () => cachedRead('assets', () => listAssets(db), [assets]),
    listSupportedChains: async () => listSupportedChains(),
    listSubOrgs: (ctx, query) =>
      cachedList(ctx, 'sub-orgs', query, [subOrgs], (orgId) => listSubOrgs(db, orgId, query)),
  };
}
