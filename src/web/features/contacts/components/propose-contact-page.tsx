import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Contact } from '#contract/reference.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { useSession } from '../../../lib/session-queries.ts';
import { ProposeContactForm } from './propose-contact-form.tsx';

/** `/contacts/new`: the propose form, in the member's current scope. */
export function ProposeContactPage({
  subOrgId,
  onProposed,
}: {
  subOrgId: string | undefined;
  onProposed: (contact: Contact) => void;
}) {
  const subOrgs = useQuery(referenceQueries.subOrgs());
  // A member held to sub-organizations proposes in one of theirs (the server refuses others).
  const own = useSession()?.member.subOrgIds ?? null;
  const proposedIn = subOrgId ?? (own?.length === 1 ? own[0] : undefined);
  const subOrgName = subOrgs.data?.results.find((s) => s.id === proposedIn)?.name;
  let scopeLabel: string;
  if (proposedIn) scopeLabel = subOrgName ?? proposedIn;
  else if (own)
    scopeLabel =
      'none of your sub-organizations yet: choose one in the scope selector above before proposing';
  else
    scopeLabel =
      'the whole organization (no sub-organization; choose a scope above to propose it for one)';
  return (
    // The first screen the server renders ends here (entry-server.tsx).
    <section
      id="propose-contact-page"
      aria-labelledby="propose-contact-title"
      className="flex flex-col gap-4"
    >
      <title>Propose a contact · Custody Console</title>
      <p>
        <Link
          to="/contacts"
          className="text-sm font-medium text-blue-800 underline hover:text-blue-900"
        >
          Back to the address book
        </Link>
      </p>
      <h1 id="propose-contact-title" className="text-2xl font-semibold text-slate-900">
        Propose a contact
      </h1>
      <ProposeContactForm subOrgId={subOrgId} scopeLabel={scopeLabel} onProposed={onProposed} />
    </section>
  );
}
