import type { ReactNode } from 'react';
import type { ApprovalCard } from '#contract/approval-card.ts';
import type { ApprovalItem } from '#contract/approval-inbox.ts';
import { formatAmount, formatUsd } from '#contract/decimal-format.ts';
import type { DataTableSpec } from '../../../components/data-table.tsx';
import { ApprovalProgressLine, YouApproved } from '../../../components/approval-progress.tsx';
import { InboxItemLink } from '../../../components/inbox-item-navigation.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { TableCell, TableRow } from '../../../components/ui/table.tsx';
import {
  describeItem,
  describeItemParts,
  formatAge,
  initiatorName,
  type InboxPlace,
} from '../../../lib/approval-inbox-items.ts';
import { bulkRefusal } from '../bulk.ts';
import { Choice } from '../../../components/ui/input.tsx';
import { cn } from '../../../lib/cn.ts';
import { humanize } from '../../../lib/labels.ts';

/** The table, with the page's select-all checkbox in the first column's heading. */
export function approvalsTable(selectAll: ReactNode): DataTableSpec<ApprovalItem> {
  return {
    label: 'Waiting for a decision',
    caption: 'Transactions and bank accounts waiting for a decision, newest first',
    columns: [
      { name: 'Select', header: selectAll, className: 'w-10 normal-case' },
      'What',
      'Initiator',
      'From vault',
      { name: 'Value', header: 'Value', className: 'text-right' },
      'Waiting',
      'Decision and approvals',
    ],
    // A transaction and a bank account are told apart by kind, not by id alone.
    rowKey: (item) => `${item.kind}-${item.id}`,
    // On a phone the value and the decision are what an approver needs, not a sideways scroll.
    cardsOnPhones: true,
  };
}

export const checkboxClass =
  'size-4 accent-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:opacity-50';

/**
 * What it is, in full: wrapped, never cut, so a bank account's masked
 * number (its last four digits) is read at any width; the number itself
 * stays on one line.
 */
function What({ item }: { item: ApprovalItem }) {
  const { text, number } = describeItemParts(item);
  return (
    <>
      <span className="block text-xs text-slate-700">
        {item.kind === 'TRANSACTION'
          ? 'Transaction'
          : item.kind === 'HELD'
            ? humanize(item.card.intent.kind)
            : item.kind === 'CONTACT'
              ? item.contact.pendingAssetList
                ? 'Contact asset change'
                : 'Contact'
              : 'Bank account'}
      </span>
      <span className="break-words">
        {text}
        {number ? (
          <>
            {' · '}
            <span className="whitespace-nowrap">{number}</span>
          </>
        ) : null}
      </span>
    </>
  );
}

function Initiator({ item }: { item: ApprovalItem }) {
  const name = initiatorName(item);
  if (name) return <>{item.yours ? `${name} (you)` : name}</>;
  return (
    <span className="text-slate-700" title={item.createdById ?? undefined}>
      Not recorded by this console
    </span>
  );
}

/** The amount, and its value in USD as the custody API gives it (to the cent). */
function Value({ item }: { item: ApprovalItem }) {
  if (item.kind === 'HELD') return <CardValue card={item.card} />;
  if (item.kind !== 'TRANSACTION') return <span className="text-slate-700">—</span>;
  const tx = item.transaction;
  const sendsNothing = !tx.amount || !/[1-9]/.test(tx.amount);
  return (
    <>
      <span className="block whitespace-nowrap">
        {sendsNothing ? 'No value sent' : `${formatAmount(tx.amount ?? '')} ${tx.asset ?? ''}`}
      </span>
      <span className="block text-xs whitespace-nowrap text-slate-700">
        {tx.amountInUSD ? `≈ ${formatUsd(tx.amountInUSD)} USD` : 'No USD value'}
      </span>
    </>
  );
}

/** An item the console holds: the amount its card binds, and its USD value now. */
function CardValue({ card: { intent, status } }: { card: ApprovalCard }) {
  if (!intent.amount) return <span className="text-slate-700">—</span>;
  return (
    <>
      <span className="block whitespace-nowrap">
        {`${formatAmount(intent.amount)} ${intent.asset ?? ''}`.trimEnd()}
      </span>
      <span className="block text-xs whitespace-nowrap text-slate-700">
        {status.amountUsd ? `≈ ${formatUsd(status.amountUsd)} USD` : 'No USD value'}
      </span>
    </>
  );
}

/** A cell of a phone's card: one line under the last, the column's width limits gone. */
const CARD_CELL = 'max-md:col-start-2 max-md:block max-md:min-w-0 max-md:py-0.5';

/** The column's name before a card's cell, on a phone only (the table's headings say it elsewhere). */
function CardLabel({ children }: { children: ReactNode }) {
  return <span className="text-xs font-semibold text-slate-700 md:hidden">{children}: </span>;
}

export interface RowSelection {
  selected: boolean;
  onChange: (selected: boolean) => void;
}

export function ApprovalRow({
  item,
  place,
  now,
  selection,
}: {
  item: ApprovalItem;
  /** The inbox page the row is on: its item page offers the next item from it. */
  place: InboxPlace;
  now: number;
  selection: RowSelection;
}) {
  const what = describeItem(item);
  const refusal = bulkRefusal(item);
  return (
    <TableRow
      data-approval-id={item.id}
      data-yours={item.yours || undefined}
      className="max-md:grid max-md:grid-cols-[2rem_minmax(0,1fr)] max-md:py-2"
    >
      <TableCell className="max-md:row-span-6">
        <Choice
          type="checkbox"
          className={checkboxClass}
          checked={!refusal && selection.selected}
          disabled={Boolean(refusal)}
          title={refusal ?? undefined}
          aria-label={
            refusal ? `Not selectable, ${refusal.toLowerCase()}: ${what}` : `Select ${what}`
          }
          onChange={(event) => selection.onChange(event.target.checked)}
        />
      </TableCell>
      <TableCell className={cn('min-w-48', CARD_CELL)}>
        <What item={item} />
      </TableCell>
      <TableCell className={cn('min-w-32', CARD_CELL)}>
        <CardLabel>Initiator</CardLabel>
        <Initiator item={item} />
      </TableCell>
      <TableCell className={cn('min-w-28', CARD_CELL)}>
        <CardLabel>From vault</CardLabel>
        {item.kind === 'TRANSACTION' ? (
          (item.vault?.name ?? item.vault?.id ?? <span className="text-slate-700">Not stated</span>)
        ) : item.kind === 'HELD' && item.card.intent.source ? (
          (item.card.intent.source.name ?? item.card.intent.source.id)
        ) : (
          <span className="text-slate-700">—</span>
        )}
      </TableCell>
      <TableCell className={cn('text-right tabular-nums max-md:text-left', CARD_CELL)}>
        <Value item={item} />
      </TableCell>
      <TableCell className={cn('whitespace-nowrap', CARD_CELL)}>
        <CardLabel>Waiting</CardLabel>
        {item.createdAt ? (
          <>
            <span className="block">{formatAge(item.createdAt, now)}</span>
            <span className="block text-xs text-slate-700">
              <DateTime iso={item.createdAt} />
            </span>
          </>
        ) : (
          'Unknown time'
        )}
      </TableCell>
      <TableCell className={cn('whitespace-nowrap max-md:whitespace-normal', CARD_CELL)}>
        {item.youApprovedAt ? (
          <span className="flex max-w-72 flex-col items-start gap-1 whitespace-normal">
            <YouApproved at={item.youApprovedAt} progress={item.progress ?? null} />
            <InboxItemLink item={item} place={place}>
              View<span className="sr-only">{` ${what}`}</span>
            </InboxItemLink>
          </span>
        ) : item.yours ? (
          <span className="flex flex-col items-start gap-1">
            <Badge tone="neutral">Yours — another member must decide</Badge>
            <InboxItemLink item={item} place={place}>
              View<span className="sr-only">{` ${what}`}</span>
            </InboxItemLink>
          </span>
        ) : (
          <InboxItemLink item={item} place={place}>
            Review and decide<span className="sr-only">{`: ${what}`}</span>
          </InboxItemLink>
        )}
        {item.progress ? (
          <span className="mt-1 block max-w-72 whitespace-normal">
            <ApprovalProgressLine progress={item.progress} />
          </span>
        ) : null}
      </TableCell>
    </TableRow>
  );
}
