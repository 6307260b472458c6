import { Hono, type Context } from 'hono';
import { etag } from 'hono/etag';
import { maskNumbersIn } from '#contract/bank-account.ts';
import { chainInfo } from '#contract/chains.ts';
import { AUDIT_REASON_HEADER, ERROR_CODES } from '#contract/common.ts';
import {
  createTransaction,
  estimateFee,
  replaceTransaction,
} from '#contract/endpoints/transaction-writes.ts';
import { getTransaction, listTransactions } from '#contract/endpoints/transactions.ts';
import {
  CreateTransactionOrRampRequest,
  isRampCreate,
  RAMP_CATEGORIES,
  type RampCreateRequest,
} from '#contract/ramps.ts';
import { CREATABLE_CATEGORIES } from '#contract/transaction.ts';
import { isSwapCreate } from '#contract/trades.ts';
import { ApiError } from '#contract/api-error.ts';
import type { AppEnv } from '../../http/app-env.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import { mountCustody, parseBody } from '../../custody/routes/parse-body.ts';
import { fromTradeQuoteCreate, renamed } from './ramp-trade-create.ts';

/**
 * Endpoints 4 (list), 5 (get), 6 (replace), 7 (create) and 8 (estimate fee).
 *
 * The get carries a weak ETag over its body (weak: the answer may be sent
 * compressed or not, see http/compress-json.ts): the same row gives the same
 * bytes on every server sharing the database, so a poll that finds nothing
 * new is a bodiless 304 whichever server answers it. The body is built (and
 * scope checked) first, so a 304 only ever answers someone who may read it.
 */
export function transactionRoutes(backend: CustodyBackend) {
  const app = new Hono<AppEnv>();
  mountCustody(app, listTransactions, ({ query }, c) =>
    backend.listTransactions(custodyContext(c), query),
  );
  mountCustody(
    app,
    createTransaction,
    // 200, not 201: the provider's SDKs accept any 2xx and the description only says "returns a Transaction".
    // ON_RAMP and OFF_RAMP execute a quote (capabilities/ramps, the Python SDK's shape).
    // SWAP executes a trade quote (capabilities/ramps, both SDKs' create_trade_transaction).
    async ({ body }, c) =>
      isRampCreate(body)
        ? await createRamp(backend, c, body)
        : isSwapCreate(body)
          ? backend.createTradeTransaction(custodyContext(c), body)
          : backend.createTransaction(custodyContext(c), body),
    {
      body: parseCreateBody,
      audit: {
        fromRequest: (body, c) => ({
          note: skippedSimulation(body, c.req.header(AUDIT_REASON_HEADER)),
        }),
        summary: (answer) => `Transaction ${describe(answer)}`,
      },
    },
  );
  mountCustody(
    app,
    replaceTransaction,
    ({ body }, c) => backend.replaceTransaction(custodyContext(c), body),
    { audit: { summary: (answer) => `Replacement ${describe(answer)}` } },
  );
  // A read sent as POST: not audited.
  mountCustody(app, estimateFee, ({ body }, c) => backend.estimateFee(custodyContext(c), body));
  mountCustody(
    app,
    getTransaction,
    ({ params }, c) => backend.getTransaction(custodyContext(c), params.transactionId),
    { before: [etag({ weak: true })] },
  );
  return app;
}

const DATA_VARIANTS = {
  evm: '{callData (hex), toAddress?}',
  icp: '{canisterId, method, arg}',
  rawSigning: '{messageHex (hex)}',
  methodParams: '{method, params (object)}',
} as const;

/**
 * The contract's schema, with two answers it cannot word well itself: which
 * categories exist, and which `data` variant the chain of a contract call takes.
 */
const CATEGORIES: readonly string[] = [...CREATABLE_CATEGORIES, ...RAMP_CATEGORIES, 'SWAP'];

/** The names to give back a refusal of a ramp created as create_ramp_transaction sends it. */
const tradeQuoteNames = new WeakMap<object, Record<string, string>>();

async function createRamp(backend: CustodyBackend, c: Context<AppEnv>, body: RampCreateRequest) {
  try {
    return await backend.createRampTransaction(custodyContext(c), body);
  } catch (error) {
    const names = tradeQuoteNames.get(body);
    throw names ? renamed(error, names) : error;
  }
}

function parseCreateBody(raw: unknown): CreateTransactionOrRampRequest {
  const fromTradeQuote = fromTradeQuoteCreate(raw);
  if (!fromTradeQuote) return parseSentBody(raw);
  try {
    const body = parseSentBody(fromTradeQuote.body);
    tradeQuoteNames.set(body, fromTradeQuote.names);
    return body;
  } catch (error) {
    throw renamed(error, fromTradeQuote.names);
  }
}

function parseSentBody(raw: unknown): CreateTransactionOrRampRequest {
  const category =
    raw && typeof raw === 'object' ? (raw as { category?: unknown }).category : undefined;
  if (typeof category !== 'string' || !CATEGORIES.includes(category)) {
    const message = `category must be one of ${CATEGORIES.join(', ')}`;
    throw new ApiError(400, ERROR_CODES.validation, message, [{ field: 'category', message }]);
  }
  try {
    return parseBody(CreateTransactionOrRampRequest, raw);
  } catch (error) {
    if (!(error instanceof ApiError) || !error.fields?.some((f) => f.field === 'data')) throw error;
    const chain = chainInfo(String((raw as { blockChain?: unknown }).blockChain ?? ''));
    const expected = chain?.contractCall
      ? `on ${chain.value} data must be ${DATA_VARIANTS[chain.contractCall]}`
      : `data must be one of ${Object.values(DATA_VARIANTS).join(', ')}`;
    const fields = error.fields.map((f) =>
      f.field === 'data' ? { field: 'data', message: `data: ${expected}` } : f,
    );
    throw new ApiError(400, error.code, fields.map((f) => f.message).join('; '), fields);
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** "TRANSFER 0.5 ETH ETHEREUM created, status PENDING", for the audit row. */
function describe(answer: Record<string, unknown>): string {
  const parts = ['category', 'amount', 'asset', 'blockChain'].map((f) => text(answer[f]));
  return `${parts.filter(Boolean).join(' ')} created, status ${text(answer['status']) ?? 'unknown'}`;
}

const MAX_REASON_LENGTH = 500;

/**
 * For a create that asks to skip preprocessing simulation (7b: "use only with
 * an explicit reason"), the reason the member wrote, as the audit row says it.
 */
function skippedSimulation(body: unknown, reasonHeader: string | undefined): string | undefined {
  const options =
    body && typeof body === 'object' ? (body as Record<string, unknown>)['creationOptions'] : null;
  if (!options || typeof options !== 'object') return undefined;
  if ((options as Record<string, unknown>)['skipPreprocessSimulation'] !== true) return undefined;
  const reason = maskNumbersIn(
    decodeOrKeep(reasonHeader ?? '')
      .trim()
      .slice(0, MAX_REASON_LENGTH),
  );
  return reason
    ? `preprocessing simulation skipped, reason: "${reason}"`
    : 'preprocessing simulation skipped, no reason given';
}

/** The header is percent-encoded by the SPA; a malformed escape is kept as sent. */
function decodeOrKeep(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
