import { Hono } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { ledgerHistory, ledgerStatement } from '#contract/endpoints/ledger.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';

/** A statement's period may span at most this many days: a year and a day's slack for zones. */
const MAX_STATEMENT_DAYS = 367;

/**
 * GET /api/console/ledger/history/ and /statement/: the treasury ledger, for
 * every signed-in role, over the scoped backend (a restricted member's
 * vaults and sub-organizations only; 404 outside them).
 */
export function ledgerRoutes(backend: CustodyBackend) {
  const app = new Hono<AppEnv>();
  mount(app, CONSOLE_API_PREFIX, ledgerHistory, ({ query }, c) =>
    backend.ledgerHistory(custodyContext(c), {
      vaultId: query.vaultId,
      subOrgId: query.subOrgId,
      // eslint-disable-next-line no-restricted-syntax -- a count of days, one of a fixed list
      days: Number(query.days),
    }),
  );
  return mount(app, CONSOLE_API_PREFIX, ledgerStatement, ({ query }, c) => {
    const from = new Date(query.from);
    const to = new Date(query.to);
    const refuse = (message: string) =>
      new ApiError(400, ERROR_CODES.validation, `to: ${message}`, [{ field: 'to', message }]);
    if (to.getTime() <= from.getTime()) throw refuse('the period must end after it starts (from)');
    if (to.getTime() - from.getTime() > MAX_STATEMENT_DAYS * 86_400_000)
      throw refuse(`a statement covers at most ${MAX_STATEMENT_DAYS} days`);
    return backend.ledgerStatement(custodyContext(c), {
      vaultId: query.vaultId,
      subOrgId: query.subOrgId,
      from,
      to,
      page: { limit: query.limit, cursor: query.cursor },
    });
  });
}
