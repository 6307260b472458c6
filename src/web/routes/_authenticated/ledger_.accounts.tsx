import { createFileRoute } from '@tanstack/react-router';
import { NoAccess } from '../../components/no-access.tsx';
import { periodQueries } from '../../features/ledger/periods/api/period-queries.ts';
import { AccountMappingPage } from '../../features/ledger/periods/components/account-mapping-page.tsx';
import { can, useCan } from '../../lib/permissions.ts';
import { loadSession } from '../../lib/session-queries.ts';

export const Route = createFileRoute('/_authenticated/ledger_/accounts')({
  loader: async ({ context: { queryClient } }) => {
    const session = await loadSession(queryClient).catch(() => undefined);
    if (!can(session, 'close-ledger-periods')) return;
    // A failed read shows in the page with a retry, not as a route error.
    await Promise.all([
      queryClient.ensureQueryData(periodQueries.mapping()).catch(() => undefined),
      queryClient
        .ensureQueryData(periodQueries.mappingVaults('', undefined))
        .catch(() => undefined),
    ]);
  },
  component: AccountsRoute,
});

function AccountsRoute() {
  const allowed = useCan('close-ledger-periods');
  if (!allowed) return <NoAccess title="the journal's account mapping" />;
  return <AccountMappingPage />;
}
