import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { StaffMember } from '#contract/auth.ts';
import { DataTable, type DataTableSpec } from '../../../components/data-table.tsx';
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
  const staff = useQuery(staffQueries.list());
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
    content = <EmptyState title="No staff members yet" />;
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
      <div aria-busy={staff.isPending}>{content}</div>
      <StaffProposals currentMember={session?.member} />
      <CreateStaffForm
        key={ownScope ? 'restricted' : 'all'}
        subOrgOptions={subOrgChoices}
        restricted={ownScope !== null}
      />
    </PageSection>
  );
}
