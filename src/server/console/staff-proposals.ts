import { asc, eq, inArray } from 'drizzle-orm';
import { roleAllows, type StaffProposal, type StaffRole } from '#contract/auth.ts';
import {
  getStaff,
  normalizeSubOrgs,
  type StaffChanges,
  type StaffRecord,
} from '../auth/staff.store.ts';
import type { Database } from '../db/client.ts';
import { staff, staffProposals } from '../db/schema/console.ts';
import { administers } from './admin-scope.ts';

/**
 * Four eyes on staff management (docs/security.md): what grants approve or
 * admin rights or a wider scope, or resets another member's second factor,
 * is a proposal another admin decides. Here: which changes wait, and how a
 * proposal reads. Who may decide it, the decision and the change applied
 * once are the approval core's (capabilities/approvals/staff-change/).
 */

type Row = typeof staffProposals.$inferSelect;
export type ProposedChange = Row['change'];

const privileged = (role: StaffRole) => roleAllows(role, 'approve') || roleAllows(role, 'admin');

/** A creation waits for another admin when the new member may approve or administer. */
export function creationNeedsApproval(role: StaffRole): boolean {
  return privileged(role);
}

/** `wider` reaches a sub-organization `narrower` does not (null: all of them). */
function widens(next: string[] | null, before: string[] | null): boolean {
  if (!before) return false;
  if (!next) return true;
  const held = new Set(before);
  return next.some((id) => !held.has(id));
}

/**
 * A change waits for another admin when it grants approve or admin rights
 * the member lacked, widens their sub-organizations, or enables a member
 * whose role may approve or administer.
 */
export function changeNeedsApproval(target: StaffRecord, changes: StaffChanges): boolean {
  const role = changes.role ?? target.role;
  const raises =
    changes.role !== undefined &&
    ((roleAllows(role, 'approve') && !roleAllows(target.role, 'approve')) ||
      (roleAllows(role, 'admin') && !roleAllows(target.role, 'admin')));
  const wider =
    changes.subOrgIds !== undefined &&
    widens(normalizeSubOrgs(changes.subOrgIds), target.subOrgIds ?? null);
  const enables = changes.disabled === false && target.disabled && privileged(role);
  return raises || wider || enables;
}

export function scopeText(subOrgIds: string[] | null | undefined): string {
  return subOrgIds ? `sub-orgs ${subOrgIds.join(', ')}` : 'all sub-orgs';
}

export function describeChanges(changes: StaffChanges): string {
  const parts: string[] = [];
  if (changes.name !== undefined) parts.push('name changed');
  if (changes.role !== undefined) parts.push(`role → ${changes.role}`);
  if (changes.subOrgIds !== undefined)
    parts.push(`sub-orgs → ${changes.subOrgIds ? changes.subOrgIds.join(', ') : 'all'}`);
  if (changes.disabled !== undefined) parts.push(changes.disabled ? 'disabled' : 'enabled');
  return parts.join('; ') || 'no change';
}

export interface NewProposal {
  kind: Row['kind'];
  staffId: string | null;
  change: ProposedChange;
  setupHash?: string;
  summary: string;
}

/**
 * Files a proposal for another admin to decide. The approval core holds it (a
 * held approvable kind: capabilities/approvals/staff-change/), handed in by
 * the wiring: the console's own routes never import a capability.
 */
export type ProposeStaffChange = (
  input: NewProposal,
  proposer: StaffRecord,
) => Promise<StaffProposal>;

/** Proposals as the API answers them, members by name. */
export async function proposalsOnWire(
  db: Pick<Database, 'select'>,
  rows: Row[],
): Promise<StaffProposal[]> {
  const ids = [
    ...new Set(
      rows.flatMap((r) => [r.proposedBy, r.decidedBy, r.staffId].filter((x): x is string => !!x)),
    ),
  ];
  const found =
    ids.length === 0
      ? []
      : await db
          .select({ id: staff.id, name: staff.name, email: staff.email })
          .from(staff)
          .where(inArray(staff.id, ids));
  const byId = new Map(found.map((m) => [m.id, m]));
  const ref = (id: string) => ({ id, name: byId.get(id)?.name ?? id });
  return rows.map((r) => {
    const target = r.staffId ? byId.get(r.staffId) : undefined;
    return {
      id: r.id,
      kind: r.kind,
      staffId: r.staffId,
      subject: {
        name: target?.name ?? r.change.name ?? '',
        email: target?.email ?? r.change.email ?? '',
      },
      change: {
        ...(r.change.role !== undefined ? { role: r.change.role } : {}),
        ...(r.change.subOrgIds !== undefined ? { subOrgIds: r.change.subOrgIds } : {}),
        ...(r.change.name !== undefined ? { name: r.change.name } : {}),
        ...(r.change.disabled !== undefined ? { disabled: r.change.disabled } : {}),
      },
      summary: r.summary,
      proposedBy: ref(r.proposedBy),
      proposedAt: r.proposedAt.toISOString(),
      status: r.status,
      decidedBy: r.decidedBy ? ref(r.decidedBy) : null,
      decidedAt: r.decidedAt?.toISOString() ?? null,
    };
  });
}

/** The scope a proposal's subject holds after it: a creation's, an update's new one, or the member's. */
export function subjectScope(row: Row, target: StaffRecord | undefined): string[] | null {
  if (row.change.subOrgIds !== undefined) return row.change.subOrgIds;
  return target?.subOrgIds ?? null;
}

/** The pending proposals this admin administers (their subject inside the admin's scope), oldest first. */
export async function pendingProposals(db: Database, admin: StaffRecord): Promise<StaffProposal[]> {
  const rows = await db
    .select()
    .from(staffProposals)
    .where(eq(staffProposals.status, 'PENDING'))
    .orderBy(asc(staffProposals.proposedAt), asc(staffProposals.id));
  const targets = new Map<string, StaffRecord>();
  for (const row of rows) {
    if (!row.staffId || targets.has(row.staffId)) continue;
    const target = await getStaff(db, row.staffId);
    if (target) targets.set(row.staffId, target);
  }
  const mine = rows.filter((row) => {
    const target = row.staffId ? targets.get(row.staffId) : undefined;
    return (
      administers(admin, { subOrgIds: subjectScope(row, target) }) &&
      (!target || administers(admin, target))
    );
  });
  return proposalsOnWire(db, mine);
}
