import type { SandboxDeps } from '../../../custody/sandbox/sandbox-deps.ts';
import type { BankAccountsPort } from '../port.ts';
import { createBankAccount } from './create.ts';
import { getBankAccount, listBankAccounts } from './store.ts';

/** Bank accounts over the sandbox's tables (endpoints 1–3). */
export function bankAccountsSandbox({ db, clock, orgIdFor }: SandboxDeps): BankAccountsPort {
  return {
    listBankAccounts: async (ctx, query) => listBankAccounts(db, await orgIdFor(ctx), query),
    getBankAccount: async (ctx, id) => getBankAccount(db, await orgIdFor(ctx), id),
    createBankAccount: async (ctx, input) =>
      createBankAccount(db, await orgIdFor(ctx), ctx.actor, input, clock.now()),
  };
}
