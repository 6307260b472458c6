import { createFileRoute } from '@tanstack/react-router';
import { rampQueries } from '../../features/ramps/api/ramp-queries.ts';
import { ConvertPage } from '../../features/ramps/components/convert-page.tsx';
import { ConvertSearch } from '../../features/ramps/search.ts';
import { referenceQueries } from '../../lib/reference-queries.ts';

export const Route = createFileRoute('/_authenticated/convert')({
  validateSearch: ConvertSearch,
  loaderDeps: ({ search }) => ({ subOrg: search.subOrg }),
  // Everything the form picks from, started together: a server render waits for them.
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(referenceQueries.vaults());
    void queryClient.prefetchQuery(referenceQueries.assets());
    void queryClient.prefetchQuery(rampQueries.payoutAccounts(deps.subOrg));
  },
  component: ConvertRoute,
});

function ConvertRoute() {
  const { kind, subOrg } = Route.useSearch();
  return <ConvertPage kind={kind ?? 'OFF_RAMP'} subOrg={subOrg} />;
}
