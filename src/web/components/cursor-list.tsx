import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { ListEnvelope } from '#contract/common.ts';
import type { ListFilterKit } from '../lib/list-search.ts';
import { useHydrated } from '../lib/use-hydrated.ts';
import {
  compact,
  hasPreviousPage,
  knowsPreviousPage,
  nextPage,
  pageNumber,
  previousPage,
  type CursorPage,
} from '../lib/paging.ts';
import { DataTable, type DataTableSpec } from './data-table.tsx';
import type { Props as FilterProps } from './list-filters.tsx';
import { CursorPagination } from './pagination.tsx';
import { EmptyState, ErrorState } from './query-state.tsx';
import { TableSkeleton } from './table-skeleton.tsx';
import { Button } from './ui/button.tsx';

/** How a list page names itself and its rows in headings, status text and empty states. */
export interface ListNouns {
  /** The list in a sentence: "transactions", "the audit log". */
  list: string;
  /** The page's title: "Transactions", "Audit log". */
  title: string;
  /** One row and several: "transaction"/"transactions", "audit entry"/"audit entries". */
  one: string;
  many: string;
}

/**
 * What makes a list page the one it is, declared once in its page file: ids,
 * words, which URL search it reads, and the table its rows fill.
 */
export interface CursorListSpec<Row extends { id?: string | null }, Search, Filters> {
  /**
   * Prefix of the heading and results ids: `${id}-title`, `${id}-results`
   * (the element that closes a server-rendered first screen: entry-server.tsx).
   */
  id: string;
  nouns: ListNouns;
  search: ListFilterKit<Search, Filters>;
  table: DataTableSpec<Row>;
}

/** A list page's props: its URL search, and the way to change it (a navigation). */
export interface ListPageProps<Search> {
  search: Search;
  onSearchChange: (next: Search) => void;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * A cursor-paged list page whose URL search is its whole state: every change
 * goes through `onSearchChange`, which pushes a history entry, so Back
 * returns to the previous filters or page; the page's cursor and number live
 * in the URL, the way back in the tab's session (`lib/paging.ts`). It owns the heading, the loading, error, empty
 * and paging scaffolding and the table; the page supplies its query, its
 * filter form and how one row reads.
 */
export function CursorListPage<
  Row extends { id?: string | null },
  S extends CursorPage,
  F extends object,
>({
  spec: { id, nouns, search: searchKit, table },
  query,
  search,
  onSearchChange,
  intro,
  filters,
  actions,
  children,
}: ListPageProps<S> & {
  spec: CursorListSpec<Row, S, F>;
  query: UseQueryResult<ListEnvelope<Row>, Error>;
  /** Above the filters: what the whole list says (counts, say) or leads to (a create). */
  intro?: ReactNode;
  filters?: (props: FilterProps<F>) => ReactNode;
  /** Beside the heading: commands about the whole list (an export, say). */
  actions?: ReactNode;
  children: (row: Row) => ReactNode;
}) {
  const filtersActive = searchKit.hasFilters(search);
  const clearFilters = () => onSearchChange({} as S);
  const loadingNext = query.isPlaceholderData && query.isFetching;
  const data = query.data;
  const nextCursor = data?.nextCursor ?? undefined;
  const hasNext = Boolean(nextCursor) && data?.hasNext !== false;
  const page = pageNumber(search);
  // Session storage is the browser's: the server's render (and hydration) say "Previous page".
  const hydrated = useHydrated();
  const previousKnown = !hydrated || knowsPreviousPage(search);

  let content;
  if (query.isPending) {
    content = <TableSkeleton columns={table.columns.length} />;
  } else if (query.isError) {
    content = (
      <ErrorState
        title={`${capitalize(nouns.list)} could not be loaded`}
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      >
        {search.cursor ? (
          <Button
            size="sm"
            variant="ghost"
            onClick={() =>
              onSearchChange(compact({ ...search, cursor: undefined, page: undefined }))
            }
          >
            Go to first page
          </Button>
        ) : null}
      </ErrorState>
    );
  } else if (query.data.results.length === 0) {
    content = filtersActive ? (
      <EmptyState title={`No ${nouns.many} match these filters`}>
        <Button size="sm" variant="primary" onClick={clearFilters}>
          Clear filters
        </Button>
      </EmptyState>
    ) : (
      <EmptyState title={search.cursor ? `No more ${nouns.many}` : `No ${nouns.many} yet`} />
    );
  } else {
    content = (
      <DataTable spec={table} rows={query.data.results} busy={loadingNext}>
        {children}
      </DataTable>
    );
  }

  const count = data?.results.length ?? 0;
  const statusText = query.isPending
    ? `Loading ${nouns.list}…`
    : loadingNext
      ? `Loading the next page of ${nouns.list}…`
      : query.isError
        ? ''
        : `Showing ${count} ${count === 1 ? nouns.one : nouns.many}, page ${page}.`;

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-4">
      <title>{`${nouns.title} · Custody Console`}</title>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id={`${id}-title`} className="text-2xl font-semibold text-slate-900">
          {nouns.title}
        </h1>
        {actions}
      </div>
      {intro}
      {filters?.({
        value: searchKit.pickFilters(search),
        onChange: (patch) => onSearchChange(searchKit.withFilters(search, patch)),
        onClear: clearFilters,
      })}
      <p role="status" className={query.isPending ? 'text-sm text-slate-700' : 'sr-only'}>
        {statusText}
      </p>
      <div
        id={`${id}-results`}
        aria-busy={query.isPending || loadingNext}
        data-testid={`${id}-results`}
      >
        {content}
      </div>
      {data && !query.isError ? (
        <CursorPagination
          label={`${nouns.title} pages`}
          page={page}
          hasPrevious={hasPreviousPage(search)}
          previousLabel={previousKnown ? 'Previous page' : 'First page'}
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
