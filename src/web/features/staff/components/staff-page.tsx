import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { STAFF_ROLES, type StaffFilters, type StaffMember } from '#contract/auth.ts';
import { DataTable, type DataTableSpec } from '../../../components/data-table.tsx';
import * as ListFilter from '../../../components/list-filters.tsx';
import { CursorPagination } from '../../../components/pagination.tsx';
import { PageSection } from '../../../components/page-section.tsx';
import { EmptyState, ErrorState } from '../../../components/query-state.tsx';
import { TableSkeleton } from '../../../components/table-skeleton.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { TableCell, TableRow } from '../../../components/ui/table.tsx';
import { humanize } from '../../../lib/labels.ts';
import { referenceQueries, subOrgOptions } from '../../../lib/reference-queries.ts';
import { useSession } from '../../../lib/session-queries.ts';
import { staffQueries } from '../api/staff-queries.ts';
import { CreateStaffForm } from './create-staff-form.tsx';
import { StaffProposals } from './staff-proposals.tsx';
import { StaffRowActions } from './staff-row-actions.tsx';

const STAFF_TABLE: DataTableSpec = {
  label: 'Staff members',
  caption: 'Staff members who may sign in to this console',
  columns: ['Name', 'Email', 'Role', 'Sub-organizations', 'Status', 'Actions'],
};

function subOrgText(member: StaffMember, names: Map<string, string>): string {
  if (!member.subOrgIds) return 'All';
  return member.subOrgIds.map((id) => names.get(id) ?? id).join(', ') || 'None';
}

/**
 * `/staff` (admins): the team, the staff changes awaiting another admin,
 * and adding to the team. An admin held to some
 * sub-organizations sees and adds only members inside them (the server's
 * rule, docs/security.md; their list already holds only those).
 */
export function StaffPage({ currentMemberId }: { currentMemberId: string | undefined }) {
  const [filters, setFilters] = useState<StaffFilters>({});
  // The cursor of each page after the first that was opened, so Previous goes back one.
  const [cursors, setCursors] = useState<string[]>([]);
  const staff = useQuery(staffQueries.page(filters, cursors.at(-1)));
  const drafts = ListFilter.useTextDrafts(filters, ['q'] as const);
  const change = (patch: Partial<StaffFilters>) => {
    setFilters((now) => ({ ...now, ...patch }));
    setCursors([]);
  };
  const session = useSession();
  const ownScope = session?.member.subOrgIds ?? null;
  const subOrgs = useQuery(referenceQueries.subOrgs());
  const subOrgChoices = useMemo(() => subOrgOptions(subOrgs.data), [subOrgs.data]);
  const names = useMemo(
    () => new Map(subOrgChoices.map((o) => [o.value, o.label])),
    [subOrgChoices],
  );

  let content;
  if (staff.isPending) {
    content = <TableSkeleton columns={STAFF_TABLE.columns.length} rows={4} />;
  } else if (staff.isError) {
    content = (
      <ErrorState
        title="Staff could not be loaded"
        error={staff.error}
        onRetry={() => void staff.refetch()}
        retrying={staff.isFetching}
      />
    );
  } else if (staff.data.results.length === 0) {
    content = (
      <EmptyState
        title={
          Object.values(filters).some(Boolean)
            ? 'No staff members match these filters'
            : 'No staff members yet'
        }
      />
    );
  } else {
    content = (
      <DataTable spec={STAFF_TABLE} rows={staff.data.results}>
        {(member) => (
          <TableRow data-staff-id={member.id}>
            <TableCell className="font-medium">{member.name}</TableCell>
            <TableCell className="font-mono text-xs">{member.email}</TableCell>
            <TableCell>{humanize(member.role)}</TableCell>
            <TableCell>{subOrgText(member, names)}</TableCell>
            <TableCell>
              <Badge tone={member.disabled ? 'danger' : 'success'}>
                {member.disabled ? 'Disabled' : 'Active'}
              </Badge>
            </TableCell>
            <TableCell>
              <StaffRowActions member={member} isSelf={member.id === currentMemberId} />
            </TableCell>
          </TableRow>
        )}
      </DataTable>
    );
  }

  return (
    <PageSection name="staff" heading="Staff" className="gap-6">
      {ownScope ? (
        <p className="text-sm text-slate-700">
          You administer members of {ownScope.map((id) => names.get(id) ?? id).join(', ')} only.
        </p>
      ) : null}
      <ListFilter.Form
        label="Find staff"
        onApply={() => drafts.apply(change)}
        className="flex flex-wrap items-end"
      >
        <ListFilter.Text
          name="q"
          label="Name or email"
          value={drafts.draft('q')}
          onChange={(text) => drafts.setDraft('q', text)}
        />
        <ListFilter.Selects<StaffFilters>
          selects={[
            {
              name: 'role',
              label: 'Role',
              allLabel: 'All roles',
              options: ListFilter.enumOptions(STAFF_ROLES, humanize),
            },
            {
              name: 'subOrgId',
              label: 'Sub-organization',
              allLabel: 'All sub-organizations',
              options: subOrgChoices,
            },
          ]}
          value={filters}
          onChange={change}
        />
        <ListFilter.Actions
          value={filters}
          onClear={() => {
            setFilters({});
            setCursors([]);
          }}
        />
      </ListFilter.Form>
      <div aria-busy={staff.isPending || staff.isPlaceholderData}>{content}</div>
      {staff.data ? (
        <CursorPagination
          label="Staff pages"
          page={cursors.length + 1}
          hasPrevious={cursors.length > 0}
          hasNext={Boolean(staff.data.hasNext && staff.data.nextCursor)}
          busy={staff.isPlaceholderData}
          onPrevious={() => setCursors((c) => c.slice(0, -1))}
          onNext={() => {
            const next = staff.data?.nextCursor;
            if (next) setCursors((c) => [...c, next]);
          }}
        />
      ) : null}
      <StaffProposals currentMember={session?.member} />
      <CreateStaffForm
        key={ownScope ? 'restricted' : 'all'}
        subOrgOptions={subOrgChoices}
        restricted={ownScope !== null}
      />
    </PageSection>
  );
}
