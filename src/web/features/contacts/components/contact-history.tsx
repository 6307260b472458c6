import type { ChangeRequestActor, ChangeRequestHistory } from '#contract/change-request.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';

function who(actor: ChangeRequestActor | null): string {
  if (!actor) return 'someone outside this console';
  const name = actor.name ?? actor.id;
  return actor.type === 'API_USER' ? `${name} (API client)` : name;
}

const assets = (list: readonly string[] | undefined) =>
  list && list.length > 0 ? list.join(', ') : 'any asset';

/**
 * The contact's proposal and each change to its asset list, oldest first:
 * who proposed it, who approved or declined it, when, and why.
 */
export function ContactHistory({ history }: { history: ChangeRequestHistory }) {
  if (history.results.length === 0) {
    return <p className="text-sm text-slate-700">No proposal or decision is on record.</p>;
  }
  return (
    <ol className="flex flex-col gap-3">
      {history.results.map((record, index) => {
        const change = record.proposedChange;
        const status = record.status === 'REJECTED' ? 'DECLINED' : record.status;
        return (
          <li
            key={record.changeRequestId ?? index}
            className="rounded-md border border-slate-300 bg-white p-3 text-sm"
          >
            <p>
              {change ? `Assets ${assets(change.assetList)} proposed` : 'Contact proposed'} by{' '}
              <strong className="font-medium">{who(record.proposedBy)}</strong>
              {record.proposedAt ? (
                <>
                  {' on '}
                  <DateTime iso={record.proposedAt} />
                </>
              ) : null}
              .
            </p>
            {record.status === 'PENDING' ? (
              <p className="mt-1 text-slate-800">
                Waiting for another member to approve or decline.
              </p>
            ) : (
              <p className="mt-1 flex flex-wrap items-center gap-x-2">
                <StatusBadge status={status} />
                <span>
                  by <strong className="font-medium">{who(record.decidedBy)}</strong>
                  {record.decidedAt ? (
                    <>
                      {' on '}
                      <DateTime iso={record.decidedAt} />
                    </>
                  ) : null}
                  .
                </span>
              </p>
            )}
            {record.linkedAccounts ? (
              <p className="mt-1 flex flex-wrap items-center gap-x-2">
                <Badge tone="warning">Flagged</Badge>
                <span>Linked accounts: one of these two members created the other’s account.</span>
              </p>
            ) : null}
            {record.reason ? (
              <p className="mt-1">
                <span className="font-medium">Reason:</span> {record.reason}
              </p>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
