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
import { auditQueries } from '../api/audit-queries.ts';
import {
  hasActiveAuditFilters,
  pickAuditFilters,
  toAuditListParams,
  withAuditFilters,
  type AuditSearch,
} from '../search.ts';
import { AuditFilters } from './audit-filters.tsx';
import { AuditTable, AuditTableSkeleton } from './audit-table.tsx';

/** `/audit` (admins): the URL search is the page's whole state, as on /transactions. */
export function AuditPage({
  search,
  onSearchChange,
}: {
  search: AuditSearch;
  onSearchChange: (next: AuditSearch) => void;
}) {
  const query = useQuery(auditQueries.list(toAuditListParams(search)));
  const staff = useQuery(referenceQueries.staffMembers());
  const actorOptions = useMemo(
    () =>
      (staff.data?.results ?? [])
        .map((m) => ({ value: m.id, label: `${m.name} (${m.email})` }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [staff.data],
  );

  const clearFilters = () => onSearchChange({});
  const loadingNext = query.isPlaceholderData && query.isFetching;
  const data = query.data;
  const nextCursor = data?.nextCursor ?? undefined;
  const hasNext = Boolean(nextCursor) && data?.hasNext !== false;

  let content;
  if (query.isPending) {
    content = <AuditTableSkeleton />;
  } else if (query.isError) {
    content = (
      <ErrorState
        title="The audit log could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      >
        {search.cursor ? (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => onSearchChange(withAuditFilters(search, {}))}
          >
            Go to first page
          </Button>
        ) : null}
      </ErrorState>
    );
  } else if (query.data.results.length === 0) {
    content = hasActiveAuditFilters(search) ? (
      <EmptyState title="No audit entries match these filters">
        <Button size="sm" variant="primary" onClick={clearFilters}>
          Clear filters
        </Button>
      </EmptyState>
    ) : (
      <EmptyState title={search.cursor ? 'No more audit entries' : 'No audit entries yet'} />
    );
  } else {
    content = <AuditTable entries={query.data.results} busy={loadingNext} />;
  }

  const count = data?.results.length ?? 0;
  const statusText = query.isPending
    ? 'Loading the audit log…'
    : loadingNext
      ? 'Loading the next page of the audit log…'
      : query.isError
        ? ''
        : `Showing ${count} audit ${count === 1 ? 'entry' : 'entries'}, page ${pageNumber(search)}.`;

  return (
    <section aria-labelledby="audit-title" className="flex flex-col gap-4">
      <title>Audit log · Custody Console</title>
      <h1 id="audit-title" className="text-2xl font-semibold text-slate-900">
        Audit log
      </h1>
      <AuditFilters
        value={pickAuditFilters(search)}
        actorOptions={actorOptions}
        onChange={(patch) => onSearchChange(withAuditFilters(search, patch))}
        onClear={clearFilters}
      />
      <p role="status" className={query.isPending ? 'text-sm text-slate-700' : 'sr-only'}>
        {statusText}
      </p>
      <div aria-busy={query.isPending || loadingNext}>{content}</div>
      {data && !query.isError ? (
        <CursorPagination
          label="Audit log pages"
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
