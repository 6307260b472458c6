import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import type { LinkedToYou } from '#contract/approval-progress.ts';
import { recordAudit } from '../auth/audit.store.ts';
import type { AuthOptions } from '../auth/session-auth.ts';
import type { CustodyBackend, CustodyContext } from '../custody/backend.ts';
import type { Database } from '../db/client.ts';
import { auditLog, staff, upstreamCreators } from '../db/schema/console.ts';

/**
 * Second accounts (docs/security.md). Four-eyes stops a member deciding what
 * they created, but an admin can create another member and sign in as them.
 * The console cannot tell two people from one person under two names; it can
 * tell when the two are linked by member management: the decider created the
 * creator's account, or the creator created the decider's
 * (`console.staff.created_by`). Such a decision is allowed (they may well be
 * two people) but flagged: an audit row `change_request.linked_accounts`
 * beside the decision's own, under the same entity and request id, and
 * `linkedAccounts: true` on that decision wherever the console shows it
 * (approval decisions, a bank account's history).
 */

export const LINKED_DECISION_ACTION = 'change_request.linked_accounts';

interface Member {
  id: string;
  name: string;
  createdBy: string | null;
}

interface Link {
  entityType: 'TRANSACTION' | 'BANK_ACCOUNT';
  entityId: string;
  decider: Member;
  creator: Member;
  /** Who created whose account. */
  deciderCreatedCreator: boolean;
}

function unlessNotFound(error: unknown): null {
  if (error instanceof ApiError && error.status === 404) return null;
  throw error;
}

async function members(db: Pick<Database, 'select'>, ids: string[]): Promise<Map<string, Member>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: staff.id, name: staff.name, createdBy: staff.createdBy })
    .from(staff)
    .where(inArray(staff.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

/** The members this console knows as the entity's creators: the backend's and its own record. */
async function creatorIds(db: Database, entityId: string, createdById: string | undefined) {
  const recorded = await db
    .select({ staffId: upstreamCreators.staffId })
    .from(upstreamCreators)
    .where(eq(upstreamCreators.entityId, entityId));
  return [...new Set([createdById, ...recorded.map((r) => r.staffId)])].filter(
    (id): id is string => !!id,
  );
}

async function linkOf(
  db: Database,
  backend: CustodyBackend,
  ctx: CustodyContext,
  approvalId: string,
): Promise<Link | null> {
  if (ctx.actor?.type !== 'STAFF') return null;
  const entityId = await backend.approvalEntityId?.(ctx, approvalId);
  if (!entityId) return null;
  const transaction = await backend.getTransaction(ctx, entityId).catch(unlessNotFound);
  const account = transaction
    ? null
    : await backend.getBankAccount(ctx, entityId).catch(unlessNotFound);
  const entity = transaction ?? account;
  if (!entity) return null;
  const creators = await creatorIds(db, entityId, entity.createdById);
  const known = await members(db, [ctx.actor.id, ...creators]);
  const decider = known.get(ctx.actor.id);
  if (!decider) return null;
  for (const id of creators) {
    const creator = known.get(id);
    const direction = creator ? linkBetween(decider, creator) : null;
    if (creator && direction) {
      return {
        entityType: transaction ? 'TRANSACTION' : 'BANK_ACCOUNT',
        entityId,
        decider,
        creator,
        deciderCreatedCreator: direction === 'YOU_CREATED_THEM',
      };
    }
  }
  return null;
}

/** The rule itself: who created whose account, seen from the decider; null when neither. */
function linkBetween(decider: Member, creator: Member): LinkedToYou['direction'] | null {
  if (creator.id === decider.id) return null;
  if (creator.createdBy === decider.id) return 'YOU_CREATED_THEM';
  if (decider.createdBy === creator.id) return 'THEY_CREATED_YOU';
  return null;
}

/**
 * Said before deciding what the decision above will flag: for each item, the
 * creator linked to this member, by the same rule and the same creators (the
 * one the console recorded when the item was made, and the backend's record).
 * Only transactions and bank accounts, as only their decisions are flagged.
 * Two reads however many items.
 */
export async function linkedToMember(
  db: Pick<Database, 'select'>,
  memberId: string,
  items: ReadonlyArray<{ entityId: string; entityType: string; creatorId: string | null }>,
): Promise<Map<string, LinkedToYou>> {
  const found = new Map<string, LinkedToYou>();
  const flagged = items.filter(
    (item) => item.entityType === 'TRANSACTION' || item.entityType === 'BANK_ACCOUNT',
  );
  if (flagged.length === 0) return found;
  const recorded = await db
    .select({ entityId: upstreamCreators.entityId, staffId: upstreamCreators.staffId })
    .from(upstreamCreators)
    .where(
      inArray(
        upstreamCreators.entityId,
        flagged.map((item) => item.entityId),
      ),
    );
  const creatorsOf = new Map(
    flagged.map((item) => [
      item.entityId,
      new Set([
        item.creatorId,
        ...recorded.filter((r) => r.entityId === item.entityId).map((r) => r.staffId),
      ]),
    ]),
  );
  const ids = [...creatorsOf.values()].flatMap((set) => [...set]).filter((id) => id !== null);
  const known = await members(db, [memberId, ...new Set(ids)]);
  const me = known.get(memberId);
  if (!me) return found;
  for (const [entityId, creators] of creatorsOf) {
    for (const id of creators) {
      const creator = id ? known.get(id) : undefined;
      const direction = creator ? linkBetween(me, creator) : null;
      if (creator && direction) {
        found.set(entityId, { name: creator.name, direction });
        break;
      }
    }
  }
  return found;
}

function summary(link: Link, action: string): string {
  const decided = action === 'approve' ? 'approved' : 'rejected';
  const what = link.entityType === 'TRANSACTION' ? 'a transaction' : 'a bank account';
  const how = link.deciderCreatedCreator
    ? `${link.decider.name} created ${link.creator.name}'s console account`
    : `${link.creator.name} created ${link.decider.name}'s console account`;
  return `Flagged: ${link.decider.name} ${decided} ${what} ${link.creator.name} created, and ${how}`;
}

/** Wraps the backend: decisions between linked members go through, with their flag recorded. */
export function flagLinkedDecisions(backend: CustodyBackend, options: AuthOptions): CustodyBackend {
  return {
    ...backend,
    decideApproval: async (ctx, approvalId, request) => {
      // Known before deciding, so that a read failing afterwards cannot lose the flag.
      const link = await linkOf(options.db, backend, ctx, approvalId);
      const answer = await backend.decideApproval(ctx, approvalId, request);
      if (link) {
        await recordAudit(options.db, {
          at: options.clock.now(),
          actorType: 'STAFF',
          actorId: link.decider.id,
          actorName: link.decider.name,
          action: LINKED_DECISION_ACTION,
          entityType: link.entityType,
          entityId: link.entityId,
          summary: summary(link, request.action),
          outcome: 'success',
          requestId: ctx.requestId ?? null,
        });
      }
      return answer;
    },
  };
}

/** For each entity, the members whose decision on it was flagged. */
export async function linkedDeciders(
  db: Database,
  entityIds: readonly string[],
): Promise<Map<string, Set<string>>> {
  const found = new Map<string, Set<string>>();
  if (entityIds.length === 0) return found;
  const rows = await db
    .select({ entityId: auditLog.entityId, actorId: auditLog.actorId })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, LINKED_DECISION_ACTION),
        inArray(auditLog.entityId, [...entityIds]),
        isNotNull(auditLog.actorId),
      ),
    );
  for (const row of rows) {
    if (!row.entityId || !row.actorId) continue;
    const deciders = found.get(row.entityId) ?? new Set<string>();
    deciders.add(row.actorId);
    found.set(row.entityId, deciders);
  }
  return found;
}
