import { createFileRoute } from '@tanstack/react-router';
import { useEffect } from 'react';
import { transactionQueries } from '../../features/transactions/api/transaction-queries.ts';
import { TransactionsPage } from '../../features/transactions/components/transactions-page.tsx';
import { rememberListSearch, transactionSearch } from '../../features/transactions/search.ts';
import { FALLBACK_TIME_ZONE } from '#contract/display.ts';
import { referenceQueries } from '../../lib/reference-queries.ts';
import { loadTimeZone } from '../../lib/session-queries.ts';

export const Route = createFileRoute('/_authenticated/transactions')({
  // The landing page (/ redirects here) rides in the entry chunk instead of a
  // split chunk fetched after it (ARCHITECTURE.md, "First load").
  codeSplitGroupings: [],
  validateSearch: transactionSearch.schema,
  loaderDeps: ({ search }) => transactionSearch.listDeps(search),
  loader: async ({ context: { queryClient }, deps, cause }) => {
    void queryClient.prefetchQuery(referenceQueries.vaults());
    void queryClient.prefetchQuery(referenceQueries.assets());
    // From and To are days in the member's zone: only a list filtered by day
    // waits for the session; any other starts with it (the zone plays no part).
    const list = (
      transactionSearch.hasDays(deps)
        ? loadTimeZone(queryClient)
        : Promise.resolve(FALLBACK_TIME_ZONE)
    )
      .then((zone) =>
        queryClient.ensureQueryData(
          transactionQueries.list(transactionSearch.toListParams(deps, zone)),
        ),
      )
      // A failed list is shown in the page (filters stay usable), not as a route error.
      .catch(() => undefined);
    // Paging or filtering within the page keeps the current rows on screen
    // (placeholder data) instead of holding the navigation.
    if (cause !== 'stay') await list;
  },
  component: TransactionsRoute,
});

function TransactionsRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  useEffect(() => rememberListSearch(search), [search]);
  return (
    <TransactionsPage search={search} onSearchChange={(next) => void navigate({ search: next })} />
  );
}
