import { createFileRoute } from '@tanstack/react-router';
import { NoAccess } from '../../components/no-access.tsx';
import { apiKeyQueries } from '../../features/api-keys/api/api-key-queries.ts';
import { ApiKeysPage } from '../../features/api-keys/components/api-keys-page.tsx';
import { can, useCan } from '../../lib/permissions.ts';
import { loadSession } from '../../lib/session-queries.ts';

export const Route = createFileRoute('/_authenticated/settings/api-keys')({
  loader: async ({ context: { queryClient } }) => {
    const session = await loadSession(queryClient).catch(() => undefined);
    if (!can(session, 'manage-api-keys')) return;
    // A failed read shows in the page with a retry, not as a route error.
    await queryClient.ensureQueryData(apiKeyQueries.list()).catch(() => undefined);
  },
  component: ApiKeysRoute,
});

function ApiKeysRoute() {
  const allowed = useCan('manage-api-keys');
  if (!allowed) return <NoAccess title="API keys" />;
  return <ApiKeysPage />;
}
