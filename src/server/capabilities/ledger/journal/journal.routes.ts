import { and, asc, eq, gte, inArray, lt } from 'drizzle-orm';
import { Hono } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import {
  exportJournal,
  getJournalMapping,
  setJournalMapping,
} from '#contract/endpoints/ledger-periods.ts';
import type { JournalMapping } from '#contract/ledger-periods.ts';
import type { AuthOptions } from '../../../auth/session-auth.ts';
import type { CustodyBackend } from '../../../custody/backend.ts';
import { ledgerJournalMappings, ledgerPeriods } from '../../../db/schema/console.ts';
import { ledgerMovements, transactions, vaults } from '../../../db/schema/sandbox.ts';
import type { AppEnv } from '../../../http/app-env.ts';
import { mount } from '../../../http/mount.ts';
import { monthName } from '../periods/month.ts';
import { wholeOrganizationBooks } from '../periods/whole-organization.ts';
import { journalCsv, journalLines, unmappedAccounts } from './journal.ts';

const EMPTY: JournalMapping = { vaults: [], categories: {} };

/**
 * The accounting journal: the account mapping an admin sets once, and a
 * closed month's journal as CSV (journal.ts says the conventions). Both are
 * the whole organization's: a member held to some sub-organizations is
 * refused; upstream there is no ledger (409 SANDBOX_ONLY).
 */
export function journalRoutes(options: AuthOptions, backend: CustodyBackend) {
  const app = new Hono<AppEnv>();
  const { db, clock } = options;

  const { guard, wholeOrganization } = wholeOrganizationBooks(backend, {
    outsideScope:
      'The journal covers the whole organization: only an admin of every sub-organization maps or exports it',
    upstream:
      'The ledger is kept by the sandbox: the custody service this console acts on gives no movements to journal',
  });

  async function mappingOf(orgId: string) {
    const [row] = await db
      .select()
      .from(ledgerJournalMappings)
      .where(eq(ledgerJournalMappings.orgId, orgId));
    return { mapping: row?.mapping ?? EMPTY, updatedAt: row?.updatedAt.toISOString() ?? null };
  }

  mount(
    app,
    CONSOLE_API_PREFIX,
    getJournalMapping,
    async (_input, c) => mappingOf((await wholeOrganization(c)).orgId),
    { guard },
  );

  mount(
    app,
    CONSOLE_API_PREFIX,
    setJournalMapping,
    async ({ body }, c) => {
      const { member, orgId } = await wholeOrganization(c);
      const ids = [...new Set(body.vaults.map((v) => v.vaultId))];
      const known = new Set(
        ids.length === 0
          ? []
          : (
              await db
                .select({ id: vaults.id })
                .from(vaults)
                .where(and(eq(vaults.orgId, orgId), inArray(vaults.id, ids)))
            ).map((v) => v.id),
      );
      const problems: { field: string; message: string }[] = [];
      const seen = new Set<string>();
      body.vaults.forEach((v, i) => {
        const key = `${v.vaultId}\u0000${v.asset ?? ''}`;
        if (!known.has(v.vaultId))
          problems.push({ field: `vaults.${i}.vaultId`, message: `no vault “${v.vaultId}”` });
        else if (seen.has(key))
          problems.push({
            field: `vaults.${i}.asset`,
            message: `vault “${v.vaultId}” is mapped twice for ${v.asset ?? 'every asset'}`,
          });
        seen.add(key);
      });
      const first = problems[0];
      if (first)
        throw new ApiError(
          400,
          ERROR_CODES.validation,
          `${first.field}: ${first.message}`,
          problems,
        );
      const mapping: JournalMapping = {
        vaults: body.vaults.map((v) => ({
          vaultId: v.vaultId,
          asset: v.asset ?? null,
          account: v.account,
        })),
        categories: body.categories,
      };
      const now = clock.now();
      await db
        .insert(ledgerJournalMappings)
        .values({ orgId, mapping, updatedBy: member.id, updatedAt: now })
        .onConflictDoUpdate({
          target: ledgerJournalMappings.orgId,
          set: { mapping, updatedBy: member.id, updatedAt: now },
        });
      return mappingOf(orgId);
    },
    { guard },
  );

  mount(
    app,
    CONSOLE_API_PREFIX,
    exportJournal,
    async ({ query }, c) => {
      const { orgId } = await wholeOrganization(c);
      const [period] = await db
        .select()
        .from(ledgerPeriods)
        .where(
          and(
            eq(ledgerPeriods.orgId, orgId),
            eq(ledgerPeriods.month, query.month),
            eq(ledgerPeriods.status, 'CLOSED'),
          ),
        );
      if (!period) {
        const message = `${monthName(query.month)} is not closed: a journal is exported once its month is closed`;
        throw new ApiError(409, ERROR_CODES.conflict, `month: ${message}`, [
          { field: 'month', message },
        ]);
      }
      const movements = await db
        .select({
          id: ledgerMovements.id,
          at: ledgerMovements.at,
          valueAt: ledgerMovements.valueAt,
          vaultId: ledgerMovements.vaultId,
          vaultName: vaults.vaultName,
          asset: ledgerMovements.asset,
          chain: ledgerMovements.chain,
          kind: ledgerMovements.kind,
          amount: ledgerMovements.amount,
          reference: ledgerMovements.reference,
          memo: ledgerMovements.memo,
          transactionId: ledgerMovements.transactionId,
          category: transactions.category,
        })
        .from(ledgerMovements)
        .innerJoin(vaults, eq(vaults.id, ledgerMovements.vaultId))
        .leftJoin(transactions, eq(transactions.id, ledgerMovements.transactionId))
        .where(
          and(
            eq(ledgerMovements.orgId, orgId),
            gte(ledgerMovements.at, period.from),
            lt(ledgerMovements.at, period.to),
          ),
        )
        .orderBy(asc(ledgerMovements.at), asc(ledgerMovements.id));
      const { mapping } = await mappingOf(orgId);
      const missing = unmappedAccounts(movements, mapping);
      const first = missing[0];
      if (first)
        throw new ApiError(
          409,
          ERROR_CODES.conflict,
          `${first.field}: ${first.message}${missing.length > 1 ? ` (and ${missing.length - 1} more)` : ''}: set it in the account mapping`,
          missing,
        );
      return c.body(journalCsv(journalLines(movements, mapping, period.timeZone)), 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="journal-${period.month}.csv"`,
      });
    },
    { guard },
  );

  return app;
}
