import type { ReactNode } from 'react';
import type { Transaction } from '#contract/transaction.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { actorName, useTransactionHistory } from '../api/transaction-history.ts';

/** Who asked for the transaction, by name (the API gives only an id). */
export function Initiator({ transaction: tx }: { transaction: Transaction }) {
  const history = useTransactionHistory(tx);
  const creator = history.data?.results.find((r) => r.proposedBy)?.proposedBy;
  if (creator) return <>{actorName(creator)}</>;
  if (history.isPending && tx.createdById) return <>Looking up…</>;
  return tx.createdById ? (
    <>
      <span className="font-mono text-xs break-all">{tx.createdById}</span>
      <span className="block text-xs text-slate-700">
        Not a member or client this console knows
      </span>
    </>
  ) : (
    <>Not recorded</>
  );
}

/**
 * Who created, approved and declined the transaction, with when, as rows of
 * the page's details. Who replaced it, and when, is said beside each
 * replacement (replace-panel.tsx).
 */
export function PeopleRows({
  transaction: tx,
  Row,
}: {
  transaction: Transaction;
  Row: (props: { term: string; children: ReactNode }) => ReactNode;
}) {
  const history = useTransactionHistory(tx);
  const records = history.data?.results ?? [];
  return (
    <>
      <Row term="Created">
        {tx.createdAt ? <DateTime iso={tx.createdAt} /> : 'Time not recorded'}
        <span className="block text-sm text-slate-700">
          by <Initiator transaction={tx} />
        </span>
      </Row>
      {records
        .filter((r) => r.decidedBy && r.decidedAt)
        .map((r) => (
          <Row
            key={`${r.changeRequestId ?? ''}${r.decidedAt}`}
            term={r.status === 'APPROVED' ? 'Approved' : 'Declined'}
          >
            <DateTime iso={r.decidedAt ?? ''} />
            <span className="block text-sm text-slate-700">by {actorName(r.decidedBy)}</span>
            {r.reason ? <span className="block text-sm">Reason: {r.reason}</span> : null}
          </Row>
        ))}
    </>
  );
}
