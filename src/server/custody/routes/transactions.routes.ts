import { Hono } from 'hono';
import { etag } from 'hono/etag';
import { chainInfo } from '../../../contract/chains.ts';
import { ERROR_CODES } from '../../../contract/common.ts';
import { routes } from '../../../contract/paths.ts';
import {
  CREATABLE_CATEGORIES,
  CreateTransactionRequest,
  EstimateFeeRequest,
  ReplaceTransactionRequest,
  TransactionFilters,
} from '../../../contract/transaction.ts';
import { ApiError } from '../../http/api-error.ts';
import type { AppEnv } from '../../http/app-env.ts';
import type { CustodyBackend } from '../backend.ts';
import { custodyContext } from './context.ts';
import { parseBody, readJsonBody } from './json-body.ts';
import { parseFilters, parsePageRequest, pathId } from './list-query.ts';

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
  return new Hono<AppEnv>()
    .get(routes.transactions, async (c) => {
      const page = parsePageRequest(c);
      const query = { ...parseFilters(c, TransactionFilters), ...page };
      return c.json(await backend.listTransactions(custodyContext(c), query));
    })
    .post(routes.transactions, async (c) => {
      const body = parseCreateBody(await readJsonBody(c));
      // 200, not 201: the provider's SDKs accept any 2xx and the description only says "returns a Transaction".
      return c.json(await backend.createTransaction(custodyContext(c), body));
    })
    .post(routes.replaceTransaction, async (c) => {
      const body = parseBody(ReplaceTransactionRequest, await readJsonBody(c));
      return c.json(await backend.replaceTransaction(custodyContext(c), body));
    })
    .post(routes.estimateFee, async (c) => {
      const body = parseBody(EstimateFeeRequest, await readJsonBody(c));
      return c.json(await backend.estimateFee(custodyContext(c), body));
    })
    .get(routes.transaction, etag({ weak: true }), async (c) => {
      return c.json(
        await backend.getTransaction(custodyContext(c), pathId(c, 'transactionId', 'transaction')),
      );
    });
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
function parseCreateBody(raw: unknown): CreateTransactionRequest {
  const category =
    raw && typeof raw === 'object' ? (raw as { category?: unknown }).category : undefined;
  if (
    typeof category !== 'string' ||
    !(CREATABLE_CATEGORIES as readonly string[]).includes(category)
  ) {
    const message = `category must be one of ${CREATABLE_CATEGORIES.join(', ')}`;
    throw new ApiError(400, ERROR_CODES.validation, message, [{ field: 'category', message }]);
  }
  try {
    return parseBody(CreateTransactionRequest, raw);
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
