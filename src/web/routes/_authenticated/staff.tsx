import { createFileRoute } from '@tanstack/react-router';
import { NoAccess } from '../../components/no-access.tsx';
import { loadSession, useSession } from '../../lib/session-queries.ts';
import { can, useCan } from '../../lib/permissions.ts';
import { staffQueries } from '../../features/staff/api/staff-queries.ts';
import { StaffPage } from '../../features/staff/components/staff-page.tsx';

export const Route = createFileRoute('/_authenticated/staff')({
  loader: async ({ context: { queryClient } }) => {
    // A 401 is the layout's to answer (a redirect to /login).
    const session = await loadSession(queryClient).catch(() => undefined);
    if (!can(session, 'manage-staff')) return;
    // Errors show in the page with a retry, not as a route error.
    return queryClient.ensureQueryData(staffQueries.page({}, undefined)).then(
      () => undefined,
      () => undefined,
    );
  },
  component: StaffRoute,
});

function StaffRoute() {
  const allowed = useCan('manage-staff');
  const session = useSession();
  if (!allowed) return <NoAccess title="staff management" />;
  return <StaffPage currentMemberId={session?.member.id} />;
}
