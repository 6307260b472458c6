import { Hono, type Context } from 'hono';
import {
  BankAccountCreateRequest,
  BankAccountFilters,
  maskAccountNumber,
  maskBankAccount,
  type BankAccount,
} from '../../../contract/bank-account.ts';
import { routes } from '../../../contract/paths.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { READ, rule } from '../../http/route-rule.ts';
import type { CustodyBackend } from '../backend.ts';
import { custodyContext } from '../context.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { parseBody } from './parse-body.ts';
import { parseFilters, parsePageRequest, pathId } from '../../http/list-query.ts';

/**
 * Endpoints 1 (list), 2 (get) and 3 (create).
 *
 * Full account and routing numbers never reach a browser except through the
 * audited reveal (`console/reveal.routes.ts`): every answer to a staff
 * session has them masked ("•••• 1234"). API clients are not browsers and
 * get the full fields the custody API defines.
 */
export function bankAccountRoutes(backend: CustodyBackend) {
  return new Hono<AppEnv>()
    .get(routes.bankAccounts, rule(READ), async (c) => {
      const page = parsePageRequest(c);
      const query = { ...parseFilters(c, BankAccountFilters), ...page };
      const found = await backend.listBankAccounts(custodyContext(c), query);
      return c.json({ ...found, results: found.results.map((a) => forCaller(c, a)) });
    })
    .post(
      routes.bankAccounts,
      rule({
        permission: 'initiate',
        action: 'create bank accounts',
        audit: {
          action: 'bank_account.create',
          entityType: 'BANK_ACCOUNT',
          summary: (answer) => {
            const text = (f: string) => (typeof answer[f] === 'string' ? answer[f] : '');
            const parts = [
              text('paymentMethod'),
              text('country'),
              maskAccountNumber(text('accountNumber')),
            ].filter(Boolean);
            return `Bank account ${parts.join(' ')} created, status ${text('status') || 'unknown'}`;
          },
        },
      }),
      async (c) => {
        // The rail's rules live in the contract's schema, shared with the form.
        const input = parseBody(BankAccountCreateRequest, await readJsonBody(c));
        // 200, not 201: the description promises a BankAccount, and an SDK may test for 200.
        return c.json(forCaller(c, await backend.createBankAccount(custodyContext(c), input)));
      },
    )
    .get(routes.bankAccount, rule(READ), async (c) => {
      const id = pathId(c, 'bankAccountId', 'bank account');
      return c.json(forCaller(c, await backend.getBankAccount(custodyContext(c), id)));
    });
}

/** Masked for a staff session; as the custody API defines it for an API client. */
function forCaller(c: Context<AppEnv>, account: BankAccount): BankAccount {
  return c.get('actor')?.type === 'STAFF' ? maskBankAccount(account) : account;
}
