import { createFileRoute } from '@tanstack/react-router';
import { NoAccess } from '../../components/no-access.tsx';
import { ProposeContactPage } from '../../features/contacts/components/propose-contact-page.tsx';
import { useCan } from '../../lib/permissions.ts';

export const Route = createFileRoute('/_authenticated/contacts_/new')({
  component: ProposeContactRoute,
});

function ProposeContactRoute() {
  const allowed = useCan('propose-contact');
  const { subOrg } = Route.useSearch();
  const navigate = Route.useNavigate();
  if (!allowed) return <NoAccess title="proposing contacts" />;
  return (
    <ProposeContactPage
      subOrgId={subOrg}
      onProposed={(contact) => {
        if (!contact.id) return;
        void navigate({
          to: '/contacts/$contactId',
          params: { contactId: contact.id },
          search: { subOrg },
        });
      }}
    />
  );
}
