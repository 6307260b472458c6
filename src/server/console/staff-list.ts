import { ApiError } from '#contract/api-error.ts';
import type { StaffFilters, StaffRole } from '#contract/auth.ts';
import { ERROR_CODES, type Page, type PageRequest } from '#contract/common.ts';

interface Listed {
  id: string;
  name: string;
  email: string;
  role: StaffRole;
  subOrgIds: string[] | null;
}

const PREFIX = 'staff:';

/** A cursor names the last member of the page it ends; opaque to the caller. */
function cursorAfter(id: string): string {
  return Buffer.from(`${PREFIX}${id}`).toString('base64url');
}

function idOf(cursor: string): string | undefined {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  return text.startsWith(PREFIX) ? text.slice(PREFIX.length) : undefined;
}

function matches(member: Listed, filters: StaffFilters): boolean {
  if (filters.role && member.role !== filters.role) return false;
  if (filters.subOrgId && member.subOrgIds && !member.subOrgIds.includes(filters.subOrgId))
    return false;
  if (filters.q) {
    const q = filters.q.toLowerCase();
    if (!member.name.toLowerCase().includes(q) && !member.email.toLowerCase().includes(q))
      return false;
  }
  return true;
}

/**
 * One page of the members an admin administers (`rows`, in the order they
 * joined), filtered. A team of hundreds is not one table: the page is
 * searched and paged instead. The cursor is the last member shown, so a
 * member added meanwhile joins the end rather than shifting the pages.
 */
export function pageOfStaff<T extends Listed>(
  rows: readonly T[],
  filters: StaffFilters,
  page: PageRequest,
): Page<T> {
  let start = 0;
  if (page.cursor !== undefined) {
    const id = idOf(page.cursor);
    const at = id === undefined ? -1 : rows.findIndex((member) => member.id === id);
    if (at < 0)
      throw new ApiError(400, ERROR_CODES.invalidCursor, 'cursor is not one this list issued', [
        { field: 'cursor', message: 'is not one this list issued' },
      ]);
    start = at + 1;
  }
  const results: T[] = [];
  for (let i = start; i < rows.length; i += 1) {
    const member = rows[i];
    if (!member || !matches(member, filters)) continue;
    if (results.length === page.limit) {
      const last = results[results.length - 1];
      return { results, hasNext: true, nextCursor: last ? cursorAfter(last.id) : null };
    }
    results.push(member);
  }
  return { results, hasNext: false, nextCursor: null };
}
