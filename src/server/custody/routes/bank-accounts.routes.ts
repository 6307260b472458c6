import { Hono } from 'hono';
import { BankAccountCreateRequest, BankAccountFilters } from '../../../contract/bank-account.ts';
import { routes } from '../../../contract/paths.ts';
import type { AppEnv } from '../../http/app-env.ts';
import type { CustodyBackend } from '../backend.ts';
import { custodyContext } from './context.ts';
import { parseBody, readJsonBody } from './json-body.ts';
import { parseFilters, parsePageRequest, pathId } from './list-query.ts';

/** Endpoints 1 (list), 2 (get) and 3 (create). Responses carry full numbers; the SPA masks them. */
export function bankAccountRoutes(backend: CustodyBackend) {
  return new Hono<AppEnv>()
    .get(routes.bankAccounts, async (c) => {
      const page = parsePageRequest(c);
      const query = { ...parseFilters(c, BankAccountFilters), ...page };
      return c.json(await backend.listBankAccounts(custodyContext(c), query));
    })
    .post(routes.bankAccounts, async (c) => {
      // The rail's rules (DESIGN.md §3) live in the contract's schema, shared with the form.
      const input = parseBody(BankAccountCreateRequest, await readJsonBody(c));
      // 200, not 201: the description promises a BankAccount, and an SDK may test for 200.
      return c.json(await backend.createBankAccount(custodyContext(c), input));
    })
    .get(routes.bankAccount, async (c) => {
      return c.json(
        await backend.getBankAccount(custodyContext(c), pathId(c, 'bankAccountId', 'bank account')),
      );
    });
}
