import { randomUUID } from 'node:crypto';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES, type Page, type PageRequest } from '#contract/common.ts';
import { pathOf, toQueryString } from '#contract/endpoint.ts';
import {
  createTransactionFromIntent,
  markDepositDone,
  quoteRamp,
  quoteRampV2,
  quoteTrade,
  rampExchangeRates,
} from '#contract/endpoints/ramp-writes.ts';
import { createTransaction } from '#contract/endpoints/transaction-writes.ts';
import {
  RampExchangeRatesResponse,
  RampQuoteResponse,
  V2QuoteResponse,
  type IntentCreateRequest,
  type RampQuote,
} from '#contract/ramps.ts';
import { GetTradeQuoteResponse, type SwapCreateRequest } from '#contract/trades.ts';
import { Transaction, type TransactionFilters } from '#contract/transaction.ts';
import type { CustodyContext } from '../../../custody/call-context.ts';
import {
  forgetTransactionIntent,
  recordCreated,
  recordTransactionIntent,
} from '../../../custody/upstream/creators.store.ts';
import { UpstreamFailure } from '../../../custody/upstream/upstream-client.ts';
import { staffId, type UpstreamDeps } from '../../../custody/upstream/upstream-deps.ts';
import type { RampsPort } from '../port.ts';

/** What the ramps' upstream part needs of the upstream composite (upstream-deps.ts), and the transactions' list. */
export type RampsUpstreamDeps = Pick<UpstreamDeps, 'db' | 'clock' | 'call' | 'unknownOutcome'> & {
  listTransactions(
    ctx: CustodyContext,
    query: PageRequest & TransactionFilters,
  ): Promise<Page<Transaction>>;
};

/** The categories a bank account's conversions are recorded as: ramps, and FX (RAMP). */
const RAMP_CATEGORIES_LISTED: readonly string[] = ['ON_RAMP', 'OFF_RAMP', 'RAMP'];

/** A POST of an endpoint without path parameters, the body as the caller sent it. */
const post = (endpoint: Parameters<typeof pathOf>[0], body: unknown) =>
  ({ method: 'POST', path: pathOf(endpoint), body }) as const;

/** Upstream pages read for one page of a bank account's ramps before answering with what was found. */
const MAX_UPSTREAM_PAGES = 10;

/** How long a quote priced through this console is remembered at most (the sandbox's live 60 s). */
export const QUOTE_MEMORY_MS = 15 * 60_000;
/** Quotes remembered at most: older ones are forgotten first. */
const MAX_QUOTES = 2_000;

/** The category each kind is recorded as, as the custody API answers it (the sandbox's engine). */
const KIND_CATEGORIES = { OFF_RAMP: 'OFF_RAMP', ON_RAMP: 'ON_RAMP', FX: 'RAMP' } as const;

function refuse(code: string, message: string): ApiError {
  return new ApiError(400, code, `quoteId: ${message}`, [{ field: 'quoteId', message }]);
}

/**
 * The transaction a quote would make, read from the quote as the custody API
 * answered it (its kind, sides, amounts, vault and sub-organization): what
 * the approval policy's review judges. Valued in USD only where the quote
 * says so (what arrives is USD); otherwise the policy prices the digital
 * asset from the custody API's balances, or fails closed.
 */
export function transactionOfQuote(quote: RampQuote, body: IntentCreateRequest): Transaction {
  const kind = quote.kind;
  const offRamp = kind === 'OFF_RAMP';
  const intent = body.intent && 'source' in body.intent ? body.intent : undefined;
  const source = quote.source ?? (intent?.source as Transaction['source']);
  const destination = quote.destination ?? (intent?.destination as Transaction['destination']);
  const vaultParty = offRamp ? source : destination;
  const vaultId =
    (offRamp ? quote.input?.vaultId : quote.output?.vaultId) ??
    (vaultParty?.type === 'VAULT' ? vaultParty.id : undefined);
  const chain = offRamp ? quote.fromChain : kind === 'ON_RAMP' ? quote.toChain : undefined;
  const asset = offRamp ? quote.fromAsset : quote.toAsset;
  const amount = offRamp ? quote.finalFromAmount : quote.finalToAmount;
  return {
    ...(quote.subOrgId ? { subOrgId: quote.subOrgId } : {}),
    ...(vaultId && kind !== 'FX' ? { vaultId } : {}),
    status: 'PENDING',
    ...(kind && kind in KIND_CATEGORIES
      ? {
          category: KIND_CATEGORIES[kind as keyof typeof KIND_CATEGORIES],
          transactionType: kind === 'ON_RAMP' ? 'INCOMING' : 'OUTGOING',
        }
      : {}),
    ...(chain ? { blockChain: chain } : {}),
    ...(asset ? { asset } : {}),
    ...(amount ? { amount } : {}),
    ...(quote.toAsset === 'USD' && quote.finalToAmount ? { amountInUSD: quote.finalToAmount } : {}),
    ...(source ? { source } : {}),
    ...(destination ? { destination } : {}),
  };
}

/**
 * Ramps and FX forwarded to the custody API, each call signed like every
 * other (upstream-client.ts), in the shape the caller sent. Executes are
 * never retried blindly: each carries an externalId (the caller's, or
 * `console-<uuid>`), the member is recorded as its creator before it is
 * sent (four-eyes, as for transfers), and a lost answer is looked up by it.
 */
export function rampsUpstream(deps: RampsUpstreamDeps): RampsPort {
  const { db, clock } = deps;
  // Quotes forwarded through this console, until they expire: the review judges a ramp by one.
  const quotes = new Map<string, { quote: RampQuote; until: number }>();

  function remember(answered: readonly RampQuote[]): void {
    const now = clock.now().getTime();
    for (const [id, kept] of quotes) if (kept.until <= now) quotes.delete(id);
    for (const quote of answered) {
      const expires = quote.expiresAt ? Date.parse(quote.expiresAt) : Number.NaN;
      const until = Math.min(
        Number.isNaN(expires) ? now + QUOTE_MEMORY_MS : expires,
        now + QUOTE_MEMORY_MS,
      );
      if (quotes.size >= MAX_QUOTES) quotes.delete(quotes.keys().next().value as string);
      quotes.set(quote.quoteId, { quote, until });
    }
  }

  async function execute<B extends { externalId?: string | undefined }>(
    ctx: CustodyContext,
    path: string,
    body: B,
  ): Promise<Transaction> {
    const externalId = body.externalId ?? `console-${randomUUID()}`;
    const member = staffId(ctx);
    if (member) await recordTransactionIntent(db, externalId, member, clock.now());
    let created: Transaction;
    try {
      created = await deps.call(ctx, Transaction, {
        method: 'POST',
        path,
        body: { ...body, externalId },
        retry: false,
      });
    } catch (error) {
      if (!(error instanceof UpstreamFailure)) {
        // Refused outright (a 4xx): nothing was created under this externalId by this call.
        if (member && error instanceof ApiError)
          await forgetTransactionIntent(db, externalId, member);
        throw error;
      }
      created = await deps.unknownOutcome(ctx, error, 'ramp', () =>
        deps.listTransactions(ctx, { externalId, limit: 1 }).then((page) => page.results[0]),
      );
    }
    if (member && created.id)
      await recordCreated(db, {
        entityType: 'TRANSACTION',
        entityId: created.id,
        staffId: member,
        externalId,
        at: clock.now(),
      });
    return created;
  }

  return {
    // A price changes nothing upstream: safe to retry like a read.
    async quoteRamp(ctx, body) {
      const answer = await deps.call(ctx, RampQuoteResponse, {
        ...post(quoteRamp, body),
        retry: true,
      });
      remember(answer.quotes);
      return answer;
    },
    async quoteRampV2(ctx, body) {
      const answer = await deps.call(ctx, V2QuoteResponse, {
        ...post(quoteRampV2, body),
        retry: true,
      });
      remember(Array.isArray(answer) ? answer : answer.quotes);
      return answer;
    },
    // A price is a read: forwarded with the caller's query, signed like every call.
    rampExchangeRates: (ctx, query) =>
      deps.call(ctx, RampExchangeRatesResponse, {
        method: 'GET',
        path: `${pathOf(rampExchangeRates)}${toQueryString(query)}`,
        retry: true,
      }),
    // Judged from the quote as the custody API priced it; the execute is the custody API's to check.
    async previewRampTransaction(_ctx, body) {
      if (!body.quoteId)
        throw refuse(
          ERROR_CODES.quoteRequired,
          'is required: ramps and FX are executed from a quote (POST …/transactions/quote/)',
        );
      const kept = quotes.get(body.quoteId);
      if (!kept)
        throw refuse(
          ERROR_CODES.quoteNotFound,
          `quote "${body.quoteId}" was not priced through this console; its approval rule is judged when it is executed`,
        );
      if (kept.until <= clock.now().getTime())
        throw refuse(
          ERROR_CODES.quoteExpired,
          `quote "${body.quoteId}" expired; ask for a new quote`,
        );
      if (body.subOrgId !== undefined && body.subOrgId !== (kept.quote.subOrgId ?? undefined))
        throw refuse(
          ERROR_CODES.quoteOutOfScope,
          `quote "${body.quoteId}" was priced for ${kept.quote.subOrgId ? `sub-organization ${kept.quote.subOrgId}` : 'the organization itself'}, not where this request acts`,
        );
      return transactionOfQuote(kept.quote, body);
    },
    createTransactionFromIntent: (ctx, body) =>
      execute(ctx, pathOf(createTransactionFromIntent), body),
    createRampTransaction: (ctx, body) => execute(ctx, pathOf(createTransaction), body),
    // A trade's price is a read: forwarded with the caller's query, signed like every call.
    quoteTrade: (ctx, query) =>
      deps.call(ctx, GetTradeQuoteResponse, {
        method: 'GET',
        path: `${pathOf(quoteTrade)}${toQueryString(query)}`,
        retry: true,
      }),
    // The custody API checks the quote handed back; the console records its creator as for ramps.
    // The custody API checks the quote at create; the review reads the swap as the body hands it back.
    previewTradeTransaction: async (_ctx, body) => swapOfBody(body),
    createTradeTransaction: (ctx, body) => execute(ctx, pathOf(createTransaction), body),
    // Never retried: marking twice is refused upstream as it is here.
    markDepositDone: (ctx, body) =>
      deps.call(ctx, Transaction, { ...post(markDepositDone, body), retry: false }),
    /**
     * The custody API lists no ramps by bank account: its transactions are
     * read a page at a time and the ramps naming the account kept, ending on
     * an upstream page boundary so the next cursor is upstream's own.
     */
    async listBankAccountRamps(ctx, bankAccountId, query) {
      const results: Transaction[] = [];
      let cursor = query.cursor;
      for (let call = 0; call < MAX_UPSTREAM_PAGES; call += 1) {
        const page = await deps.listTransactions(ctx, {
          limit: query.limit - results.length,
          cursor,
          ...(query.subOrgId ? { subOrgId: query.subOrgId } : {}),
        });
        results.push(
          ...page.results.filter(
            (t) =>
              RAMP_CATEGORIES_LISTED.includes(t.category ?? '') &&
              (t.source?.id === bankAccountId || t.destination?.id === bankAccountId) &&
              (!query.subOrgIds || (!!t.subOrgId && query.subOrgIds.includes(t.subOrgId))),
          ),
        );
        cursor = page.nextCursor ?? undefined;
        if (!page.hasNext || !cursor) return { results, nextCursor: null, hasNext: false };
        if (results.length >= query.limit) break;
      }
      return { results, nextCursor: cursor ?? null, hasNext: true };
    },
  };
}

/** A swap create body as the transaction it names: the quote's request and answer, handed back. */
function swapOfBody(body: SwapCreateRequest): Transaction {
  const request = body.tradeRequestData;
  const response = body.tradeResponseData;
  const fromChain = body.blockChain ?? request.blockChain;
  const toChain = request.toBlockchain ?? fromChain;
  const vault = (chain: string | undefined) => ({
    type: 'VAULT' as const,
    id: body.vaultId,
    ...(chain ? { chain } : {}),
  });
  return {
    vaultId: body.vaultId,
    status: 'PENDING',
    transactionType: 'OUTGOING',
    category: 'SWAP',
    ...(fromChain ? { blockChain: fromChain } : {}),
    asset: request.fromAsset,
    amount: request.fromAmount,
    ...(request.fromAmountUSD ? { amountInUSD: request.fromAmountUSD } : {}),
    source: vault(fromChain),
    destination: vault(toChain),
    ...(response.fees?.amount
      ? {
          fees: {
            amount: response.fees.amount,
            asset: response.fees.asset ?? request.fromAsset,
            ...(response.feeInUSD ? { amountInFiat: response.feeInUSD } : {}),
          },
        }
      : {}),
    toAsset: request.toAsset,
    ...(toChain ? { toBlockChain: toChain } : {}),
    finalToAmount: response.finalToAmount,
    tradeRequestData: request,
    tradeResponseData: response,
  };
}
