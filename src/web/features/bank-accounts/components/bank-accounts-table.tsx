import { Link } from '@tanstack/react-router';
import type { DataTableSpec } from '../../../components/data-table.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { TableCell, TableRow } from '../../../components/ui/table.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { paymentMethodLabel } from '../../../lib/labels.ts';
import { useRevealBankAccount } from '../api/reveal-bank-account.ts';
import type { BankAccountRow } from '../bank-account-row.ts';

const BANK_ACCOUNTS_TABLE: DataTableSpec<BankAccountRow> = {
  label: 'Bank accounts',
  caption: 'Settlement bank accounts, newest first',
  columns: [
    'Account name',
    'Bank',
    'Payment method',
    'Country',
    'Status',
    'Account number',
    'Routing number',
    'Created',
  ],
};

const REVEALING_TABLE: DataTableSpec<BankAccountRow> = {
  ...BANK_ACCOUNTS_TABLE,
  columns: [...BANK_ACCOUNTS_TABLE.columns, 'Full numbers'],
};

/** The table, with "Reveal" per row for roles that may see full numbers. */
export function bankAccountsTable(canReveal: boolean): DataTableSpec<BankAccountRow> {
  return canReveal ? REVEALING_TABLE : BANK_ACCOUNTS_TABLE;
}

const dash = <span className="text-slate-700">—</span>;

export function BankAccountTableRow({
  account,
  canReveal,
}: {
  account: BankAccountRow;
  /** Offer "Reveal" (roles that may see full numbers). */
  canReveal: boolean;
}) {
  const reveal = useRevealBankAccount();
  const revealed = reveal.data;
  const name = account.accountName || account.bankName || 'this account';

  return (
    <TableRow data-bank-account-id={account.id}>
      <TableCell className="font-medium">
        {account.id ? (
          // The name opens the account: a real link, so it works by keyboard and in a new tab.
          <Link
            to="/bank-accounts/$bankAccountId"
            params={{ bankAccountId: account.id }}
            search={(prev) => ({ subOrg: (prev as { subOrg?: string }).subOrg })}
            className="text-blue-800 underline hover:text-blue-900"
          >
            {account.accountName || account.bankName || 'Bank account'}
          </Link>
        ) : (
          account.accountName || dash
        )}
      </TableCell>
      <TableCell>{account.bankName || dash}</TableCell>
      <TableCell className="whitespace-nowrap">
        {paymentMethodLabel(account.paymentMethod) || dash}
      </TableCell>
      <TableCell>{account.country || dash}</TableCell>
      <TableCell>
        <StatusBadge status={account.status} />
      </TableCell>
      <TableCell className="font-mono whitespace-nowrap" data-revealed={revealed ? '' : undefined}>
        {revealed ? revealed.accountNumber || dash : account.maskedAccountNumber || dash}
      </TableCell>
      <TableCell className="font-mono whitespace-nowrap">
        {revealed ? revealed.routingNumber || dash : account.maskedRoutingNumber || dash}
      </TableCell>
      <TableCell className="whitespace-nowrap">
        {account.createdAt ? <DateTime iso={account.createdAt} /> : dash}
      </TableCell>
      {canReveal ? (
        <TableCell className="whitespace-nowrap">
          {account.id ? (
            <Button
              size="sm"
              variant="secondary"
              disabled={reveal.isPending}
              aria-label={`${revealed ? 'Hide' : 'Reveal'} full numbers of ${name}`}
              onClick={() =>
                // Hiding drops the numbers from memory; revealing again asks (and audits) again.
                revealed ? reveal.reset() : reveal.mutate(account.id as string)
              }
            >
              {reveal.isPending ? 'Revealing…' : revealed ? 'Hide' : 'Reveal'}
            </Button>
          ) : null}
          {reveal.isError ? (
            <p role="alert" className="mt-1 max-w-48 text-xs whitespace-normal text-red-800">
              {describeError(reveal.error)}
            </p>
          ) : null}
        </TableCell>
      ) : null}
    </TableRow>
  );
}
