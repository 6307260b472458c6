import { randomUUID } from 'node:crypto';
import { ApiError } from '#contract/api-error.ts';
import {
  BankAccount,
  BankAccountListResponse,
  type BankAccountCreateRequest,
} from '#contract/bank-account.ts';
import { paths } from '#contract/paths.ts';
import type { CustodyContext } from '../../../custody/backend.ts';
import {
  forgetBankAccountIntent,
  recordBankAccountIntent,
  resolveBankAccountIntent,
} from '../../../custody/upstream/creators.store.ts';
import { UpstreamFailure } from '../../../custody/upstream/upstream-client.ts';
import { staffId, type UpstreamDeps } from '../../../custody/upstream/upstream-deps.ts';
import type { BankAccountsPort } from '../port.ts';

/**
 * Bank accounts through upstream. An account carries no externalId, so its
 * proposal is recorded under a fingerprint before sending
 * (custody/upstream/bank-account-fingerprint.ts): four-eyes knows its
 * possible creator even when the answer is lost.
 */
export function bankAccountsUpstream(deps: UpstreamDeps): BankAccountsPort {
  const { db, clock, fingerprint, call, read, listPage, scopedList, unknownOutcome } = deps;

  /**
   * Bank accounts carry no externalId: the one the lost create made is the
   * newest PENDING account with the same rail, holder and number (and
   * clientBankAccountId when one was given) created since it was sent.
   */
  async function findBankAccount(
    ctx: CustodyContext,
    input: BankAccountCreateRequest,
    sentAt: number,
  ): Promise<BankAccount | undefined> {
    const page = await listPage(
      ctx,
      BankAccountListResponse,
      paths.bankAccounts(),
      { status: 'PENDING' },
      { limit: 100 },
    );
    // Clocks differ: a minute's slack either way.
    const since = sentAt - 60_000;
    return page.results.find(
      (account) =>
        account.paymentMethod === input.paymentMethod &&
        account.accountName === input.accountName &&
        account.accountNumber === input.accountNumber &&
        (!input.clientBankAccountId || account.clientBankAccountId === input.clientBankAccountId) &&
        (!account.createdAt || Date.parse(account.createdAt) >= since),
    );
  }

  return {
    listBankAccounts: (ctx, q) =>
      scopedList(ctx, BankAccountListResponse, paths.bankAccounts(), q, true),
    getBankAccount: (ctx, id) => read(ctx, BankAccount, paths.bankAccount(id)),
    async createBankAccount(ctx, input) {
      const sentAt = clock.now().getTime();
      // Recorded before sending, as a transaction is by its externalId: an account whose
      // answer is lost or late still has its possible creator, whom four-eyes refuses.
      const member = staffId(ctx);
      const intent = member
        ? await recordBankAccountIntent(db, fingerprint(input), randomUUID(), member, clock.now())
        : null;
      let created: BankAccount;
      try {
        created = await call(ctx, BankAccount, {
          method: 'POST',
          path: paths.bankAccounts(),
          body: input,
          retry: false,
        });
      } catch (error) {
        if (!(error instanceof UpstreamFailure)) {
          // Refused outright (a 4xx): this attempt made nothing.
          if (intent && error instanceof ApiError) await forgetBankAccountIntent(db, intent);
          throw error;
        }
        created = await unknownOutcome(ctx, error, 'bank account', () =>
          findBankAccount(ctx, input, sentAt),
        );
      }
      if (intent && created.id) await resolveBankAccountIntent(db, intent, created.id);
      return created;
    },
  };
}
