import { createFileRoute } from '@tanstack/react-router';
import { contactQueries } from '../../features/contacts/api/contact-queries.ts';
import { ContactDetailPage } from '../../features/contacts/components/contact-detail-page.tsx';
import { approvalProgressQuery } from '../../lib/approval-progress-queries.ts';
import { useCan } from '../../lib/permissions.ts';
import { useSession } from '../../lib/session-queries.ts';

export const Route = createFileRoute('/_authenticated/contacts_/$contactId')({
  loader: async ({ context: { queryClient }, params }) => {
    // The history is part of the first screen (who proposed what waits): read with the contact.
    const [contact] = await Promise.all([
      queryClient.ensureQueryData(contactQueries.detail(params.contactId)).catch(() => undefined),
      queryClient.ensureQueryData(contactQueries.history(params.contactId)).catch(() => undefined),
    ]);
    // What waits has its approvals so far in the first HTML, not pushing the decision's
    // buttons down once loaded.
    if (contact && (contact.status === 'PENDING' || contact.pendingAssetList))
      void queryClient.prefetchQuery(approvalProgressQuery(params.contactId));
  },
  component: ContactDetailRoute,
});

function ContactDetailRoute() {
  const { contactId } = Route.useParams();
  const session = useSession();
  const canApprove = useCan('approve');
  const canPropose = useCan('propose-contact');
  return (
    <ContactDetailPage
      contactId={contactId}
      permissions={{ memberId: session?.member.id, canApprove, canPropose }}
    />
  );
}
