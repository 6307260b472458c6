import { Hono } from 'hono';
import { BankAccountFilters } from '../../../contract/bank-account.ts';
import { routes } from '../../../contract/paths.ts';
import type { AppEnv } from '../../http/app-env.ts';
import type { CustodyBackend } from '../backend.ts';
import { custodyContext } from './context.ts';
import { parseFilters, parsePageRequest, pathId } from './list-query.ts';

/** Endpoints 1 (list) and 2 (get). Responses carry full numbers; the SPA masks them. */
export function bankAccountRoutes(backend: CustodyBackend) {
  return new Hono<AppEnv>()
    .get(routes.bankAccounts, async (c) => {
      const page = parsePageRequest(c);
      const query = { ...parseFilters(c, BankAccountFilters), ...page };
      return c.json(await backend.listBankAccounts(custodyContext(c), query));
    })
    .get(routes.bankAccount, async (c) => {
      return c.json(
        await backend.getBankAccount(custodyContext(c), pathId(c, 'bankAccountId', 'bank account')),
      );
    });
}
