import { createFileRoute } from '@tanstack/react-router';
import { NewTransactionPage } from '../../features/transactions/components/new-transaction-page.tsx';
import { NewTransactionSearch } from '../../features/transactions/new-transaction-search.ts';
import { referenceQueries } from '../../lib/reference-queries.ts';

export const Route = createFileRoute('/_authenticated/transactions_/new')({
  validateSearch: NewTransactionSearch,
  loader: ({ context: { queryClient } }) => {
    void queryClient.prefetchQuery(referenceQueries.vaults());
    void queryClient.prefetchQuery(referenceQueries.assets());
    void queryClient.prefetchQuery(referenceQueries.contacts());
  },
  component: NewTransactionRoute,
});

function NewTransactionRoute() {
  const { category, subOrg } = Route.useSearch();
  return <NewTransactionPage category={category ?? 'TRANSFER'} subOrg={subOrg} />;
}
