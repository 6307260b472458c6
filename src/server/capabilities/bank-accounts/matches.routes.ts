import { Hono } from 'hono';
import { isSameBankAccount, type BankAccountMatches } from '#contract/bank-account-matches.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { findBankAccountMatches } from '#contract/endpoints/bank-accounts.ts';
import { maskBankAccount, type BankAccount } from '#contract/bank-account.ts';
import { MAX_PAGE_SIZE } from '#contract/common.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';

/** How many accounts on one rail a check reads at most: 20 pages of 100. */
const MAX_PAGES = 20;
const ACTIVE = new Set(['PENDING', 'APPROVED']);

/**
 * POST /api/console/bank_accounts/matches/ (contract/bank-account-matches.ts):
 * the pending and approved accounts in the member's scope identical to the one
 * they are about to propose. It reads through the scoped backend, so it sees
 * what the member's own lists show, on either backend, and answers them
 * masked. A read sent as POST (the full numbers stay out of URLs): not
 * audited; it needs the permission that proposing does.
 */
export function bankAccountMatchesRoutes(backend: CustodyBackend) {
  return mount(
    new Hono<AppEnv>(),
    CONSOLE_API_PREFIX,
    findBankAccountMatches,
    async ({ body: proposal }, c) => {
      const ctx = custodyContext(c);
      const results: BankAccount[] = [];
      let cursor: string | undefined;
      let pages = 0;
      let complete = true;
      do {
        if (pages === MAX_PAGES) {
          complete = false;
          break;
        }
        const page = await backend.listBankAccounts(ctx, {
          paymentMethod: proposal.paymentMethod,
          limit: MAX_PAGE_SIZE,
          ...(cursor ? { cursor } : {}),
        });
        pages += 1;
        for (const account of page.results)
          if (ACTIVE.has(account.status ?? '') && isSameBankAccount(account, proposal))
            results.push(maskBankAccount(account));
        cursor = page.hasNext && page.nextCursor ? page.nextCursor : undefined;
      } while (cursor);
      c.header('Cache-Control', 'no-store');
      const answer: BankAccountMatches = { results, complete };
      return answer;
    },
  );
}
