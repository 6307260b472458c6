import { createFileRoute } from '@tanstack/react-router';
import { useEffect } from 'react';
import { transactionQueries } from '../../features/transactions/api/transaction-queries.ts';
import { TransactionsPage } from '../../features/transactions/components/transactions-page.tsx';
import { rememberListSearch, transactionSearch } from '../../features/transactions/search.ts';
import { referenceQueries } from '../../lib/reference-queries.ts';

export const Route = createFileRoute('/_authenticated/transactions')({
  // The landing page (/ redirects here) rides in the entry chunk instead of a
  // split chunk fetched after it (ARCHITECTURE.md, "First load").
  codeSplitGroupings: [],
  validateSearch: transactionSearch.schema,
  loaderDeps: ({ search }) => transactionSearch.toListParams(search),
  loader: async ({ context: { queryClient }, deps, cause }) => {
    void queryClient.prefetchQuery(referenceQueries.vaults());
    void queryClient.prefetchQuery(referenceQueries.assets());
    // A failed list is shown in the page (filters stay usable), not as a route error.
    const list = queryClient.ensureQueryData(transactionQueries.list(deps)).catch(() => undefined);
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
