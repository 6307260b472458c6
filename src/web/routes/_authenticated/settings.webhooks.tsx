import { createFileRoute } from '@tanstack/react-router';
import { NoAccess } from '../../components/no-access.tsx';
import { webhookQueries } from '../../features/webhooks/api/webhook-queries.ts';
import { WebhooksPage } from '../../features/webhooks/components/webhooks-page.tsx';
import { can, useCan } from '../../lib/permissions.ts';
import { loadSession } from '../../lib/session-queries.ts';

export const Route = createFileRoute('/_authenticated/settings/webhooks')({
  loader: async ({ context: { queryClient } }) => {
    const session = await loadSession(queryClient).catch(() => undefined);
    if (!can(session, 'manage-webhooks')) return;
    // A failed read shows in the page with a retry, not as a route error.
    await queryClient.ensureQueryData(webhookQueries.endpoints()).catch(() => undefined);
  },
  component: WebhooksRoute,
});

function WebhooksRoute() {
  const allowed = useCan('manage-webhooks');
  if (!allowed) return <NoAccess title="webhook settings" />;
  return <WebhooksPage />;
}
