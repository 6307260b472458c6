import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import {
  CursorListPage,
  type CursorListSpec,
  type ListPageProps,
} from '../../../components/cursor-list.tsx';
import type { Option as FilterOption } from '../../../components/list-filters.tsx';
import { buttonVariants } from '../../../components/ui/button.tsx';
import { isTerminalStatus } from '#contract/enums.ts';
import type { Transaction } from '#contract/transaction.ts';
import { useTimeZone } from '../../../lib/display.tsx';
import { isLive } from '../../../lib/live-updates.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { useCan } from '../../../lib/permissions.ts';
import { transactionQueries } from '../api/transaction-queries.ts';
import {
  transactionSearch,
  type TransactionSearch,
  type TransactionSearchFilters,
} from '../search.ts';
import { ExportTransactions } from './export-transactions.tsx';
import { TransactionFilters } from './transaction-filters.tsx';
import { TRANSACTIONS_TABLE, TransactionRow } from './transactions-table.tsx';

function useFilterOptions() {
  const vaults = useQuery(referenceQueries.vaults());
  const assets = useQuery(referenceQueries.assets());

  const vaultOptions = useMemo<FilterOption[]>(
    () =>
      (vaults.data?.results ?? [])
        .filter((v) => v.id)
        .map((v) => ({ value: v.id as string, label: v.vaultName ?? (v.id as string) }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [vaults.data],
  );
  const assetOptions = useMemo<FilterOption[]>(() => {
    const symbols = new Set(
      (assets.data ?? []).map((a) => a.symbol).filter((s): s is string => !!s),
    );
    return [...symbols].sort().map((s) => ({ value: s, label: s }));
  }, [assets.data]);

  return { vaultOptions, assetOptions };
}

const TRANSACTIONS_LIST: CursorListSpec<Transaction, TransactionSearch, TransactionSearchFilters> =
  {
    id: 'transactions',
    nouns: {
      list: 'transactions',
      title: 'Transactions',
      one: 'transaction',
      many: 'transactions',
    },
    search: transactionSearch,
    table: TRANSACTIONS_TABLE,
  };

const LIVE_ROWS_INTERVAL_MS = 10_000;

/** What an export covers: the list's filters (days in `timeZone`) and scope, from the newest transaction on. */
function exportFilters(search: TransactionSearch, timeZone: string) {
  const { cursor: _cursor, ...filters } = transactionSearch.toListParams(search, timeZone);
  return filters;
}

/** `/transactions`: the URL search is the page's whole state (see CursorListPage). */
export function TransactionsPage(props: ListPageProps<TransactionSearch>) {
  const timeZone = useTimeZone();
  const query = useQuery({
    ...transactionQueries.list(transactionSearch.toListParams(props.search, timeZone)),
    // Rows still moving (PENDING … WAITING_CONFIRMATION) refresh on their own
    // with one list request per interval; TanStack Query skips intervals while
    // the tab is hidden, and once every row shown is terminal it stops. Not at all
    // while the event stream is up (lib/live-updates.ts): a change refetches the list.
    refetchInterval: (q) =>
      !isLive() && q.state.data?.results.some((tx) => !isTerminalStatus(tx.status))
        ? LIVE_ROWS_INTERVAL_MS
        : false,
  });
  const { vaultOptions, assetOptions } = useFilterOptions();
  // The server refuses a create from anyone else; the entry point is only shown to who may.
  const canCreate = useCan('create-transaction');

  return (
    <CursorListPage
      spec={TRANSACTIONS_LIST}
      query={query}
      {...props}
      actions={
        <>
          {canCreate ? (
            <Link to="/transactions/new" className={buttonVariants({ variant: 'primary' })}>
              New transaction
            </Link>
          ) : null}
          <ExportTransactions filters={exportFilters(props.search, timeZone)} timeZone={timeZone} />
        </>
      }
      filters={(filters) => (
        <TransactionFilters {...filters} vaultOptions={vaultOptions} assetOptions={assetOptions} />
      )}
    >
      {(tx) => <TransactionRow transaction={tx} />}
    </CursorListPage>
  );
}
