import { createFileRoute } from '@tanstack/react-router';
import { FALLBACK_TIME_ZONE } from '#contract/display.ts';
import { overviewQueries } from '../../features/overview/api/overview-queries.ts';
import { OverviewPage } from '../../features/overview/components/overview-page.tsx';
import { ScopeSearch } from '../../lib/scope.ts';
import { loadTimeZone, useSession } from '../../lib/session-queries.ts';

/**
 * `/`, the page after sign-in: the treasury at a glance. Its figures count
 * days in the member's zone, so it waits for the session before asking (the
 * layout has started it, and the sub-organizations the page names).
 */
export const Route = createFileRoute('/_authenticated/')({
  validateSearch: ScopeSearch,
  loaderDeps: ({ search }) => ({ subOrgId: search.subOrg }),
  loader: async ({ context: { queryClient }, deps, cause }) => {
    const figures = loadTimeZone(queryClient)
      .then((timeZone) =>
        queryClient.ensureQueryData(overviewQueries.get({ subOrgId: deps.subOrgId, timeZone })),
      )
      // A failed read is shown in the page (with Retry), not as a route error.
      .catch(() => undefined);
    if (cause !== 'stay') await figures;
  },
  component: OverviewRoute,
});

function OverviewRoute() {
  const { subOrg } = Route.useSearch();
  const session = useSession();
  return (
    <OverviewPage subOrgId={subOrg} timeZone={session?.display.timeZone ?? FALLBACK_TIME_ZONE} />
  );
}
