import { createFileRoute } from '@tanstack/react-router';
import { HeldItemPage } from '../../features/approvals/components/held-item-page.tsx';
import { approvalCardQuery } from '../../lib/approval-card-queries.ts';
import { useCan } from '../../lib/permissions.ts';
import { useSession } from '../../lib/session-queries.ts';

// An item of a kind the console holds itself: a page of its own, not nested in the inbox's
// route, so the inbox's search stays in the history entry Back returns to.
export const Route = createFileRoute('/_authenticated/approvals_/held/$entityId')({
  loader: async ({ context: { queryClient }, params }) => {
    // A 404 or no-access answer is the page's to explain, not a route error.
    await queryClient.ensureQueryData(approvalCardQuery(params.entityId)).catch(() => undefined);
  },
  component: HeldItemRoute,
});

function HeldItemRoute() {
  const { entityId } = Route.useParams();
  const session = useSession();
  const canApprove = useCan('approve');
  return (
    <HeldItemPage entityId={entityId} permissions={{ memberId: session?.member.id, canApprove }} />
  );
}
