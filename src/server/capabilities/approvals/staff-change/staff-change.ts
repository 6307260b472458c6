import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { ApprovalCard, CardChange, CardChangeLine } from '#contract/approval-card.ts';
import { ApiError } from '#contract/api-error.ts';
import { roleAllows, type StaffProposal } from '#contract/auth.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { FrozenRequirement } from '#contract/policies.ts';
import { resetFactor } from '../../../auth/credentials.ts';
import { endSessionStreams } from '../../../auth/session-auth.ts';
import { revokeStaffSessions } from '../../../auth/session.store.ts';
import { SETUP_LIFETIME_MS, unknownPasswordHash } from '../../../auth/staff-setup.ts';
import {
  changesAccess,
  createStaff,
  getStaff,
  updateStaff,
  type StaffRecord,
} from '../../../auth/staff.store.ts';
import type { Clock } from '../../../clock.ts';
import { administers } from '../../../console/admin-scope.ts';
import {
  proposalsOnWire,
  scopeText,
  subjectScope,
  type NewProposal,
} from '../../../console/staff-proposals.ts';
import type { Database } from '../../../db/client.ts';
import { staffProposals } from '../../../db/schema/console.ts';
import { frozenOf, MOVES_NO_MONEY, namedDestination, ruleOf } from '../card/parts.ts';
import { oneAdminRule, proposeHeld } from '../core/propose.ts';
import type { ApprovableKind, CardContext } from '../core/kind.ts';

/**
 * A staff change as an approvable kind the console holds (ARCHITECTURE.md,
 * "Approvable kinds"): adding an approver or admin, raising a role, widening
 * a scope, re-enabling, resetting a second factor (docs/security.md, "Staff
 * changes take two admins"). The proposal's row is the item; its rule, frozen
 * as it is proposed, is one approval by an admin who administers every
 * sub-organization it touches, never the proposer, the member it changes, or
 * an account linked to the proposer's: the core's evaluation applies it, as it
 * does every rule. Its effect runs once, in the transaction that marks it
 * decided, whichever admins or servers decide at the same moment.
 */

export const STAFF_CHANGE = 'STAFF_CHANGE';

type Row = typeof staffProposals.$inferSelect;

const notFound = () => new ApiError(404, ERROR_CODES.notFound, 'No staff proposal with that id');

/** The sub-organizations a change touches: the member's now and after it (null: all). */
function touched(row: Row, target: StaffRecord | undefined): string[] | null {
  const after = subjectScope(row, target);
  if (!target) return after;
  if (!target.subOrgIds || !after) return null;
  return [...new Set([...target.subOrgIds, ...after])];
}

/** One admin, who administers what it touches; never the proposer, the member, a linked account. */
function requirementOf(
  row: Row,
  proposer: StaffRecord,
  target: StaffRecord | undefined,
): FrozenRequirement {
  return oneAdminRule('Staff changes', {
    excluded: row.staffId ? [row.staffId] : [],
    unlinkedFrom: [{ id: proposer.id, name: proposer.name, createdBy: proposer.createdBy }],
    subOrgIds: touched(row, target),
  });
}

async function holdProposal(
  db: Database,
  clock: Clock,
  row: Row,
  proposer: StaffRecord,
  target: StaffRecord | undefined,
): Promise<void> {
  const subOrgIds = touched(row, target);
  await proposeHeld(db, clock, {
    kind: staffChangeKind,
    entityId: row.id,
    subOrgId: subOrgIds?.length === 1 ? (subOrgIds[0] ?? null) : null,
    requirement: requirementOf(row, proposer, target),
    initiator: { kind: 'staff', id: proposer.id, role: proposer.role },
  });
}

/**
 * A proposal still pending that an earlier version filed before staff
 * changes were decided by the core has no frozen rule: it is held now, under
 * the rule every staff change has, so it can still be decided (and only
 * once). Holding twice changes nothing: the first rule frozen stands.
 */
export async function holdEarlierProposal(
  db: Database,
  clock: Clock,
  proposalId: string,
): Promise<void> {
  const [row] = await db.select().from(staffProposals).where(eq(staffProposals.id, proposalId));
  if (!row || row.status !== 'PENDING') return;
  const proposer = await getStaff(db, row.proposedBy);
  if (!proposer) return;
  const target = row.staffId ? await getStaff(db, row.staffId) : undefined;
  await holdProposal(db, clock, row, proposer, target);
}

/** Files a proposal and has the core hold it: its rule frozen, the browsers told. One transaction. */
export async function proposeStaffChange(
  db: Database,
  clock: Clock,
  input: NewProposal,
  proposer: StaffRecord,
): Promise<StaffProposal> {
  const now = clock.now();
  const row = await db.transaction(async (tx) => {
    const target = input.staffId ? await getStaff(tx, input.staffId) : undefined;
    const [inserted] = await tx
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
    if (!inserted) throw new Error('proposeStaffChange: nothing inserted');
    await holdProposal(tx, clock, inserted, proposer, target);
    return inserted;
  });
  const [wire] = await proposalsOnWire(db, [row]);
  if (!wire) throw new Error('proposeStaffChange: the proposal vanished');
  return wire;
}

/**
 * The proposal and the member it changes, when the member asking may see it: an
 * admin who administers what it touches (a staff change is admins' business alone).
 */
async function visible(
  card: CardContext,
  entityId: string,
): Promise<{ row: Row; target: StaffRecord | undefined } | null> {
  if (!card.memberId) return null;
  const [row] = await card.db.select().from(staffProposals).where(eq(staffProposals.id, entityId));
  if (!row) return null;
  const asking = await getStaff(card.db, card.memberId);
  if (!asking || !roleAllows(asking.role, 'admin')) return null;
  const target = row.staffId ? await getStaff(card.db, row.staffId) : undefined;
  // Once a creation is applied the new member is its subject; before, its proposed scope.
  const scope = row.kind === 'create' && row.status !== 'PENDING' ? undefined : target;
  if (!administers(asking, { subOrgIds: touched(row, scope) })) return null;
  return { row, target: scope };
}

function oneSubOrg(row: Row, target: StaffRecord | undefined): string | null {
  const scope = touched(row, target);
  return scope?.length === 1 ? (scope[0] ?? null) : null;
}

/** The change in words: the member, their role and scope before → after, or the factor reset. */
function changeOf(row: Row, target: StaffRecord | undefined): CardChange {
  const lines: CardChangeLine[] = [];
  const { change } = row;
  if (row.kind === 'create') {
    lines.push(
      { label: 'Member', before: null, after: `${change.name ?? ''} (${change.email ?? ''})` },
      { label: 'Role', before: null, after: change.role ?? null },
      { label: 'Sub-organizations', before: null, after: scopeText(change.subOrgIds ?? null) },
    );
  } else if (row.kind === 'reset_factor') {
    lines.push({
      label: 'Second factor',
      before: 'as set up (authenticator code, passkeys)',
      after: 'removed: a new one is set up at their next sign-in',
    });
  } else {
    if (change.name !== undefined)
      lines.push({ label: 'Name', before: target?.name ?? null, after: change.name });
    if (change.role !== undefined)
      lines.push({ label: 'Role', before: target?.role ?? null, after: change.role });
    if (change.subOrgIds !== undefined)
      lines.push({
        label: 'Sub-organizations',
        before: target ? scopeText(target.subOrgIds) : null,
        after: scopeText(change.subOrgIds),
      });
    if (change.disabled !== undefined)
      lines.push({
        label: 'Access',
        before: target ? (target.disabled ? 'disabled' : 'enabled') : null,
        after: change.disabled ? 'disabled' : 'enabled',
      });
  }
  return { summary: row.summary, lines };
}

async function cardOf(card: CardContext, row: Row, target: StaffRecord | undefined) {
  const subOrgId = oneSubOrg(row, target);
  const frozen = await frozenOf(card, row.id, subOrgId, true);
  const built: ApprovalCard = {
    intent: {
      kind: STAFF_CHANGE,
      category: `STAFF_${row.kind.toUpperCase()}`,
      source: null,
      // The member changed, by id when there is one: a vote on one member never counts for another.
      destination: namedDestination(
        'STAFF',
        row.staffId,
        target?.name ?? row.change.name ?? null,
        false,
      ),
      ...MOVES_NO_MONEY,
      rule: await ruleOf(card, frozen.requirement),
      change: changeOf(row, target),
    },
    status: {
      entityId: row.id,
      state: row.status,
      createdAt: row.proposedAt.toISOString(),
      computedAt: card.clock.now().toISOString(),
      amountUsd: null,
      priceUsd: null,
      feeCeilingUsd: null,
      balances: [],
      quorum: frozen.quorum,
    },
  };
  return built;
}

/** The change applied, as approved: a member created or updated, or their factor reset. */
async function apply(
  db: Database,
  row: Row,
  now: Date,
): Promise<{ member: StaffRecord | null; endedSessionIds: string[] }> {
  if (row.kind === 'create') {
    const { email, name, role } = row.change;
    if (!email || !name || !role) throw new Error('staff change: a creation without a member');
    const member = await createStaff(
      db,
      { email, name, role, subOrgIds: row.change.subOrgIds ?? null, password: '' },
      {
        now,
        // A password nobody knows until the member sets theirs with the set-up code.
        passwordHash: await unknownPasswordHash(),
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
    return { member, endedSessionIds: [] };
  }
  const target = row.staffId ? await getStaff(db, row.staffId) : undefined;
  if (!target) throw notFound();
  if (row.kind === 'update') {
    const member = (await updateStaff(db, target.id, row.change)) ?? null;
    // What the member may do changed: every session ends, and signs in again under the new role.
    const ends = changesAccess(target, row.change) || row.change.disabled === true;
    return { member, endedSessionIds: ends ? await revokeStaffSessions(db, target.id, now) : [] };
  }
  const { endedSessionIds } = await resetFactor(db, target.id, now);
  return { member: target, endedSessionIds };
}

export const staffChangeKind: ApprovableKind = {
  kind: STAFF_CHANGE,
  async loadCard(card, entityId) {
    const seen = await visible(card, entityId);
    return seen ? cardOf(card, seen.row, seen.target) : null;
  },
  async stateOf(card, entityId) {
    const seen = await visible(card, entityId);
    if (!seen) throw notFound();
    return { pending: seen.row.status === 'PENDING', subOrgId: oneSubOrg(seen.row, seen.target) };
  },
  async settle(card, entityId, outcome) {
    const [row] = await card.db
      .select()
      .from(staffProposals)
      .where(eq(staffProposals.id, entityId))
      .for('update');
    if (!row) throw notFound();
    if (row.status !== 'PENDING')
      throw new ApiError(409, ERROR_CODES.alreadyDecided, 'This staff change was already decided');
    const now = card.clock.now();
    const applied =
      outcome === 'APPROVED'
        ? await apply(card.db, row, now)
        : { member: null, endedSessionIds: [] };
    const [decided] = await card.db
      .update(staffProposals)
      .set({
        status: outcome,
        decidedBy: card.memberId,
        decidedAt: now,
        ...(row.kind === 'create' && applied.member ? { staffId: applied.member.id } : {}),
      })
      .where(eq(staffProposals.id, row.id))
      .returning({ id: staffProposals.id });
    if (!decided) throw new Error('staff change: the held proposal vanished');
    // This server's open streams of the member end once the change has committed.
    return { afterCommit: (auth) => endSessionStreams(auth, applied.endedSessionIds) };
  },
};
