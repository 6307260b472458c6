import type { Party } from '#contract/transaction.ts';
import { humanize } from '../lib/labels.ts';

/** What a party is, in the words an approver checks before deciding. */
function partyKind(party: Party): string {
  switch (party.type) {
    case 'CONTACT':
      return 'approved contact';
    case 'VAULT':
      return 'our vault';
    case 'EXTERNAL_ADDRESS':
      return 'external address, not an approved contact';
    default:
      return humanize(party.type);
  }
}

/**
 * A source or destination as an approver reads it before deciding (the
 * decision summary, a bulk approval's items): its name, what it is (an
 * approved contact, our vault, or an address nobody approved) and its full
 * address. `none` stands for a party the transaction does not state.
 */
export function PartySummary({ party, none }: { party: Party | undefined; none: string }) {
  if (!party) return <>{none}</>;
  const kind = partyKind(party);
  return (
    <span className="block">
      <span className="font-medium">{party.name ?? humanize(party.type) ?? none}</span>
      {kind ? <span className="text-slate-700"> · {kind}</span> : null}
      {party.address ? (
        <span className="block font-mono text-xs break-all">{party.address}</span>
      ) : null}
    </span>
  );
}
