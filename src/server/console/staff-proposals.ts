import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { roleAllows, type StaffProposal, type StaffRole } from '#contract/auth.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { resetFactor } from '../auth/credentials.ts';
import { SETUP_LIFETIME_MS, unknownPasswordHash } from '../auth/staff-setup.ts';
import { revokeStaffSessions } from '../auth/session.store.ts';
import {
  changesAccess,
  createStaff,
  getStaff,
  normalizeSubOrgs,
  updateStaff,
  type StaffChanges,
  type StaffRecord,
} from '../auth/staff.store.ts';
import type { Database } from '../db/client.ts';
import { staff, staffProposals } from '../db/schema/console.ts';
import { administers, checkGrantedScope } from './admin-scope.ts';

/**
 * Four eyes on staff management (README, Security). One admin proposes what
 * grants approve or admin rights or a wider scope, or resets another
 * member's second factor; another admin approves, and the change is applied
 * in the transaction that records the approval, under a lock on the
 * proposal's row, so it is applied once whichever servers the decisions
 * reach. The decider is never the proposer, never the member changed, and
 * never an account linked to the proposer's by member management (one
 * created the other's: linked-accounts.ts), which may be one person under
 * two names.
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

export async function propose(
  db: Database,
  input: NewProposal,
  proposer: StaffRecord,
  now: Date,
): Promise<StaffProposal> {
  const [row] = await db
    .insert(staffProposals)
    .values({
      id: randomUUID(),
      kind: input.kind,
      staffId: input.staffId,
      change: input.change,
      setupHash: input.setupHash ?? null,
      summary: input.summary,
      proposedBy: proposer.id,
      proposedAt: now,
      status: 'PENDING',
    })
    .returning();
  return (await toWire(db, [row!]))[0]!;
}

async function toWire(db: Pick<Database, 'select'>, rows: Row[]): Promise<StaffProposal[]> {
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
function subjectScope(row: Row, target: StaffRecord | undefined): string[] | null {
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
  return toWire(db, mine);
}

const notFound = () => new ApiError(404, ERROR_CODES.notFound, 'No staff proposal with that id');

/** Who may not decide: the proposer, the member changed, an account linked to the proposer's. */
function checkDecider(decider: StaffRecord, row: Row, proposer: StaffRecord | undefined): void {
  if (decider.id === row.proposedBy)
    throw new ApiError(
      403,
      ERROR_CODES.fourEyes,
      'You proposed this change: another admin must approve or decline it',
    );
  if (row.staffId && decider.id === row.staffId)
    throw new ApiError(
      403,
      ERROR_CODES.fourEyes,
      'This change is to your own account: another admin must approve or decline it',
    );
  if (proposer && (proposer.createdBy === decider.id || decider.createdBy === proposer.id)) {
    const how =
      proposer.createdBy === decider.id
        ? `you created ${proposer.name}'s console account`
        : `${proposer.name} created your console account`;
    throw new ApiError(
      403,
      ERROR_CODES.linkedAccounts,
      `Your account and the proposer's are linked (${how}), so your decision would not be a second person's: an admin not linked to ${proposer.name} must decide`,
    );
  }
}

export interface Decision {
  proposal: StaffProposal;
  /** The member as changed or created, when approved. */
  member: StaffRecord | null;
  /** Sessions the change ended (a role, scope or factor change). */
  sessionsEnded: boolean;
  /** Their ids, so this server's open event streams of them end once the change commits. */
  endedSessionIds: string[];
}

/**
 * Approves (applies) or declines a pending proposal, in one transaction
 * holding its row: a second decision, on any server, finds it decided (409).
 */
export async function decideProposal(
  db: Database,
  proposalId: string,
  decider: StaffRecord,
  action: 'approve' | 'decline',
  now: Date,
): Promise<Decision> {
  // A created member's password until they set theirs, hashed before the row
  // is held (scrypt at full cost takes a while), and only when the decision
  // may create one: every other decision, refusals included, skips that cost.
  // A proposal's kind never changes, so reading it unheld is safe.
  const [pending] = await db
    .select({ kind: staffProposals.kind })
    .from(staffProposals)
    .where(eq(staffProposals.id, proposalId));
  const unknownPassword =
    action === 'approve' && pending?.kind === 'create' ? await unknownPasswordHash() : undefined;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(staffProposals)
      .where(eq(staffProposals.id, proposalId))
      .for('update');
    if (!row) throw notFound();
    const target = row.staffId ? await getStaff(tx, row.staffId) : undefined;
    // A proposal about a member outside a restricted admin's scope is not theirs to see.
    if (
      !administers(decider, { subOrgIds: subjectScope(row, target) }) ||
      (target && !administers(decider, target))
    )
      throw notFound();
    if (row.status !== 'PENDING')
      throw new ApiError(
        409,
        ERROR_CODES.alreadyDecided,
        `This staff change was already ${row.status === 'APPROVED' ? 'approved' : 'declined'}`,
      );
    checkDecider(decider, row, await getStaff(tx, row.proposedBy));
    if (row.change.subOrgIds !== undefined) checkGrantedScope(decider, row.change.subOrgIds);

    let member: StaffRecord | null = null;
    let sessionsEnded = false;
    let endedSessionIds: string[] = [];
    if (action === 'approve') {
      if (row.kind === 'create') {
        const { email, name, role } = row.change;
        if (!email || !name || !role) throw new Error('decideProposal: creation without a member');
        if (!unknownPassword) throw new Error('decideProposal: a creation without its password');
        member = await createStaff(
          tx,
          { email, name, role, subOrgIds: row.change.subOrgIds ?? null, password: '' },
          {
            now,
            passwordHash: unknownPassword,
            createdBy: row.proposedBy,
            ...(row.setupHash
              ? {
                  setup: {
                    hash: row.setupHash,
                    expiresAt: new Date(now.getTime() + SETUP_LIFETIME_MS),
                  },
                }
              : {}),
          },
        );
      } else if (!target) {
        throw notFound();
      } else if (row.kind === 'update') {
        member = (await updateStaff(tx, target.id, row.change)) ?? null;
        if (changesAccess(target, row.change) || row.change.disabled) {
          // What the member may do changed: every session ends, and signs in again under the new role.
          endedSessionIds = await revokeStaffSessions(tx, target.id, now);
          sessionsEnded = true;
        }
      } else {
        ({ endedSessionIds } = await resetFactor(tx, target.id, now));
        member = target;
        sessionsEnded = true;
      }
    }
    const [decided] = await tx
      .update(staffProposals)
      .set({
        status: action === 'approve' ? 'APPROVED' : 'DECLINED',
        decidedBy: decider.id,
        decidedAt: now,
        ...(action === 'approve' && row.kind === 'create' && member ? { staffId: member.id } : {}),
      })
      .where(and(eq(staffProposals.id, row.id), eq(staffProposals.status, 'PENDING')))
      .returning();
    if (!decided) throw new Error('decideProposal: the held proposal changed');
    return {
      proposal: (await toWire(tx, [decided]))[0]!,
      member,
      sessionsEnded,
      endedSessionIds,
    };
  });
}
