import { createFileRoute } from '@tanstack/react-router';
import { NoAccess } from '../../components/no-access.tsx';
import { notificationQueries } from '../../features/notifications/api/notification-queries.ts';
import { NotificationsPage } from '../../features/notifications/components/notifications-page.tsx';
import { can, useCan } from '../../lib/permissions.ts';
import { loadSession } from '../../lib/session-queries.ts';

export const Route = createFileRoute('/_authenticated/settings/notifications')({
  loader: async ({ context: { queryClient } }) => {
    const session = await loadSession(queryClient).catch(() => undefined);
    if (!can(session, 'manage-notifications')) return;
    // A failed read shows in the page with a retry, not as a route error.
    await queryClient.ensureQueryData(notificationQueries.smtp()).catch(() => undefined);
  },
  component: NotificationsRoute,
});

function NotificationsRoute() {
  const allowed = useCan('manage-notifications');
  if (!allowed) return <NoAccess title="notification settings" />;
  return <NotificationsPage />;
}
