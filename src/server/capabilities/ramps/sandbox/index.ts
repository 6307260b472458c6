import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Page } from '#contract/common.ts';
import type { RampCreateRequest } from '#contract/ramps.ts';
import type { Transaction } from '#contract/transaction.ts';
import type { Clock } from '../../../clock.ts';
import type { Database } from '../../../db/client.ts';
import { transactions } from '../../../db/schema/sandbox.ts';
import type { CustodyContext } from '../../../custody/call-context.ts';
import { after, decodeCursor, keysetPage, newestFirst } from '../../../custody/sandbox/keyset.ts';
import { toWireTransaction } from '../../../custody/sandbox/mappers.ts';
import { noOrganization } from '../../../custody/sandbox/engine/problems.ts';
import { executeRampQuote } from '../../../custody/sandbox/engine/ramp-create.ts';
import { markDepositDone } from '../../../custody/sandbox/engine/ramp-lifecycle.ts';
import { quoteRamp } from '../../../custody/sandbox/engine/ramp-quote.ts';
import {
  routeFromIntent,
  routeFromQuoteRequest,
  type RouteRequest,
} from '../../../custody/sandbox/engine/ramp-route.ts';
import type { BankAccountRampsQuery, RampsPort } from '../port.ts';

/** What the ramps' sandbox needs of the composite (a structural subset of its SandboxDeps). */
export interface RampsSandboxDeps {
  db: Database;
  clock: Clock;
  orgIdFor(ctx: CustodyContext): Promise<string | null>;
}

/**
 * Ramps and FX in the embedded sandbox: quotes priced by the engine's
 * providers (custody/sandbox/engine/ramp-*.ts), executed into PENDING
 * transactions that go through the same approvals as every other, and moved
 * by the lifecycle simulator.
 */
export function rampsSandbox(deps: RampsSandboxDeps): RampsPort {
  const { db, clock } = deps;
  async function org(ctx: CustodyContext): Promise<string> {
    const orgId = await deps.orgIdFor(ctx);
    if (!orgId) throw noOrganization();
    return orgId;
  }
  const scopeOf = (ctx: CustodyContext) => ctx.scope?.subOrgIds ?? null;
  return {
    quoteRamp: async (ctx, body) =>
      quoteRamp(db, await org(ctx), routeFromQuoteRequest(body), clock.now()),
    async createTransactionFromIntent(ctx, body) {
      const row = await executeRampQuote(db, {
        orgId: await org(ctx),
        actor: ctx.actor,
        scopeSubOrgIds: scopeOf(ctx),
        now: clock.now(),
        quoteId: body.quoteId,
        sent: body.intent ? routeFromIntent(body.intent) : undefined,
        subOrgId: body.subOrgId,
        externalId: body.externalId,
        memo: body.memo,
      });
      return toWireTransaction(row);
    },
    async createRampTransaction(ctx, body) {
      const row = await executeRampQuote(db, {
        orgId: await org(ctx),
        actor: ctx.actor,
        scopeSubOrgIds: scopeOf(ctx),
        now: clock.now(),
        quoteId: body.quoteId,
        sent: flatRoute(body),
        externalId: body.externalId,
        memo: body.memo,
      });
      return toWireTransaction(row);
    },
    async markDepositDone(ctx, body) {
      const row = await markDepositDone(db, {
        orgId: await org(ctx),
        transactionId: body.transactionId,
        now: clock.now(),
      });
      return toWireTransaction(row);
    },
    listBankAccountRamps: async (ctx, bankAccountId, query) =>
      listBankAccountRamps(db, await deps.orgIdFor(ctx), bankAccountId, query),
  };
}

/** What a G1 create says of its route: its category and parties (the rest is the quote's). */
function flatRoute(body: RampCreateRequest): RouteRequest {
  return {
    prefix: '',
    category: body.category,
    source: body.source,
    destination: body.destination,
  };
}

async function listBankAccountRamps(
  db: Database,
  orgId: string | null,
  bankAccountId: string,
  query: BankAccountRampsQuery,
): Promise<Page<Transaction>> {
  const position = query.cursor ? decodeCursor('transactions', query.cursor) : undefined;
  if (!orgId) return { results: [], hasNext: false, nextCursor: null };
  const conditions: Array<SQL | undefined> = [
    eq(transactions.orgId, orgId),
    eq(transactions.bankAccountId, bankAccountId),
    query.subOrgId ? eq(transactions.subOrgId, query.subOrgId) : undefined,
    query.subOrgIds ? inArray(transactions.subOrgId, query.subOrgIds) : undefined,
    position ? after(transactions, position) : undefined,
  ];
  return keysetPage(
    'transactions',
    query.limit,
    (take) =>
      db
        .select()
        .from(transactions)
        .where(and(...conditions))
        .orderBy(...newestFirst(transactions))
        .limit(take),
    toWireTransaction,
  );
}
