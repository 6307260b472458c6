import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { NoAccess } from '../../components/no-access.tsx';
import { ApprovalsPage } from '../../features/approvals/components/approvals-page.tsx';
import { approvalInboxSearch } from '../../features/approvals/search.ts';
import { transactionQueries } from '../../features/transactions/api/transaction-queries.ts';
import { approvalInboxQueries } from '../../lib/approval-inbox-queries.ts';
import { can, useCan } from '../../lib/permissions.ts';
import { loadSession } from '../../lib/session-queries.ts';

export const Route = createFileRoute('/_authenticated/approvals')({
  validateSearch: approvalInboxSearch.schema,
  loaderDeps: ({ search }) => approvalInboxSearch.toListParams(search),
  loader: async ({ context: { queryClient }, deps, cause }) => {
    // A 401 is the layout's to answer (a redirect to /login).
    const session = await loadSession(queryClient).catch(() => undefined);
    if (!can(session, 'approve')) return;
    // A failed list is shown in the page with a retry, not as a route error.
    const list = queryClient
      .ensureQueryData(approvalInboxQueries.list(deps))
      .catch(() => undefined);
    if (cause !== 'stay') await list;
  },
  component: ApprovalsRoute,
});

function ApprovalsRoute() {
  const allowed = useCan('approve');
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const queryClient = useQueryClient();
  if (!allowed) return <NoAccess title="the approvals inbox" />;
  return (
    <ApprovalsPage
      search={search}
      onSearchChange={(next) => void navigate({ search: next })}
      // Approved from the inbox: the transactions' lists and pages no longer say PENDING.
      onApproved={() => queryClient.invalidateQueries({ queryKey: transactionQueries.all() })}
    />
  );
}
