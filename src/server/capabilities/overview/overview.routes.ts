import { Hono } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import { roleAllows } from '#contract/auth.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { FALLBACK_TIME_ZONE } from '#contract/display.ts';
import { knownTimeZone } from '#contract/display-settings.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { overview, vaultHoldings } from '#contract/endpoints/overview.ts';
import type { VaultHoldingsResponse } from '#contract/overview.ts';
import type { AuthOptions } from '../../auth/session-auth.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';
import { valueVaults, vaultHoldingsAnswer } from './holdings.ts';
import type { ApprovableKind } from '../approvals/core/kind.ts';
import { readOverview } from './overview.ts';

/**
 * GET /api/console/overview/ and GET /api/console/vaults/: the home page's
 * figures and the Vaults page's list, for every signed-in role. The backend
 * given is the scoped one: a restricted member's figures are their
 * sub-organizations' alone, and a sub-organization outside them is 404.
 */
export function overviewRoutes(
  options: AuthOptions,
  backend: CustodyBackend,
  kinds: readonly ApprovableKind[],
) {
  const app = new Hono<AppEnv>();
  const priceSource: VaultHoldingsResponse['priceSource'] =
    backend.kind === 'sandbox' ? 'SANDBOX_REFERENCE' : 'CUSTODY_API';

  mount(app, CONSOLE_API_PREFIX, vaultHoldings, async ({ query }, c) => {
    const pricedAt = options.clock.now().toISOString();
    const valued = await valueVaults(backend, custodyContext(c), query.subOrgId);
    return vaultHoldingsAnswer(valued, { pricedAt, priceSource });
  });

  return mount(app, CONSOLE_API_PREFIX, overview, async ({ query }, c) => {
    const timeZone = query.timeZone ? knownTimeZone(query.timeZone) : FALLBACK_TIME_ZONE;
    if (!timeZone) {
      const message = `timeZone "${query.timeZone}" is not a time zone this server knows, such as Europe/Berlin`;
      throw new ApiError(400, ERROR_CODES.validation, message, [{ field: 'timeZone', message }]);
    }
    const member = c.get('staff');
    return readOverview(backend, custodyContext(c), options.db, {
      subOrgId: query.subOrgId,
      timeZone,
      now: options.clock.now(),
      decides: member ? roleAllows(member.role, 'approve') : false,
      priceSource,
      // What waits counts the kinds the console holds too, as the inbox's badge does.
      held: { kinds, clock: options.clock },
    });
  });
}
