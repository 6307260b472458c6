import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { DataTable } from '../../../components/data-table.tsx';
import { EmptyState, ErrorState } from '../../../components/query-state.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { transactionQueries } from '../api/transaction-queries.ts';
import { TRANSACTIONS_TABLE, TransactionRow } from './transactions-table.tsx';

/** How many of a vault's newest transactions its page shows; the list has the rest. */
export const VAULT_TRANSACTIONS_SHOWN = 10;

/** The transactions list's query for a vault's page: its newest, as the list filtered by it reads them. */
export const vaultTransactionsQuery = (vaultId: string) =>
  transactionQueries.list({ vaultId, limit: VAULT_TRANSACTIONS_SHOWN });

/**
 * A vault's newest transactions (the transactions list filtered by the
 * vault), for the vault's page, with the way to the whole filtered list.
 */
export function VaultTransactions({ vaultId, vaultName }: { vaultId: string; vaultName: string }) {
  const list = useQuery(vaultTransactionsQuery(vaultId));
  const all = (
    <Link
      to="/transactions"
      search={{ vaultId }}
      className="text-sm font-medium text-blue-800 underline hover:text-blue-900"
    >
      All transactions of {vaultName}
    </Link>
  );
  if (list.isPending) return <Skeleton className="mt-3 h-32 w-full" />;
  if (list.isError)
    return (
      <div className="mt-3">
        <ErrorState
          title="Its transactions could not be loaded"
          error={list.error}
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
        />
      </div>
    );
  return (
    <div className="mt-3 flex flex-col gap-3">
      {list.data.results.length === 0 ? (
        <EmptyState title="No transactions yet" />
      ) : (
        <DataTable
          spec={{
            ...TRANSACTIONS_TABLE,
            label: `Transactions of ${vaultName}`,
            caption: `The newest transactions of ${vaultName}, newest first`,
          }}
          rows={list.data.results}
        >
          {(tx) => <TransactionRow transaction={tx} />}
        </DataTable>
      )}
      <p>{all}</p>
    </div>
  );
}
