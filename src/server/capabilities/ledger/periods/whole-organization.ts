import type { Context } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { unauthorized } from '../../../auth/session-auth.ts';
import { outsideAdminScope } from '../../../console/admin-scope.ts';
import type { CustodyBackend } from '../../../custody/backend.ts';
import { custodyContext } from '../../../custody/context.ts';
import type { AppEnv } from '../../../http/app-env.ts';

/**
 * The periods and the journal are the whole organization's books. Before a
 * query or body is read, a member held to some sub-organizations is refused
 * (403 OUTSIDE_ADMIN_SCOPE, `outsideScope` saying why), and upstream, where
 * no ledger is kept, the request is refused (409 SANDBOX_ONLY, `upstream`).
 * `guard` runs before a route reads its input (`mount`'s guard);
 * `wholeOrganization` answers the member asking, the organization and the
 * ledger's time now.
 */
export function wholeOrganizationBooks(
  backend: CustodyBackend,
  words: { outsideScope: string; upstream: string },
) {
  const allowed = (c: Context<AppEnv>) => {
    const member = c.get('staff');
    if (!member) throw unauthorized();
    if (member.subOrgIds) throw outsideAdminScope(words.outsideScope);
    if (!backend.ledgerBooks) throw new ApiError(409, ERROR_CODES.sandboxOnly, words.upstream);
    return { member, ledgerBooks: backend.ledgerBooks };
  };
  const wholeOrganization = async (c: Context<AppEnv>) => {
    const { member, ledgerBooks } = allowed(c);
    return { member, ...(await ledgerBooks(custodyContext(c))) };
  };
  const guard = (c: Context<AppEnv>): void => void allowed(c);
  return { guard, wholeOrganization };
}
