import { Hono } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { ledgerHistory, ledgerStatement } from '#contract/endpoints/ledger.ts';
import type { LedgerStatementLine, LedgerStatementResponse } from '#contract/ledger.ts';
import type { AuthOptions } from '../../auth/session-auth.ts';
import { sessionTimeZone } from '../../auth/session.store.ts';
import type { CustodyBackend, CustodyContext } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';
import type { LedgerFilter } from './port.ts';
import { statementCsv, statementHtml, type WholeStatement } from './statement-export.ts';

/** A statement's period may span at most this many days: a year and a day's slack for zones. */
const MAX_STATEMENT_DAYS = 367;

/** A file's statement is read a page of this many lines at a time, every page of the period. */
const FILE_PAGE = 1000;

/**
 * GET /api/console/ledger/history/ and /statement/: the treasury ledger, for
 * every signed-in role, over the scoped backend (a restricted member's
 * vaults and sub-organizations only; 404 outside them).
 */
export function ledgerRoutes(options: Pick<AuthOptions, 'db'>, backend: CustodyBackend) {
  const app = new Hono<AppEnv>();
  mount(app, CONSOLE_API_PREFIX, ledgerHistory, ({ query }, c) =>
    backend.ledgerHistory(custodyContext(c), {
      vaultId: query.vaultId,
      subOrgId: query.subOrgId,
      // eslint-disable-next-line no-restricted-syntax -- a count of days, one of a fixed list
      days: Number(query.days),
    }),
  );
  return mount(app, CONSOLE_API_PREFIX, ledgerStatement, async ({ query }, c) => {
    const from = new Date(query.from);
    const to = new Date(query.to);
    const refuse = (message: string) =>
      new ApiError(400, ERROR_CODES.validation, `to: ${message}`, [{ field: 'to', message }]);
    if (to.getTime() <= from.getTime()) throw refuse('the period must end after it starts (from)');
    if (to.getTime() - from.getTime() > MAX_STATEMENT_DAYS * 86_400_000)
      throw refuse(`a statement covers at most ${MAX_STATEMENT_DAYS} days`);
    const ctx = custodyContext(c);
    const filter = { vaultId: query.vaultId, subOrgId: query.subOrgId };
    if (!query.format || query.format === 'json')
      return backend.ledgerStatement(ctx, {
        ...filter,
        from,
        to,
        page: { limit: query.limit, cursor: query.cursor },
      });
    // A file holds every line of the period, read through the same scoped backend page by page.
    const whole = await wholeStatement(backend, ctx, { ...filter, from, to });
    const member = c.get('staff');
    const statement: WholeStatement = {
      ...whole,
      title: await titleOf(backend, ctx, filter),
      // The member's own zone (their choice, else their browser's); an API client's is UTC.
      timeZone: member ? await sessionTimeZone(options.db, member, c.get('session')?.id) : 'UTC',
    };
    const name = `statement-${filter.vaultId ?? filter.subOrgId ?? 'organization'}-${from.toISOString().slice(0, 10)}`;
    if (query.format === 'csv')
      return c.body(statementCsv(statement), 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${name}.csv"`,
      });
    return c.body(statementHtml(statement), 200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Disposition': `inline; filename="${name}.html"`,
    });
  });
}

async function wholeStatement(
  backend: CustodyBackend,
  ctx: CustodyContext,
  query: LedgerFilter & { from: Date; to: Date },
): Promise<Pick<WholeStatement, 'from' | 'to' | 'totals' | 'lines'>> {
  const lines: LedgerStatementLine[] = [];
  let page: LedgerStatementResponse;
  let cursor: string | undefined;
  do {
    page = await backend.ledgerStatement(ctx, { ...query, page: { limit: FILE_PAGE, cursor } });
    lines.push(...page.results);
    cursor = page.nextCursor ?? undefined;
  } while (page.hasNext && cursor);
  return { from: page.from, to: page.to, totals: page.totals, lines };
}

/** Whose statement, in words: the vault's name (read as the caller may read it), else an id. */
async function titleOf(backend: CustodyBackend, ctx: CustodyContext, filter: LedgerFilter) {
  if (filter.vaultId) {
    const vault = await backend.getVault(ctx, filter.vaultId);
    return vault.vaultName ? `${vault.vaultName} (${filter.vaultId})` : `vault ${filter.vaultId}`;
  }
  return filter.subOrgId ? `sub-organization ${filter.subOrgId}` : 'the organization';
}
