import { createFileRoute } from '@tanstack/react-router';
import { NoAccess } from '../../components/no-access.tsx';
import { periodQueries } from '../../features/ledger/periods/api/period-queries.ts';
import { PeriodsPage } from '../../features/ledger/periods/components/periods-page.tsx';
import { can, useCan } from '../../lib/permissions.ts';
import { loadSession } from '../../lib/session-queries.ts';

export const Route = createFileRoute('/_authenticated/ledger_/periods')({
  loader: async ({ context: { queryClient } }) => {
    const session = await loadSession(queryClient).catch(() => undefined);
    if (!can(session, 'view-ledger-periods')) return;
    // A failed read shows in the page with a retry, not as a route error.
    await queryClient.ensureQueryData(periodQueries.list()).catch(() => undefined);
  },
  component: PeriodsRoute,
});

function PeriodsRoute() {
  const allowed = useCan('view-ledger-periods');
  if (!allowed) return <NoAccess title="ledger periods" />;
  return <PeriodsPage />;
}
