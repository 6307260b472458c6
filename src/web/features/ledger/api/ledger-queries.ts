import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { pathOf } from '#contract/endpoint.ts';
import { ledgerHistory, ledgerStatement } from '#contract/endpoints/ledger.ts';
import type { LEDGER_HISTORY_DAYS } from '#contract/ledger-history-days.ts';
import { toQueryString } from '#contract/paths.ts';
import { apiClient } from '../../../lib/api-client.ts';

/** Whose ledger: a vault, a sub-organization, or (neither) the organization in the member's scope. */
export interface LedgerWho {
  vaultId?: string | undefined;
  subOrgId?: string | undefined;
}

/** A vault's ledger is the vault's alone, whatever sub-organization the console is scoped to. */
const who = ({ vaultId, subOrgId }: LedgerWho) => (vaultId ? { vaultId } : { subOrgId });

export type HistoryDays = (typeof LEDGER_HISTORY_DAYS)[number];

/** The statement's period as the server takes it: two instants, `to` excluded. */
export interface StatementPeriod {
  from: string;
  to: string;
}

export const STATEMENT_PAGE_SIZE = 50;

/**
 * The ledger pages' reads (GET /api/console/ledger/history/ and
 * /statement/). Past days do not change; today's do with each movement, so
 * a history is kept a minute and re-read on focus.
 */
export const ledgerQueries = {
  all: () => ['ledger'] as const,
  history: (whose: LedgerWho, days: HistoryDays) =>
    queryOptions({
      queryKey: [...ledgerQueries.all(), 'history', who(whose), days] as const,
      queryFn: ({ signal }) =>
        apiClient.call(ledgerHistory, { query: { ...who(whose), days } }, { signal }),
      staleTime: 60_000,
      // Switching 30 → 90 days keeps the 30 on screen (dimmed) until the 90 arrive.
      placeholderData: keepPreviousData,
    }),
  statement: (whose: LedgerWho, period: StatementPeriod, cursor: string | undefined) =>
    queryOptions({
      queryKey: [...ledgerQueries.all(), 'statement', who(whose), period, cursor ?? null] as const,
      queryFn: ({ signal }) =>
        apiClient.call(
          ledgerStatement,
          {
            query: {
              ...who(whose),
              ...period,
              limit: STATEMENT_PAGE_SIZE,
              ...(cursor ? { cursor } : {}),
            },
          },
          { signal },
        ),
      placeholderData: keepPreviousData,
    }),
};

/** The address of the whole statement as a file: a download (CSV) or a page to print (HTML). */
export function statementFileUrl(
  whose: LedgerWho,
  period: StatementPeriod,
  format: 'csv' | 'html',
): string {
  return `${pathOf(ledgerStatement)}${toQueryString({ ...who(whose), ...period, format })}`;
}
