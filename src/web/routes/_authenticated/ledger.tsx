import { createFileRoute, useNavigate } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { LEDGER_HISTORY_DAYS } from '#contract/ledger-history-days.ts';
import { ledgerQueries, type LedgerWho } from '../../features/ledger/api/ledger-queries.ts';
import { LedgerHistoryPage } from '../../features/ledger/components/ledger-history-page.tsx';
import { referenceQueries } from '../../lib/reference-queries.ts';
import { scopeSearch } from '../../lib/scope.ts';

const LedgerSearch = z.object({
  ...scopeSearch,
  vault: z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(128))), undefined),
  days: z.catch(z.optional(z.enum(LEDGER_HISTORY_DAYS)), undefined),
});

/** A month is what most people look at first. */
const DEFAULT_DAYS = '30';

/**
 * `/ledger`: the balance history of the organization, a sub-organization
 * (`?subOrg=`, the console's scope) or a vault (`?vault=`) over 7, 30, 90 or
 * 365 days. The charting code loads with this page alone.
 */
export const Route = createFileRoute('/_authenticated/ledger')({
  validateSearch: LedgerSearch,
  loaderDeps: ({ search }) => ({
    who: { vaultId: search.vault, subOrgId: search.subOrg },
    days: search.days ?? DEFAULT_DAYS,
  }),
  loader: async ({ context: { queryClient }, deps, cause }) => {
    // The picker's vaults: started with the page (rendered on the server with it), not awaited.
    void queryClient.prefetchQuery(referenceQueries.vaults());
    // A failed read is the page's to show, with Retry, not a route error.
    const history = queryClient
      .ensureQueryData(ledgerQueries.history(deps.who, deps.days))
      .catch(() => undefined);
    if (cause !== 'stay') await history;
  },
  component: LedgerRoute,
});

function LedgerRoute() {
  const search = Route.useSearch();
  const navigate = useNavigate();
  const who: LedgerWho = { vaultId: search.vault, subOrgId: search.subOrg };
  return (
    <LedgerHistoryPage
      who={who}
      days={search.days ?? DEFAULT_DAYS}
      onWhoChange={(next) =>
        void navigate({
          to: '/ledger',
          search: (prev) => ({ ...prev, vault: next.vaultId, subOrg: next.subOrgId }),
        })
      }
    />
  );
}
