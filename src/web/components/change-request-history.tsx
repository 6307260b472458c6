import type {
  ChangeRequestActor,
  ChangeRequestHistory,
  ChangeRequestRecord,
} from '#contract/change-request.ts';
import { humanize } from '../lib/labels.ts';
import { DateTime } from './date-time.tsx';
import { Badge } from './ui/badge.tsx';
import { StatusBadge } from './ui/status-badge.tsx';

function who(actor: ChangeRequestActor | null): string {
  if (!actor) return 'someone outside this console';
  const name = actor.name ?? actor.id;
  return actor.type === 'API_USER' ? `${name} (API client)` : name;
}

function When({ at }: { at: string | null }) {
  if (!at) return null;
  return (
    <>
      {' on '}
      <DateTime iso={at} />
    </>
  );
}

/** A change request's decision as the item's status reads it: REJECTED declines it. */
const outcome = (status: string) => (status === 'REJECTED' ? 'DECLINED' : status);

/**
 * An item's change requests, oldest first (a bank account's proposal; a
 * contact's proposal and each change to its assets): who proposed it, who
 * decided it, when, and why. A decision between members linked by member
 * management is flagged.
 */
export function ChangeRequestHistoryList({
  history,
  proposed = () => 'Proposed',
}: {
  history: ChangeRequestHistory;
  /** What the record proposed, in words: "Proposed", "Assets ETH proposed". */
  proposed?: (record: ChangeRequestRecord) => string;
}) {
  if (history.results.length === 0) {
    return <p className="text-sm text-slate-700">No proposal or decision is on record.</p>;
  }
  return (
    <ol className="flex flex-col gap-3">
      {history.results.map((record, index) => (
        <li
          key={record.changeRequestId ?? index}
          className="rounded-md border border-slate-300 bg-white p-3 text-sm"
        >
          <p>
            {proposed(record)} by <strong className="font-medium">{who(record.proposedBy)}</strong>
            <When at={record.proposedAt} />.
          </p>
          {record.status === 'PENDING' ? (
            <p className="mt-1 text-slate-800">Waiting for another member to approve or decline.</p>
          ) : (
            <p className="mt-1 flex flex-wrap items-center gap-x-2">
              <StatusBadge status={outcome(record.status)} />
              <span>
                {humanize(outcome(record.status))} by{' '}
                <strong className="font-medium">{who(record.decidedBy)}</strong>
                <When at={record.decidedAt} />.
              </span>
            </p>
          )}
          {record.status !== 'PENDING' && record.linkedAccounts ? (
            <p className="mt-1 flex flex-wrap items-center gap-x-2 text-slate-900">
              <Badge tone="warning">Flagged</Badge>
              <span>
                Linked accounts: one of these two members created the other&apos;s console account,
                so they may be one person.
              </span>
            </p>
          ) : null}
          {record.reason ? (
            <p className="mt-1">
              <span className="font-medium">Reason:</span> {record.reason}
            </p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
