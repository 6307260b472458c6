import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import {
  CursorListPage,
  type CursorListSpec,
  type ListPageProps,
} from '../../../components/cursor-list.tsx';
import type { AuditEntry } from '#contract/auth.ts';
import { useTimeZone } from '../../../lib/display.tsx';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { auditQueries } from '../api/audit-queries.ts';
import { auditSearch, type AuditSearch, type AuditSearchFilters } from '../search.ts';
import { AuditFilters } from './audit-filters.tsx';
import { AUDIT_TABLE, AuditRow } from './audit-table.tsx';

const AUDIT_LIST: CursorListSpec<AuditEntry, AuditSearch, AuditSearchFilters> = {
  id: 'audit',
  nouns: { list: 'the audit log', title: 'Audit log', one: 'audit entry', many: 'audit entries' },
  search: auditSearch,
  table: AUDIT_TABLE,
};

/** `/audit` (admins): the URL search is the page's whole state (see CursorListPage). */
export function AuditPage(props: ListPageProps<AuditSearch>) {
  const query = useQuery(auditQueries.list(auditSearch.toListParams(props.search, useTimeZone())));
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
      spec={AUDIT_LIST}
      query={query}
      {...props}
      filters={(filters) => <AuditFilters {...filters} actorOptions={actorOptions} />}
    >
      {(entry) => <AuditRow entry={entry} />}
    </CursorListPage>
  );
}
