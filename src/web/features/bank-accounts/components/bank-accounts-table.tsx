import { TableSkeleton } from '../../../components/table-skeleton.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableContainer,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatLocalDateTime } from '../../../lib/dates.ts';
import { paymentMethodLabel } from '../../../lib/labels.ts';
import type { BankAccountRow } from '../bank-account-row.ts';

const COLUMNS = [
  'Account name',
  'Bank',
  'Payment method',
  'Country',
  'Status',
  'Account number',
  'Routing number',
  'Created',
] as const;

function Headers() {
  return (
    <TableHeader>
      <TableRow className="hover:bg-transparent">
        {COLUMNS.map((column) => (
          <TableHead key={column}>{column}</TableHead>
        ))}
      </TableRow>
    </TableHeader>
  );
}

const dash = <span className="text-slate-700">—</span>;

export function BankAccountsTable({
  accounts,
  busy = false,
}: {
  accounts: BankAccountRow[];
  busy?: boolean;
}) {
  return (
    <TableContainer label="Bank accounts table">
      <Table aria-label="Bank accounts" aria-busy={busy} className={cn(busy && 'opacity-60')}>
        <TableCaption>Settlement bank accounts, newest first</TableCaption>
        <Headers />
        <TableBody>
          {accounts.map((account, index) => (
            <TableRow key={account.id ?? index} data-bank-account-id={account.id}>
              <TableCell className="font-medium">{account.accountName || dash}</TableCell>
              <TableCell>{account.bankName || dash}</TableCell>
              <TableCell className="whitespace-nowrap">
                {paymentMethodLabel(account.paymentMethod) || dash}
              </TableCell>
              <TableCell>{account.country || dash}</TableCell>
              <TableCell>
                <StatusBadge status={account.status} />
              </TableCell>
              <TableCell className="font-mono whitespace-nowrap">
                {account.maskedAccountNumber || dash}
              </TableCell>
              <TableCell className="font-mono whitespace-nowrap">
                {account.maskedRoutingNumber || dash}
              </TableCell>
              <TableCell className="whitespace-nowrap">
                {account.createdAt ? (
                  <time dateTime={account.createdAt} title={account.createdAt}>
                    {formatLocalDateTime(account.createdAt)}
                  </time>
                ) : (
                  dash
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

export function BankAccountsTableSkeleton() {
  return <TableSkeleton columns={COLUMNS.length} />;
}
