import { Link, useNavigate } from '@tanstack/react-router';
import type { MouseEvent } from 'react';
import { describeContractCall } from '#contract/call-data.ts';
import { chainLabel } from '#contract/chains.ts';
import { formatAmount } from '#contract/decimal-format.ts';
import type { Transaction } from '#contract/transaction.ts';
import type { DataTableSpec } from '../../../components/data-table.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { ScheduledNote } from './scheduled-note.tsx';
import { TableCell, TableRow } from '../../../components/ui/table.tsx';
import { humanize, partyLabel } from '../../../lib/labels.ts';
import { describeTransaction } from '../../../lib/transaction-summary.ts';
import { SlowBadge } from './slow-flag.tsx';

export const TRANSACTIONS_TABLE: DataTableSpec<Transaction> = {
  label: 'Transactions',
  caption: 'Transactions, newest first',
  columns: [
    'Created',
    'Status',
    'Category',
    { name: 'Amount', header: 'Amount', className: 'text-right' },
    'Chain',
    {
      name: 'Parties',
      header: (
        <>
          Source <span aria-hidden="true">→</span>
          <span className="sr-only"> to</span> destination
        </>
      ),
    },
    'Reference',
  ],
};

function Muted({ children }: { children: string }) {
  return <span className="text-slate-700">{children}</span>;
}

/**
 * A click anywhere on the row opens the transaction, as the link in its first
 * cell does for the keyboard and for screen readers. Clicks on another
 * control, modified clicks (new tab: use the link) and selecting text to
 * copy it are left alone.
 */
function openOnRowClick(open: () => void) {
  return (event: MouseEvent<HTMLTableRowElement>) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if ((event.target as Element).closest('a, button, input, select, textarea')) return;
    if (window.getSelection()?.toString()) return;
    open();
  };
}

export function TransactionRow({ transaction: tx }: { transaction: Transaction }) {
  const navigate = useNavigate();
  const source = partyLabel(tx.source);
  const destination = partyLabel(tx.destination);
  const call =
    tx.category === 'CONTRACT_CALL' ? describeContractCall(tx.data, tx.blockChain) : undefined;
  const id = tx.id;
  const created = tx.createdAt ? <DateTime iso={tx.createdAt} /> : 'Unknown time';
  return (
    <TableRow
      data-transaction-id={id}
      className={id ? 'cursor-pointer' : undefined}
      onClick={
        id
          ? openOnRowClick(
              () =>
                void navigate({
                  to: '/transactions/$transactionId',
                  params: { transactionId: id },
                }),
            )
          : undefined
      }
    >
      <TableCell className="whitespace-nowrap">
        {id ? (
          // A history entry of its own: Back returns to this list with its filters and page.
          <Link
            to="/transactions/$transactionId"
            params={{ transactionId: id }}
            className="font-medium text-blue-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
          >
            {created}
            <span className="sr-only">{`, open ${describeTransaction(tx)}`}</span>
          </Link>
        ) : (
          <Muted>—</Muted>
        )}
      </TableCell>
      <TableCell>
        <StatusBadge status={tx.status} />
        <SlowBadge transaction={tx} />
        <ScheduledNote transaction={tx} />
        {tx.status === 'FAILED' && tx.error ? (
          <span className="mt-1 block max-w-48 truncate text-xs text-red-800" title={tx.error}>
            {tx.error}
          </span>
        ) : null}
      </TableCell>
      <TableCell className="whitespace-nowrap">
        <span className="block">{humanize(tx.category) || '—'}</span>
        {call ? (
          // What the call does: an unlimited approval must not read as a call of 0.
          <span className="block max-w-64 text-xs whitespace-normal text-slate-800">{call}</span>
        ) : tx.subCategory && tx.subCategory !== tx.category ? (
          <span className="block text-xs text-slate-700">{humanize(tx.subCategory)}</span>
        ) : null}
      </TableCell>
      <TableCell className="text-right whitespace-nowrap tabular-nums">
        {tx.amount ? (
          <>
            <span className="font-medium">{formatAmount(tx.amount)}</span>{' '}
            <span className="text-slate-700">{tx.asset}</span>
          </>
        ) : (
          <Muted>{tx.asset ?? '—'}</Muted>
        )}
      </TableCell>
      <TableCell className="whitespace-nowrap">{chainLabel(tx.blockChain) || '—'}</TableCell>
      <TableCell>
        <span
          className="block max-w-48 truncate"
          title={[source, destination].filter(Boolean).join(' → ')}
        >
          {source || '—'}
          {destination ? (
            <>
              {' '}
              <span aria-hidden="true">→</span>
              <span className="sr-only"> to</span> {destination}
            </>
          ) : null}
        </span>
      </TableCell>
      <TableCell>
        {tx.externalId ? (
          <span className="block max-w-36 truncate font-mono text-xs" title={tx.externalId}>
            {tx.externalId}
          </span>
        ) : null}
        {tx.memo ? (
          <span className="block max-w-36 truncate text-xs text-slate-700" title={tx.memo}>
            {tx.memo}
          </span>
        ) : null}
        {!tx.externalId && !tx.memo ? <Muted>—</Muted> : null}
      </TableCell>
    </TableRow>
  );
}
