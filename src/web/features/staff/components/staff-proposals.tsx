import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { StaffProposal } from '#contract/auth.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { Panel } from '../../../components/panel.tsx';
import { ErrorState } from '../../../components/query-state.tsx';
import { staffQueries } from '../api/staff-queries.ts';

const KIND_LABELS: Record<StaffProposal['kind'], string> = {
  create: 'New member',
  update: 'Change',
  reset_factor: 'Second-factor reset',
};

/**
 * Staff changes awaiting another admin: what each changes, who proposed it,
 * and a link to decide it on its own page (`/approvals/held/$entityId`), the
 * one way every held item is decided: its approval card shown (before →
 * after) and the decision signed over it where the member holds a passkey.
 * The server refuses a decision by the proposer, by the member changed, or by
 * an account linked to the proposer's (one created the other's); the page
 * says so beside the proposal instead of offering it.
 */
export function StaffProposals({
  currentMember,
}: {
  currentMember: { id: string; createdBy?: string | null | undefined } | undefined;
}) {
  const proposals = useQuery(staffQueries.proposals());
  if (proposals.isPending) return null;
  if (proposals.isError)
    return (
      <ErrorState
        title="Staff proposals could not be loaded"
        error={proposals.error}
        onRetry={() => void proposals.refetch()}
        retrying={proposals.isFetching}
      />
    );
  const pending = proposals.data.results;
  return (
    <Panel title={`Staff changes awaiting approval (${pending.length})`}>
      {pending.length === 0 ? (
        <p className="text-sm text-slate-700">None: every staff change has been decided.</p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Staff changes awaiting approval">
          {pending.map((proposal) => (
            <ProposalItem key={proposal.id} proposal={proposal} currentMember={currentMember} />
          ))}
        </ul>
      )}
    </Panel>
  );
}

function whyNotYours(
  proposal: StaffProposal,
  member: { id: string; createdBy?: string | null | undefined } | undefined,
  proposerCreatedBy: string | null | undefined,
): string | null {
  if (!member) return null;
  if (proposal.proposedBy.id === member.id)
    return 'You proposed this: another admin must approve or decline it.';
  if (proposal.staffId === member.id)
    return 'This changes your own account: another admin must decide it.';
  if (member.createdBy === proposal.proposedBy.id)
    return `${proposal.proposedBy.name} created your account: an admin not linked to them must decide it.`;
  if (proposerCreatedBy === member.id)
    return `You created ${proposal.proposedBy.name}'s account: an admin not linked to them must decide it.`;
  return null;
}

function ProposalItem({
  proposal,
  currentMember,
}: {
  proposal: StaffProposal;
  currentMember: { id: string; createdBy?: string | null | undefined } | undefined;
}) {
  // The team list (already loaded by the page) says who created the proposer's account.
  const team = useQuery(staffQueries.list());
  const proposer = team.data?.results.find((m) => m.id === proposal.proposedBy.id);
  const headingId = `proposal-${proposal.id}`;
  const blocked = whyNotYours(proposal, currentMember, proposer?.createdBy);
  return (
    <li
      aria-labelledby={headingId}
      data-proposal-id={proposal.id}
      className="flex flex-col gap-2 rounded-md border border-slate-200 p-3"
    >
      <p id={headingId} className="text-sm font-medium text-slate-900">
        {KIND_LABELS[proposal.kind]}: {proposal.summary}
      </p>
      <p className="text-sm text-slate-700">
        Proposed by {proposal.proposedBy.name}, <DateTime iso={proposal.proposedAt} />
      </p>
      {blocked ? (
        <p className="text-sm text-slate-700">{blocked}</p>
      ) : (
        <p>
          <Link
            to="/approvals/held/$entityId"
            params={{ entityId: proposal.id }}
            aria-label={`Review and decide: ${proposal.summary}`}
            className="text-sm font-medium text-blue-800 underline hover:text-blue-900"
          >
            Review and decide
          </Link>
        </p>
      )}
    </li>
  );
}
