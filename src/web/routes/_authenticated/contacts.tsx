import { createFileRoute } from '@tanstack/react-router';
import { contactQueries } from '../../features/contacts/api/contact-queries.ts';
import { ContactsPage } from '../../features/contacts/components/contacts-page.tsx';
import { contactSearch } from '../../features/contacts/search.ts';
import { useCan } from '../../lib/permissions.ts';

export const Route = createFileRoute('/_authenticated/contacts')({
  validateSearch: contactSearch.schema,
  loaderDeps: ({ search }) => contactSearch.toListParams(search),
  loader: async ({ context: { queryClient }, deps, cause }) => {
    // A failed list is shown in the page (filters stay usable), not as a route error.
    const list = queryClient.ensureQueryData(contactQueries.list(deps)).catch(() => undefined);
    if (cause !== 'stay') await list;
  },
  component: ContactsRoute,
});

function ContactsRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const canPropose = useCan('propose-contact');
  return (
    <ContactsPage
      search={search}
      onSearchChange={(next) => void navigate({ search: next })}
      canPropose={canPropose}
    />
  );
}
