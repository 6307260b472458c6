import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { referenceQueries } from '../../lib/reference-queries.ts';
import { useCan } from '../../lib/permissions.ts';

/**
 * How a policy names the sub-organizations and members it lists: by name
 * where the console knows it. The staff list is an admin's read; another
 * member sees a member's id.
 */
export function usePolicyNames(): (id: string) => string {
  const admin = useCan('manage-staff');
  const subOrgs = useQuery(referenceQueries.subOrgs());
  const staff = useQuery({ ...referenceQueries.staffMembers(), enabled: admin });
  return useMemo(() => {
    const names = new Map<string, string>();
    for (const s of subOrgs.data?.results ?? []) if (s.id) names.set(s.id, s.name || s.id);
    for (const m of staff.data?.results ?? []) names.set(m.id, m.name);
    return (id: string) => names.get(id) ?? id;
  }, [subOrgs.data, staff.data]);
}
