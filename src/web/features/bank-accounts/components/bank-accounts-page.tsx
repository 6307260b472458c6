import { useQuery } from '@tanstack/react-query';
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
import { bankAccountQueries } from '../api/bank-account-queries.ts';
import { toBankAccountRow } from '../bank-account-row.ts';
import {
  hasActiveBankAccountFilters,
  pickBankAccountFilters,
  toBankAccountListParams,
  withBankAccountFilters,
  type BankAccountSearch,
} from '../search.ts';
import type { BankAccountListResponse } from '../../../../contract/bank-account.ts';
import { BankAccountFilters } from './bank-account-filters.tsx';
import { BankAccountsTable, BankAccountsTableSkeleton } from './bank-accounts-table.tsx';

// Module-level so the selector is stable and rows are only re-derived when data changes.
function selectRows(data: BankAccountListResponse) {
  return { ...data, results: data.results.map(toBankAccountRow) };
}

/** `/bank-accounts`: the URL search is the page's whole state, as on /transactions. */
export function BankAccountsPage({
  search,
  onSearchChange,
  canReveal = false,
}: {
  search: BankAccountSearch;
  onSearchChange: (next: BankAccountSearch) => void;
  /** The member's role may reveal full numbers (the server decides; this only offers it). */
  canReveal?: boolean;
}) {
  const query = useQuery({
    ...bankAccountQueries.list(toBankAccountListParams(search)),
    select: selectRows,
  });

  const clearFilters = () => onSearchChange({});
  const loadingNext = query.isPlaceholderData && query.isFetching;
  const data = query.data;
  const nextCursor = data?.nextCursor ?? undefined;
  const hasNext = Boolean(nextCursor) && data?.hasNext !== false;

  let content;
  if (query.isPending) {
    content = <BankAccountsTableSkeleton />;
  } else if (query.isError) {
    content = (
      <ErrorState
        title="Bank accounts could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      >
        {search.cursor ? (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => onSearchChange(withBankAccountFilters(search, {}))}
          >
            Go to first page
          </Button>
        ) : null}
      </ErrorState>
    );
  } else if (query.data.results.length === 0) {
    content = hasActiveBankAccountFilters(search) ? (
      <EmptyState title="No bank accounts match these filters">
        <Button size="sm" variant="primary" onClick={clearFilters}>
          Clear filters
        </Button>
      </EmptyState>
    ) : (
      <EmptyState title={search.cursor ? 'No more bank accounts' : 'No bank accounts yet'} />
    );
  } else {
    content = (
      <BankAccountsTable accounts={query.data.results} busy={loadingNext} canReveal={canReveal} />
    );
  }

  const count = data?.results.length ?? 0;
  const statusText = query.isPending
    ? 'Loading bank accounts…'
    : loadingNext
      ? 'Loading the next page of bank accounts…'
      : query.isError
        ? ''
        : `Showing ${count} bank account${count === 1 ? '' : 's'}, page ${pageNumber(search)}.`;

  return (
    <section aria-labelledby="bank-accounts-title" className="flex flex-col gap-4">
      <title>Bank accounts · Custody Console</title>
      <h1 id="bank-accounts-title" className="text-2xl font-semibold text-slate-900">
        Bank accounts
      </h1>
      <BankAccountFilters
        value={pickBankAccountFilters(search)}
        onChange={(patch) => onSearchChange(withBankAccountFilters(search, patch))}
        onClear={clearFilters}
      />
      <p role="status" className={query.isPending ? 'text-sm text-slate-700' : 'sr-only'}>
        {statusText}
      </p>
      <div aria-busy={query.isPending || loadingNext} data-testid="bank-accounts-results">
        {content}
      </div>
      {data && !query.isError ? (
        <CursorPagination
          label="Bank accounts pages"
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
