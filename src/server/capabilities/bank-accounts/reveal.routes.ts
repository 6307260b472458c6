import { Hono } from 'hono';
import { maskAccountNumber, type RevealedBankAccount } from '#contract/bank-account.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { revealBankAccount } from '#contract/endpoints/bank-accounts.ts';
import { audit } from '../../auth/audit.ts';
import type { AuthOptions } from '../../auth/session-auth.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import { ApiError } from '#contract/api-error.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';

/**
 * POST /api/console/bank_accounts/{id}/reveal/: the only way a full account or
 * routing number reaches a browser, and every call is audited — refusals too.
 * A POST, because it writes (the audit row, in the member's name): like every
 * mutation it needs the session's CSRF token and the console's own Origin, so
 * a page on another port or a sibling subdomain, which the SameSite cookie
 * does not stop, cannot reveal in a member's name. The answer is never cached.
 */
export function revealRoutes(options: AuthOptions, backend: CustodyBackend) {
  return mount(
    new Hono<AppEnv>(),
    CONSOLE_API_PREFIX,
    revealBankAccount,
    async ({ params: { bankAccountId: id } }, c) => {
      let account;
      try {
        account = await backend.getBankAccount(custodyContext(c), id);
      } catch (error) {
        if (error instanceof ApiError)
          await audit(c, options, {
            action: 'bank_account.reveal',
            entityType: 'BANK_ACCOUNT',
            entityId: id,
            summary: `Refused with ${error.status}: ${error.code}`,
            outcome: error.status === 404 ? 'failed' : 'denied',
          });
        throw error;
      }
      await audit(c, options, {
        action: 'bank_account.reveal',
        entityType: 'BANK_ACCOUNT',
        entityId: id,
        summary: `Revealed account ${maskAccountNumber(account.accountNumber)}`,
        outcome: 'success',
      });
      c.header('Cache-Control', 'no-store');
      const body: RevealedBankAccount = {
        accountNumber: account.accountNumber ?? null,
        routingNumber: account.routingNumber ?? null,
      };
      return body;
    },
  );
}
