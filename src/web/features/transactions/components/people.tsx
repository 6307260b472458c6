import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { Transaction } from '../../../../contract/transaction.ts';
import { LocalDateTime } from '../../../components/local-date-time.tsx';
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
 * Who created, approved, declined and replaced the transaction, with when,
 * as rows of the page's details. The API's own record of replacements links
 * both ways.
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
        {tx.createdAt ? <LocalDateTime iso={tx.createdAt} /> : 'Time not recorded'}
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
            <LocalDateTime iso={r.decidedAt ?? ''} />
            <span className="block text-sm text-slate-700">by {actorName(r.decidedBy)}</span>
            {r.reason ? <span className="block text-sm">Reason: {r.reason}</span> : null}
          </Row>
        ))}
      {tx.replacesTransactionId ? (
        <Row term="Replaces">
          <TransactionLink id={tx.replacesTransactionId} />
        </Row>
      ) : null}
      {(tx.replacements ?? []).map((r) => (
        <Row key={r.id} term="Replaced by">
          <TransactionLink id={r.id} />
          <span className="block text-sm text-slate-700">
            {r.createdAt ? <LocalDateTime iso={r.createdAt} /> : null} by{' '}
            <Initiator transaction={{ id: r.id, status: r.status }} />
          </span>
        </Row>
      ))}
    </>
  );
}

function TransactionLink({ id }: { id: string }) {
  return (
    <Link
      to="/transactions/$transactionId"
      params={{ transactionId: id }}
      className="font-mono text-sm break-all text-blue-800 underline hover:text-blue-900"
    >
      {id}
    </Link>
  );
}
