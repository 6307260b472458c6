import { eq } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES, type Page } from '#contract/common.ts';
import { isV2Intent, quoteIdOfRampCreate, type RampCreateRequest } from '#contract/ramps.ts';
import type { Transaction } from '#contract/transaction.ts';
import type { Clock } from '../../../clock.ts';
import type { Database } from '../../../db/client.ts';
import { transactions } from '../../../db/schema/sandbox.ts';
import type { CustodyContext } from '../../../custody/call-context.ts';
import { toWireTransaction } from '../../../custody/sandbox/mappers.ts';
import { transactionPage } from '../../../custody/sandbox/transaction-page.ts';
import { noOrganization } from '../../../custody/sandbox/engine/problems.ts';
import {
  executeRampQuote,
  previewRampQuote,
  type EchoedQuote,
  type ExecuteRampInput,
} from './ramp-create.ts';
import { markDepositDone } from './ramp-lifecycle.ts';
import { quoteRamp } from './ramp-quote.ts';
import { exchangeRates, routeFromExchangeRates } from './ramp-exchange-rates.ts';
import { rampTradeQuotes, routeFromTradeQuote } from './ramp-trade-quote.ts';
import { executeTrade, previewTrade } from './trade-create.ts';
import { quoteTrade } from './trade-quote.ts';
import { acceptRampQuote, bindRampApproval, expireRampQuote } from './ramp-requote.ts';
import {
  renamedRefusal,
  routeFromQuoteRequest,
  routeFromV2Intent,
  routeOfIntent,
  type RouteRequest,
} from './ramp-route.ts';
import type { BankAccountRampsQuery, RampsPort } from '../port.ts';

/** What the ramps' sandbox needs of the composite (a structural subset of its SandboxDeps). */
export interface RampsSandboxDeps {
  db: Database;
  clock: Clock;
  orgIdFor(ctx: CustodyContext): Promise<string | null>;
  /** Kept on each ramp made: how far a re-quote's rate may move before an approver accepts it. */
  rateTolerancePercent: string;
}

/**
 * Ramps and FX in the embedded sandbox: quotes priced by the engine's
 * providers (ramp-*.ts beside this file), executed into PENDING
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
  function executeInput(
    ctx: CustodyContext,
    orgId: string,
    body: {
      quoteId?: string | undefined;
      externalId?: string | undefined;
      memo?: string | undefined;
    },
    sent: Pick<ExecuteRampInput, 'sent' | 'subOrgId' | 'requested' | 'echoed'>,
  ): ExecuteRampInput {
    return {
      orgId,
      actor: ctx.actor,
      scopeSubOrgIds: ctx.scope?.subOrgIds ?? null,
      now: clock.now(),
      quoteId: body.quoteId,
      externalId: body.externalId,
      memo: body.memo,
      rateTolerancePercent: deps.rateTolerancePercent,
      ...sent,
    };
  }
  /** Executes a quote as the caller: both SDK shapes, each saying what it says of the route. */
  async function execute(
    ctx: CustodyContext,
    body: {
      quoteId?: string | undefined;
      externalId?: string | undefined;
      memo?: string | undefined;
    },
    sent: Pick<ExecuteRampInput, 'sent' | 'subOrgId' | 'requested' | 'echoed'>,
  ): Promise<Transaction> {
    const row = await executeRampQuote(db, executeInput(ctx, await org(ctx), body, sent));
    return toWireTransaction(row);
  }
  return {
    quoteRamp: async (ctx, body) =>
      quoteRamp(db, await org(ctx), routeFromQuoteRequest(body), clock.now()),
    async quoteRampV2(ctx, body) {
      const orgId = await org(ctx);
      if (!isV2Intent(body.intent))
        // The Python SDK's v2 get_quote: the G2 intent, answered as a bare list.
        return (await quoteRamp(db, orgId, routeFromQuoteRequest(body), clock.now())).quotes;
      const { route, names } = routeFromV2Intent(body.intent);
      try {
        return { quotes: (await quoteRamp(db, orgId, route, clock.now())).quotes };
      } catch (error) {
        throw renamedRefusal(error, names);
      }
    },
    async rampExchangeRates(ctx, query) {
      const orgId = await org(ctx);
      const { route, names } = routeFromExchangeRates(query);
      try {
        return exchangeRates(await quoteRamp(db, orgId, route, clock.now()));
      } catch (error) {
        throw renamedRefusal(error, names);
      }
    },
    async createTransactionFromIntent(ctx, body) {
      const { route, names } = body.intent
        ? routeOfIntent(body.intent)
        : { route: undefined, names: {} };
      try {
        return await execute(ctx, body, { sent: route, subOrgId: body.subOrgId });
      } catch (error) {
        throw renamedRefusal(error, names);
      }
    },
    async previewRampTransaction(ctx, body) {
      const { route, names } = body.intent
        ? routeOfIntent(body.intent)
        : { route: undefined, names: {} };
      const input = executeInput(ctx, await org(ctx), body, {
        sent: route,
        subOrgId: body.subOrgId,
      });
      try {
        return await previewRampQuote(db, input);
      } catch (error) {
        throw renamedRefusal(error, names);
      }
    },
    createRampTransaction: (ctx, body) =>
      execute(
        ctx,
        { ...body, quoteId: quoteIdOfRampCreate(body) },
        {
          sent: flatRoute(body),
          requested: body.onRampRequestData && {
            ...routeFromQuoteRequest(body.onRampRequestData),
            prefix: 'onRampRequestData.',
          },
          echoed: echoedQuote(body),
        },
      ),
    async quoteTrade(ctx, query) {
      const orgId = await org(ctx);
      if (query.category !== 'ON_RAMP' && query.category !== 'OFF_RAMP')
        return quoteTrade(db, orgId, query, clock.now());
      const { route, names } = routeFromTradeQuote(query, query.category);
      try {
        return rampTradeQuotes(query, await quoteRamp(db, orgId, route, clock.now()));
      } catch (error) {
        throw renamedRefusal(error, names);
      }
    },
    previewTradeTransaction: async (ctx, body) =>
      previewTrade(db, {
        orgId: await org(ctx),
        actor: ctx.actor,
        scopeSubOrgIds: ctx.scope?.subOrgIds ?? null,
        now: clock.now(),
        body,
      }),
    async createTradeTransaction(ctx, body) {
      const row = await executeTrade(db, {
        orgId: await org(ctx),
        actor: ctx.actor,
        scopeSubOrgIds: ctx.scope?.subOrgIds ?? null,
        now: clock.now(),
        body,
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
    async bindRampApproval(ctx, transactionId, quoteId) {
      const bound = await bindRampApproval(db, {
        orgId: await org(ctx),
        transactionId,
        quoteId,
        now: clock.now(),
      });
      // Thrown once the re-quote is committed: the approver's next read shows the new quote.
      if (bound?.refusal) throw bound.refusal;
    },
    async expireRampQuote(ctx, transactionId, inSeconds) {
      const at = new Date(clock.now().getTime() + inSeconds * 1000);
      const row = await expireRampQuote(db, { orgId: await org(ctx), transactionId, at });
      if (!row)
        throw new ApiError(
          409,
          ERROR_CODES.conflict,
          `transaction ${transactionId} is not a ramp waiting for approval: only a PENDING ramp's quote can be expired`,
        );
      return toWireTransaction(row);
    },
    acceptRampQuote: async (ctx, transactionId, quoteId) =>
      acceptRampQuote(db, { orgId: await org(ctx), transactionId, quoteId }),
    listBankAccountRamps: async (ctx, bankAccountId, query) =>
      listBankAccountRamps(db, await deps.orgIdFor(ctx), bankAccountId, query),
  };
}

/**
 * The quote's answer a G1 create hands back (`onRampResponseData`): the
 * quote it executes (`quoteIdOfRampCreate`), named where it sits.
 */
function echoedQuote(body: RampCreateRequest): EchoedQuote | undefined {
  const data = body.onRampResponseData;
  if (!data) return undefined;
  const fromList = data.quoteId === undefined && data.quotes?.[0] !== undefined;
  const quote = fromList ? data.quotes?.[0] : data;
  return {
    prefix: fromList ? 'onRampResponseData.quotes.0.' : 'onRampResponseData.',
    quoteId: quote?.quoteId,
    finalToAmount: quote?.finalToAmount,
    finalFromAmount: quote?.finalFromAmount,
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

function listBankAccountRamps(
  db: Database,
  orgId: string | null,
  bankAccountId: string,
  query: BankAccountRampsQuery,
): Promise<Page<Transaction>> {
  return transactionPage(db, orgId, query, [eq(transactions.bankAccountId, bankAccountId)]);
}
