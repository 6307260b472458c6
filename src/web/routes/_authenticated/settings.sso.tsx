import { createFileRoute } from '@tanstack/react-router';
import { NoAccess } from '../../components/no-access.tsx';
import { ssoQueries } from '../../features/sso/api/sso-queries.ts';
import { SsoSettingsPage } from '../../features/sso/components/sso-settings-page.tsx';
import { can, useCan } from '../../lib/permissions.ts';
import { loadSession } from '../../lib/session-queries.ts';

export const Route = createFileRoute('/_authenticated/settings/sso')({
  loader: async ({ context: { queryClient } }) => {
    const session = await loadSession(queryClient).catch(() => undefined);
    if (!can(session, 'manage-sso')) return;
    // A failed read shows in the page with a retry, not as a route error.
    await queryClient.ensureQueryData(ssoQueries.settings()).catch(() => undefined);
  },
  component: SsoRoute,
});

function SsoRoute() {
  const allowed = useCan('manage-sso');
  if (!allowed) return <NoAccess title="single sign-on settings" />;
  return <SsoSettingsPage />;
}
