import { STAFF_ROLES, type StaffRole } from '#contract/auth.ts';
import type { SsoGroupRole } from '#contract/sso.ts';

/**
 * The group mappings as the settings page writes them, one a line:
 * `group = role` (every sub-organization) or `group = role: subOrgA, subOrgB`.
 */

export function groupsToLines(groups: readonly SsoGroupRole[]): string {
  return groups
    .map((g) => `${g.groupName} = ${g.role}${g.subOrgIds ? `: ${g.subOrgIds.join(', ')}` : ''}`)
    .join('\n');
}

export type ParsedGroups = { ok: true; groups: SsoGroupRole[] } | { ok: false; message: string };

export function linesToGroups(text: string): ParsedGroups {
  const groups: SsoGroupRole[] = [];
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (!line) continue;
    const match = /^(.+?)\s*=\s*([a-z]+)\s*(?::\s*(.*))?$/.exec(line);
    const role = match?.[2] as StaffRole | undefined;
    if (!match || !role || !STAFF_ROLES.includes(role))
      return {
        ok: false,
        message: `line ${index + 1} must read "group = role" or "group = role: subOrgA, subOrgB", the role one of ${STAFF_ROLES.join(', ')}`,
      };
    const subOrgs = match[3]
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    groups.push({
      groupName: (match[1] ?? '').trim(),
      role,
      subOrgIds: subOrgs && subOrgs.length > 0 ? subOrgs : null,
    });
  }
  return { ok: true, groups };
}
