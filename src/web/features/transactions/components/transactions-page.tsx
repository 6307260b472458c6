import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { CursorPagination } from '../../../components/pagination.tsx';
import { EmptyState, ErrorState } from '../../../components/query-state.tsx';
import { Button } from '../../../components/ui/button.tsx';
import {
  compact,
  hasPreviousPage,
  nextPage,
  pageNumber,
  previousPage,
} from '../../../lib/paging.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { transactionQueries } from '../api/transaction-queries.ts';
import {
  hasActiveFilters,
  pickTransactionFilters,
  toTransactionListParams,
  withTransactionFilters,
  type TransactionSearch,
} from '../search.ts';
import { TransactionFilters, type FilterOption } from './transaction-filters.tsx';
import { TransactionsTable, TransactionsTableSkeleton } from './transactions-table.tsx';

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

/**
 * `/transactions`. The URL search is the page's whole state; every change
 * goes through `onSearchChange`, which pushes a history entry, so Back
 * returns to the previous filters or page.
 */
export function TransactionsPage({
  search,
  onSearchChange,
}: {
  search: TransactionSearch;
  onSearchChange: (next: TransactionSearch) => void;
}) {
  const query = useQuery(transactionQueries.list(toTransactionListParams(search)));
  const { vaultOptions, assetOptions } = useFilterOptions();

  const clearFilters = () => onSearchChange({});
  const loadingNext = query.isPlaceholderData && query.isFetching;
  const data = query.data;
  const nextCursor = data?.nextCursor ?? undefined;
  const hasNext = Boolean(nextCursor) && data?.hasNext !== false;

  let content;
  if (query.isPending) {
    content = <TransactionsTableSkeleton />;
  } else if (query.isError) {
    content = (
      <ErrorState
        title="Transactions could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      >
        {search.cursor ? (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => onSearchChange(withTransactionFilters(search, {}))}
          >
            Go to first page
          </Button>
        ) : null}
      </ErrorState>
    );
  } else if (query.data.results.length === 0) {
    content = hasActiveFilters(search) ? (
      <EmptyState title="No transactions match these filters">
        <Button size="sm" variant="primary" onClick={clearFilters}>
          Clear filters
        </Button>
      </EmptyState>
    ) : (
      <EmptyState title={search.cursor ? 'No more transactions' : 'No transactions yet'} />
    );
  } else {
    content = <TransactionsTable transactions={query.data.results} busy={loadingNext} />;
  }

  const count = data?.results.length ?? 0;
  const statusText = query.isPending
    ? 'Loading transactions…'
    : loadingNext
      ? 'Loading the next page of transactions…'
      : query.isError
        ? ''
        : `Showing ${count} transaction${count === 1 ? '' : 's'}, page ${pageNumber(search)}.`;

  return (
    <section aria-labelledby="transactions-title" className="flex flex-col gap-4">
      <title>Transactions · Custody Console</title>
      <h1 id="transactions-title" className="text-2xl font-semibold text-slate-900">
        Transactions
      </h1>
      <TransactionFilters
        value={pickTransactionFilters(search)}
        vaultOptions={vaultOptions}
        assetOptions={assetOptions}
        onChange={(patch) => onSearchChange(withTransactionFilters(search, patch))}
        onClear={clearFilters}
      />
      <p role="status" className={query.isPending ? 'text-sm text-slate-700' : 'sr-only'}>
        {statusText}
      </p>
      <div aria-busy={query.isPending || loadingNext} data-testid="transactions-results">
        {content}
      </div>
      {data && !query.isError ? (
        <CursorPagination
          label="Transactions pages"
          page={pageNumber(search)}
          hasPrevious={hasPreviousPage(search)}
          hasNext={hasNext}
          busy={loadingNext}
          onPrevious={() => onSearchChange(compact({ ...search, ...previousPage(search) }))}
          onNext={() =>
            nextCursor && onSearchChange(compact({ ...search, ...nextPage(search, nextCursor) }))
          }
        />
      ) : null}
    </section>
  );
}
