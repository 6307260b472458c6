import { createFileRoute } from '@tanstack/react-router';
import { policyQueries } from '../../features/policies/api/policy-queries.ts';
import { PoliciesPage } from '../../features/policies/components/policies-page.tsx';
import { PoliciesSearch } from '../../features/policies/search.ts';
import { can } from '../../lib/permissions.ts';
import { referenceQueries } from '../../lib/reference-queries.ts';
import { loadSession } from '../../lib/session-queries.ts';

export const Route = createFileRoute('/_authenticated/policies')({
  validateSearch: PoliciesSearch,
  loaderDeps: ({ search }) => ({ kind: search.kind ?? 'transactions' }),
  loader: async ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(referenceQueries.subOrgs());
    // A failed read shows in the page with a retry, not as a route error.
    const state = queryClient
      .ensureQueryData(policyQueries.state(deps.kind))
      .catch(() => undefined);
    // Members are named from the staff list, an admin's read.
    const session = await loadSession(queryClient).catch(() => undefined);
    if (can(session, 'manage-staff'))
      void queryClient.prefetchQuery(referenceQueries.staffMembers());
    await state;
  },
  component: PoliciesRoute,
});

function PoliciesRoute() {
  const { kind } = Route.useSearch();
  return <PoliciesPage kind={kind ?? 'transactions'} />;
}
