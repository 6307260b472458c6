import { createFileRoute } from '@tanstack/react-router';
import { vaultQueries } from '../../features/vaults/api/vault-queries.ts';
import { VaultsPage } from '../../features/vaults/components/vaults-page.tsx';
import { ScopeSearch } from '../../lib/scope.ts';

export const Route = createFileRoute('/_authenticated/vaults')({
  validateSearch: ScopeSearch,
  loaderDeps: ({ search }) => ({ subOrgId: search.subOrg }),
  loader: async ({ context: { queryClient }, deps, cause }) => {
    // A failed list is shown in the page (with Retry), not as a route error.
    const list = queryClient
      .ensureQueryData(vaultQueries.list(deps.subOrgId))
      .catch(() => undefined);
    if (cause !== 'stay') await list;
  },
  component: VaultsRoute,
});

function VaultsRoute() {
  const { subOrg } = Route.useSearch();
  return <VaultsPage subOrgId={subOrg} />;
}
