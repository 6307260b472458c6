import { useQuery } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import type { StaffMember } from '#contract/auth.ts';
import { Select } from '../../../components/ui/select.tsx';
import { referenceQueries } from '../../../lib/reference-queries.ts';

export interface ScopeOption {
  value: string;
  label: string;
}

/** The sub-organizations a member may choose: all of them, or only their own. */
export function scopeOptions(
  subOrgs: Array<{ id?: string | undefined; name?: string | undefined }>,
  allowed: StaffMember['subOrgIds'] | undefined,
): ScopeOption[] {
  const allowedSet = allowed ? new Set(allowed) : null;
  return subOrgs
    .filter((s): s is { id: string; name?: string } => Boolean(s.id))
    .filter((s) => !allowedSet || allowedSet.has(s.id))
    .map((s) => ({ value: s.id, label: s.name || s.id }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/**
 * "All sub-organizations" or one of them, held in the URL as `?subOrg=`.
 * A member limited to some sub-organizations sees only those.
 */
export function ScopeSwitcher({
  value,
  allowedSubOrgIds,
  onChange,
}: {
  value: string | undefined;
  allowedSubOrgIds: StaffMember['subOrgIds'] | undefined;
  onChange: (subOrg: string | undefined) => void;
}) {
  const id = useId();
  const subOrgs = useQuery(referenceQueries.subOrgs());
  const options = useMemo(() => {
    const list = scopeOptions(subOrgs.data?.results ?? [], allowedSubOrgIds);
    // A bookmarked scope stays visible (and selected) even before the list loads.
    if (value && !list.some((o) => o.value === value)) list.push({ value, label: value });
    return list;
  }, [subOrgs.data, allowedSubOrgIds, value]);

  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium text-slate-200">
        Scope
      </label>
      <Select
        id={id}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value || undefined)}
        placement="toolbar"
        className="w-56"
      >
        <option value="">
          {allowedSubOrgIds ? 'All my sub-organizations' : 'All sub-organizations'}
        </option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
    </div>
  );
}
