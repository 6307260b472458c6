import { createFileRoute } from '@tanstack/react-router';
import { NoAccess } from '../../components/no-access.tsx';
import { auditQueries } from '../../features/audit/api/audit-queries.ts';
import { AuditPage } from '../../features/audit/components/audit-page.tsx';
import { auditSearch } from '../../features/audit/search.ts';
import { can, useCan } from '../../lib/permissions.ts';
import { loadSession } from '../../lib/session-queries.ts';
import { referenceQueries } from '../../lib/reference-queries.ts';

export const Route = createFileRoute('/_authenticated/audit')({
  validateSearch: auditSearch.schema,
  loaderDeps: ({ search }) => auditSearch.listDeps(search),
  loader: async ({ context: { queryClient }, deps, cause }) => {
    // A 401 is the layout's to answer (a redirect to /login).
    const session = await loadSession(queryClient).catch(() => undefined);
    if (!session || !can(session, 'view-audit')) return;
    void queryClient.prefetchQuery(referenceQueries.staffMembers());
    // A failed list is shown in the page (filters stay usable), not as a route error.
    // Its From and To are days in the member's zone.
    const params = auditSearch.toListParams(deps, session.display.timeZone);
    const list = queryClient.ensureQueryData(auditQueries.list(params)).catch(() => undefined);
    if (cause !== 'stay') await list;
  },
  component: AuditRoute,
});

function AuditRoute() {
  const allowed = useCan('view-audit');
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  if (!allowed) return <NoAccess title="the audit log" />;
  return <AuditPage search={search} onSearchChange={(next) => void navigate({ search: next })} />;
}
