import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { ApprovalItem } from '../../../../contract/approval-inbox.ts';
import { chainLabel } from '../../../../contract/chains.ts';
import { formatAmount } from '../../../../contract/decimal-format.ts';
import type { DataTableSpec } from '../../../components/data-table.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { TableCell, TableRow } from '../../../components/ui/table.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { humanize, partyLabel, paymentMethodLabel } from '../../../lib/labels.ts';

export const APPROVALS_TABLE: DataTableSpec<ApprovalItem> = {
  label: 'Waiting for a decision',
  caption: 'Transactions and bank accounts waiting for a decision, newest first',
  columns: ['Proposed', 'Kind', 'What', 'Decision'],
  // A transaction and a bank account are told apart by kind, not by id alone.
  rowKey: (item) => `${item.kind}-${item.id}`,
};

const linkClass =
  'font-medium text-blue-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700';

/** One line naming the item, as a reviewer scans for it: amount and destination, or the account. */
export function describeItem(item: ApprovalItem): string {
  if (item.kind === 'TRANSACTION') {
    const tx = item.transaction;
    const kind = humanize(tx.category) || 'Transaction';
    const amount = tx.amount ? ` of ${formatAmount(tx.amount)} ${tx.asset ?? ''}`.trimEnd() : '';
    const to = partyLabel(tx.destination);
    const chain = chainLabel(tx.blockChain);
    return `${kind}${amount}${to ? ` to ${to}` : ''}${chain ? ` on ${chain}` : ''}`;
  }
  const account = item.bankAccount;
  const rail = paymentMethodLabel(account.paymentMethod);
  return [
    `${rail ? `${rail} account` : 'Bank account'} ${account.accountName ?? ''}`.trimEnd(),
    account.bankName,
    account.accountNumber,
  ]
    .filter(Boolean)
    .join(' · ');
}

function ItemLink({ item, children }: { item: ApprovalItem; children: ReactNode }) {
  // A history entry of its own: Back returns to this page of the inbox.
  return item.kind === 'TRANSACTION' ? (
    <Link
      to="/transactions/$transactionId"
      params={{ transactionId: item.id }}
      className={linkClass}
    >
      {children}
    </Link>
  ) : (
    <Link
      to="/bank-accounts/$bankAccountId"
      params={{ bankAccountId: item.id }}
      className={linkClass}
    >
      {children}
    </Link>
  );
}

export function ApprovalRow({ item }: { item: ApprovalItem }) {
  const what = describeItem(item);
  return (
    <TableRow data-approval-id={item.id} data-yours={item.yours || undefined}>
      <TableCell className="whitespace-nowrap">
        {item.createdAt ? <DateTime iso={item.createdAt} /> : 'Unknown time'}
      </TableCell>
      <TableCell className="whitespace-nowrap">
        {item.kind === 'TRANSACTION' ? 'Transaction' : 'Bank account'}
      </TableCell>
      <TableCell>
        <span className="block max-w-96 truncate" title={what}>
          {what}
        </span>
      </TableCell>
      <TableCell className="whitespace-nowrap">
        {item.yours ? (
          <span className="flex flex-col items-start gap-1">
            <Badge tone="neutral">Yours — another member must decide</Badge>
            <ItemLink item={item}>
              View<span className="sr-only">{` ${what}`}</span>
            </ItemLink>
          </span>
        ) : (
          <ItemLink item={item}>
            Review and decide<span className="sr-only">{`: ${what}`}</span>
          </ItemLink>
        )}
      </TableCell>
    </TableRow>
  );
}
