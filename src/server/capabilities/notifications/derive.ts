import { and, eq, inArray } from 'drizzle-orm';
import { isApprovalEvent, isTransactionEvent, type LiveEvent } from '#contract/live-events.ts';
import { DEFAULT_POLICY, type FrozenRequirement } from '#contract/policies.ts';
import type { Database } from '../../db/client.ts';
import {
  approvalRequirements,
  approvalVotes,
  staff,
  staffProposals,
} from '../../db/schema/console.ts';
import type { PolicyActor } from '../policies/evaluate.ts';
import type { Notice } from './messages.ts';
import { eligibleDeciders, sees, type Member } from './recipients.ts';

/**
 * From an event of the console's logs (the live sources: the sandbox's status
 * and change-request records, the custody service's stored webhooks, the
 * console's approval events) to what it tells, and to whom:
 *
 * - an item waiting (a transaction PENDING, a proposal of any approvable
 *   kind): "needs your approval", to every member who may decide it under
 *   its frozen rule (recipients.ts), never its initiator;
 * - an item approved or declined, a transaction failed: to its initiator;
 * - a policy published: to every admin and approver; a member made admin:
 *   to every admin.
 *
 * An item's rule is frozen by the request that creates it, just after the
 * item's own event is written: an event whose rule is not there yet is
 * `waiting`, and the notifier reads it again shortly (until `graceMs`, then
 * the default rule stands in).
 */

export interface Derived {
  notice: Notice;
  /** The members it goes to by email (their preferences still to be applied). */
  members: Member[];
  /** Set for a new request on an item already decided once (a contact's asset change). */
  round?: string;
}

export type Derivation = { waiting: true } | { waiting: false; derived: Derived[] };

const NOTHING: Derivation = { waiting: false, derived: [] };

export async function enabledMembers(db: Pick<Database, 'select'>): Promise<Member[]> {
  return db
    .select({
      id: staff.id,
      email: staff.email,
      name: staff.name,
      role: staff.role,
      subOrgIds: staff.subOrgIds,
      createdBy: staff.createdBy,
    })
    .from(staff)
    .where(eq(staff.disabled, false));
}

export interface DeriveOptions {
  now: Date;
  graceMs: number;
  /**
   * The enabled members, read once for a pass's events rather than once an event (a pass of
   * many events otherwise reads the whole staff table for each).
   */
  members?: () => Promise<Member[]>;
}

export async function derive(
  db: Pick<Database, 'select'>,
  event: LiveEvent,
  options: DeriveOptions,
): Promise<Derivation> {
  const membersOf = options.members ?? (() => enabledMembers(db));
  if (isTransactionEvent(event)) {
    if (event.kind !== 'transaction.status') return NOTHING;
    const notice = (e: Notice['event']): Notice => ({
      event: e,
      entityType: 'TRANSACTION',
      entityId: event.transactionId,
      subOrgId: event.subOrgId,
    });
    switch (event.status) {
      case 'PENDING':
        return needsApproval(db, notice('NEEDS_APPROVAL'), event.at, options, membersOf);
      case 'APPROVED':
        return toInitiator(db, notice('APPROVED'));
      case 'DECLINED':
        return toInitiator(db, notice('DECLINED'));
      case 'FAILED':
        return toInitiator(db, notice('FAILED'));
      default:
        return NOTHING;
    }
  }
  if (!isApprovalEvent(event)) return NOTHING;
  const base = { entityType: event.entityType, entityId: event.entityId, subOrgId: event.subOrgId };
  // A transaction's decisions are told by its status log, its proposal by its PENDING status.
  if (event.entityType === 'TRANSACTION') return NOTHING;
  if (event.kind === 'approval.proposed')
    return needsApproval(db, { ...base, event: 'NEEDS_APPROVAL' }, event.at, options, membersOf);
  if (event.kind !== 'approval.decided') return NOTHING;
  const approved = event.status === 'APPROVED';
  const told = await toInitiator(db, { ...base, event: approved ? 'APPROVED' : 'DECLINED' });
  if (told.waiting || !approved) return told;
  const derived = [...told.derived];
  const members = await membersOf();
  if (event.entityType === 'POLICY_PUBLISH')
    derived.push({
      notice: {
        ...base,
        event: 'POLICY_CHANGED',
        detail: 'A new version of an approval policy is in force.',
      },
      members: members.filter((m) => m.role === 'admin' || m.role === 'approver'),
    });
  if (event.entityType === 'STAFF_CHANGE') {
    const [proposal] = await db
      .select({ change: staffProposals.change, staffId: staffProposals.staffId })
      .from(staffProposals)
      .where(eq(staffProposals.id, event.entityId));
    if (proposal?.change.role === 'admin') {
      // A role change alone carries no name: the member is named as the staff page names them,
      // never by an id a reader cannot place.
      const subject = proposal.staffId ? members.find((m) => m.id === proposal.staffId) : undefined;
      const who = proposal.change.name ?? subject?.name ?? proposal.change.email ?? 'A member';
      derived.push({
        notice: { ...base, event: 'NEW_ADMIN', detail: `${who} is now an admin.` },
        members: members.filter((m) => m.role === 'admin' && m.id !== proposal.staffId),
      });
    }
  }
  return { waiting: false, derived };
}

async function needsApproval(
  db: Pick<Database, 'select'>,
  notice: Notice,
  at: string,
  { now, graceMs }: { now: Date; graceMs: number },
  membersOf: () => Promise<Member[]>,
): Promise<Derivation> {
  const [row] = await db
    .select()
    .from(approvalRequirements)
    .where(eq(approvalRequirements.entityId, notice.entityId));
  if (!row && now.getTime() - new Date(at).getTime() < graceMs) return { waiting: true };
  // Made outside the console's guard (the seed, an old item): the default rule, no initiator known.
  const requirement: FrozenRequirement = row?.requirement ?? {
    policyVersion: 0,
    ruleId: null,
    ruleName: 'Default',
    outcome: DEFAULT_POLICY.fallback,
  };
  const initiator: PolicyActor = row
    ? row.initiatorType === 'STAFF'
      ? { kind: 'staff', id: row.initiatorId, role: row.initiatorRole ?? 'viewer' }
      : { kind: 'api_client', id: row.initiatorId }
    : { kind: 'api_client', id: '' };
  if (row?.settled) return NOTHING;
  const votes = row
    ? await db
        .select({ id: approvalVotes.actorId })
        .from(approvalVotes)
        .where(and(eq(approvalVotes.entityId, row.entityId), eq(approvalVotes.actorType, 'STAFF')))
    : [];
  const members = eligibleDeciders(
    requirement,
    initiator,
    await membersOf(),
    notice.subOrgId,
    new Set(votes.map((v) => v.id)),
  );
  return {
    waiting: false,
    derived: [
      {
        notice: { ...notice, detail: `Its rule: ${requirement.ruleName}.` },
        members,
        ...(row ? { round: row.createdAt.toISOString() } : {}),
      },
    ],
  };
}

async function toInitiator(db: Pick<Database, 'select'>, notice: Notice): Promise<Derivation> {
  const [row] = await db
    .select({ type: approvalRequirements.initiatorType, id: approvalRequirements.initiatorId })
    .from(approvalRequirements)
    .where(eq(approvalRequirements.entityId, notice.entityId));
  if (!row || row.type !== 'STAFF') return { waiting: false, derived: [{ notice, members: [] }] };
  const members = await db
    .select({
      id: staff.id,
      email: staff.email,
      name: staff.name,
      role: staff.role,
      subOrgIds: staff.subOrgIds,
      createdBy: staff.createdBy,
    })
    .from(staff)
    .where(and(inArray(staff.id, [row.id]), eq(staff.disabled, false)));
  return {
    waiting: false,
    derived: [{ notice, members: members.filter((m) => sees(m, notice.subOrgId)) }],
  };
}
