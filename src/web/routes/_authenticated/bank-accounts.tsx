import { createFileRoute } from '@tanstack/react-router';
import { bankAccountQueries } from '../../features/bank-accounts/api/bank-account-queries.ts';
import { BankAccountsPage } from '../../features/bank-accounts/components/bank-accounts-page.tsx';
import { bankAccountSearch } from '../../features/bank-accounts/search.ts';
import { useCan } from '../../lib/permissions.ts';

export const Route = createFileRoute('/_authenticated/bank-accounts')({
  validateSearch: bankAccountSearch.schema,
  loaderDeps: ({ search }) => bankAccountSearch.toListParams(search),
  loader: async ({ context: { queryClient }, deps, cause }) => {
    // A failed list is shown in the page (filters stay usable), not as a route error.
    const list = queryClient.ensureQueryData(bankAccountQueries.list(deps)).catch(() => undefined);
    if (cause !== 'stay') await list;
  },
  component: BankAccountsRoute,
});

function BankAccountsRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const canReveal = useCan('reveal-bank-account');
  const canPropose = useCan('create-bank-account');
  return (
    <BankAccountsPage
      search={search}
      onSearchChange={(next) => void navigate({ search: next })}
      canReveal={canReveal}
      canPropose={canPropose}
    />
  );
}
