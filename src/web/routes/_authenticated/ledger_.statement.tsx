import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import * as z from 'zod/mini';
import { ledgerQueries, type LedgerWho } from '../../features/ledger/api/ledger-queries.ts';
import { LedgerStatementPage } from '../../features/ledger/components/ledger-statement-page.tsx';
import { monthOfIn, periodInstants, recentMonths } from '../../features/ledger/statement-period.ts';
import { isCompleteDay } from '../../lib/dates.ts';
import { useTimeZone } from '../../lib/display.tsx';
import { referenceQueries } from '../../lib/reference-queries.ts';
import { scopeSearch } from '../../lib/scope.ts';
import { loadTimeZone } from '../../lib/session-queries.ts';

const day = z.catch(
  z.optional(z.string().check(z.refine(isCompleteDay, 'a day as YYYY-MM-DD'))),
  undefined,
);

const StatementSearch = z.object({
  ...scopeSearch,
  vault: z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(128))), undefined),
  month: z.catch(z.optional(z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/))), undefined),
  from: day,
  to: day,
  cursor: z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(64))), undefined),
});

/** Months offered in the picker: this one and the twelve before it. */
const MONTHS_OFFERED = 13;

/**
 * `/ledger/statement`: a statement for a month in the member's zone (this
 * month unless `?month=`), or `?from=`/`?to=` days; `?cursor=` pages it.
 * The period is read in the member's zone, so the loader awaits the session.
 */
export const Route = createFileRoute('/_authenticated/ledger_/statement')({
  validateSearch: StatementSearch,
  loaderDeps: ({ search }) => ({
    who: { vaultId: search.vault, subOrgId: search.subOrg },
    chosen: { month: search.month, from: search.from, to: search.to },
    cursor: search.cursor,
  }),
  loader: async ({ context: { queryClient }, deps, cause }) => {
    // The picker's vaults: started with the page (rendered on the server with it), not awaited.
    void queryClient.prefetchQuery(referenceQueries.vaults());
    const read = loadTimeZone(queryClient)
      .then((timeZone) => {
        const { from, to } = periodInstants(deps.chosen, timeZone, new Date());
        return queryClient.ensureQueryData(
          ledgerQueries.statement(deps.who, { from, to }, deps.cursor),
        );
      })
      // A failed read is the page's to show, with Retry, not a route error.
      .catch(() => undefined);
    if (cause !== 'stay') await read;
  },
  component: StatementRoute,
});

function StatementRoute() {
  const search = Route.useSearch();
  const navigate = useNavigate();
  const timeZone = useTimeZone();
  // The cursors of the pages before this one, as Next reached them in this tab.
  const [previous, setPrevious] = useState<Array<string | undefined>>([]);
  const who: LedgerWho = { vaultId: search.vault, subOrgId: search.subOrg };
  const chosen = { month: search.month, from: search.from, to: search.to };
  const now = new Date();
  const { from, to, label } = periodInstants(chosen, timeZone, now);
  const go = (next: Partial<typeof search>) =>
    void navigate({ to: '/ledger/statement', search: (prev) => ({ ...prev, ...next }) });
  return (
    <LedgerStatementPage
      who={who}
      chosen={chosen}
      period={{ from, to, label }}
      months={recentMonths(monthOfIn(now, timeZone), MONTHS_OFFERED)}
      cursor={search.cursor}
      previousCursors={previous.length}
      onWhoChange={(next) => {
        setPrevious([]);
        go({ vault: next.vaultId, subOrg: next.subOrgId, cursor: undefined });
      }}
      onPeriodChange={(next) => {
        setPrevious([]);
        go({ month: next.month, from: next.from, to: next.to, cursor: undefined });
      }}
      onPage={(direction, nextCursor) => {
        if (direction === 'next') {
          setPrevious((p) => [...p, search.cursor]);
          go({ cursor: nextCursor });
          return;
        }
        const back = previous.at(-1);
        setPrevious((p) => p.slice(0, -1));
        go({ cursor: back });
      }}
    />
  );
}
