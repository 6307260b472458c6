import { Hono, type Context } from 'hono';
import { maskAccountNumber, maskBankAccount, type BankAccount } from '#contract/bank-account.ts';
import { createBankAccount } from '#contract/endpoints/bank-account-writes.ts';
import { getBankAccount, listBankAccounts } from '#contract/endpoints/bank-accounts.ts';
import type { AppEnv } from '../../http/app-env.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import { mountCustody } from '../../custody/routes/parse-body.ts';

/**
 * Endpoints 1 (list), 2 (get) and 3 (create).
 *
 * Full account and routing numbers never reach a browser except through the
 * audited reveal (`console/reveal.routes.ts`): every answer to a staff
 * session has them masked ("•••• 1234"). API clients are not browsers and
 * get the full fields the custody API defines.
 */
export function bankAccountRoutes(backend: CustodyBackend) {
  const app = new Hono<AppEnv>();
  mountCustody(app, listBankAccounts, async ({ query }, c) => {
    const found = await backend.listBankAccounts(custodyContext(c), query);
    return { ...found, results: found.results.map((a) => forCaller(c, a)) };
  });
  mountCustody(
    app,
    createBankAccount,
    // The rail's rules live in the contract's schema, shared with the form.
    async ({ body }, c) => forCaller(c, await backend.createBankAccount(custodyContext(c), body)),
    {
      audit: {
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
    },
  );
  mountCustody(app, getBankAccount, async ({ params }, c) =>
    forCaller(c, await backend.getBankAccount(custodyContext(c), params.bankAccountId)),
  );
  return app;
}

/** Masked for a staff session; as the custody API defines it for an API client. */
function forCaller(c: Context<AppEnv>, account: BankAccount): BankAccount {
  return c.get('actor')?.type === 'STAFF' ? maskBankAccount(account) : account;
}
