import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { CursorListPage } from '../../../components/cursor-list.tsx';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { auditQueries } from '../api/audit-queries.ts';
import { auditSearch, type AuditSearch } from '../search.ts';
import { AuditFilters } from './audit-filters.tsx';
import { AuditTable, AuditTableSkeleton } from './audit-table.tsx';

const NOUNS = {
  list: 'the audit log',
  title: 'Audit log',
  one: 'audit entry',
  many: 'audit entries',
};

/** `/audit` (admins): the URL search is the page's whole state (see CursorListPage). */
export function AuditPage({
  search,
  onSearchChange,
}: {
  search: AuditSearch;
  onSearchChange: (next: AuditSearch) => void;
}) {
  const query = useQuery(auditQueries.list(auditSearch.toListParams(search)));
  const staff = useQuery(referenceQueries.staffMembers());
  const actorOptions = useMemo(
    () =>
      (staff.data?.results ?? [])
        .map((m) => ({ value: m.id, label: `${m.name} (${m.email})` }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [staff.data],
  );

  return (
    <CursorListPage
      id="audit"
      nouns={NOUNS}
      query={query}
      search={search}
      onSearchChange={onSearchChange}
      filtersActive={auditSearch.hasFilters(search)}
      skeleton={<AuditTableSkeleton />}
      filters={
        <AuditFilters
          value={auditSearch.pickFilters(search)}
          actorOptions={actorOptions}
          onChange={(patch) => onSearchChange(auditSearch.withFilters(search, patch))}
          onClear={() => onSearchChange({})}
        />
      }
    >
      {(rows, busy) => <AuditTable entries={rows} busy={busy} />}
    </CursorListPage>
  );
}
