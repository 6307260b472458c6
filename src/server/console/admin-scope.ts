import { ERROR_CODES } from '#contract/common.ts';
import { ApiError } from '#contract/api-error.ts';

/**
 * What an admin restricted to some sub-organizations may do
 * (docs/security.md): administer only inside their scope, as delegated
 * administrators do in directory services (an organizational unit's admin manages that
 * unit's users, never the directory's).
 *
 * - They see, create and change only members whose sub-organizations are a
 *   subset of their own (themselves included). A member of every
 *   sub-organization, or of one outside theirs, is not theirs to see: 404.
 * - They never grant more than they hold: a new or changed member's
 *   sub-organizations must be a subset of theirs, never "all" (403).
 * - They never change their own role or sub-organizations (403): a scope
 *   one may lift oneself is no scope.
 * - The audit log is the organization's; they do not read it (403).
 *
 * An unrestricted admin (subOrgIds null) administers everyone.
 */

interface Scoped {
  subOrgIds: string[] | null;
}

export function outsideAdminScope(message: string, field?: string): ApiError {
  return new ApiError(
    403,
    ERROR_CODES.outsideAdminScope,
    message,
    field ? [{ field, message }] : undefined,
  );
}

/** Whether `subOrgIds` (null: all) lies within the admin's scope. */
function within(admin: Scoped, subOrgIds: string[] | null | undefined): boolean {
  if (!admin.subOrgIds) return true;
  if (!subOrgIds) return false;
  const own = new Set(admin.subOrgIds);
  return subOrgIds.every((id) => own.has(id));
}

/** The member is this admin's to see and administer. */
export function administers(admin: Scoped, member: Scoped): boolean {
  return within(admin, member.subOrgIds);
}

/** A new or changed member's sub-organizations: 403 beyond the admin's own. */
export function checkGrantedScope(admin: Scoped, subOrgIds: string[] | null | undefined): void {
  if (within(admin, subOrgIds)) return;
  throw outsideAdminScope(
    subOrgIds
      ? 'subOrgIds must name only sub-organizations you administer'
      : 'subOrgIds must name sub-organizations you administer: an admin of some sub-organizations cannot grant all of them',
    'subOrgIds',
  );
}

/** A restricted admin's own role and sub-organizations are not theirs to change. */
export function checkOwnChange(
  admin: Scoped,
  changes: { role?: unknown; subOrgIds?: unknown },
): void {
  if (!admin.subOrgIds) return;
  if (changes.role !== undefined)
    throw outsideAdminScope('You cannot change your own role: another admin must', 'role');
  if (changes.subOrgIds !== undefined)
    throw outsideAdminScope(
      'You cannot change your own sub-organizations: an admin of every sub-organization must',
      'subOrgIds',
    );
}

/** The organization's audit log is for admins of every sub-organization. */
export function checkReadsAuditLog(admin: Scoped): void {
  if (admin.subOrgIds)
    throw outsideAdminScope(
      'The audit log covers the whole organization; an admin of some sub-organizations cannot read it',
    );
}
