import type { Contact } from '#contract/reference.ts';
import { useProposalScope } from '../../../lib/proposal-scope.ts';
import { BackToContacts } from './back-to-contacts.tsx';
import { ProposeContactForm } from './propose-contact-form.tsx';

/** `/contacts/new`: the propose form, in the member's current scope. */
export function ProposeContactPage({
  subOrgId,
  onProposed,
}: {
  subOrgId: string | undefined;
  onProposed: (contact: Contact) => void;
}) {
  const scopeLabel = useProposalScope(subOrgId);
  return (
    // The first screen the server renders ends here (entry-server.tsx).
    <section
      id="propose-contact-page"
      aria-labelledby="propose-contact-title"
      className="flex flex-col gap-4"
    >
      <title>Propose a contact · Custody Console</title>
      <BackToContacts />
      <h1 id="propose-contact-title" className="text-2xl font-semibold text-slate-900">
        Propose a contact
      </h1>
      <ProposeContactForm subOrgId={subOrgId} scopeLabel={scopeLabel} onProposed={onProposed} />
    </section>
  );
}
