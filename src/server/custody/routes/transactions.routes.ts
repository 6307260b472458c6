import { Hono } from 'hono';
import { routes } from '../../../contract/paths.ts';
import { TransactionFilters } from '../../../contract/transaction.ts';
import type { AppEnv } from '../../http/app-env.ts';
import type { CustodyBackend } from '../backend.ts';
import { custodyContext } from './context.ts';
import { parseFilters, parsePageRequest, pathId } from './list-query.ts';

/** Endpoints 4 (list) and 5 (get). */
export function transactionRoutes(backend: CustodyBackend) {
  return new Hono<AppEnv>()
    .get(routes.transactions, async (c) => {
      const page = parsePageRequest(c);
      const query = { ...parseFilters(c, TransactionFilters), ...page };
      return c.json(await backend.listTransactions(custodyContext(c), query));
    })
    .get(routes.transaction, async (c) => {
      return c.json(
        await backend.getTransaction(custodyContext(c), pathId(c, 'transactionId', 'transaction')),
      );
    });
}
