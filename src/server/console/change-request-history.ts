import { and, asc, eq, inArray } from 'drizzle-orm';
import type { ChangeRequestHistory, ChangeRequestRecord } from '#contract/change-request.ts';
import type { CustodyBackend, CustodyContext } from '../custody/backend.ts';
import type { Database } from '../db/client.ts';
import { auditLog, staff } from '../db/schema/console.ts';
import { linkedDeciders } from './linked-accounts.ts';

/**
 * An entity's change requests as the history pages show them (a transaction's
 * and a bank account's alike): the backend's own record where it keeps one
 * (the sandbox), else what this console's audit log saw; staff named from
 * the console's table. The caller checks the entity's scope first.
 */
export async function changeRequestHistoryOf(
  db: Database,
  backend: CustodyBackend,
  ctx: CustodyContext,
  entityId: string,
  /** The audit action that proposes the entity: its creation. */
  proposal: string,
): Promise<ChangeRequestHistory> {
  const fromBackend = backend.changeRequestHistory
    ? await backend.changeRequestHistory(ctx, entityId)
    : null;
  const results = fromBackend ?? (await historyFromAuditLog(db, entityId, proposal));
  return {
    entityId,
    source: fromBackend ? 'change_requests' : 'audit_log',
    results: await nameStaff(db, results),
  };
}

/** Staff are named from the console's own table; API users keep the backend's name. */
async function nameStaff(
  db: Database,
  records: ChangeRequestRecord[],
): Promise<ChangeRequestRecord[]> {
  const ids = new Set<string>();
  for (const r of records)
    for (const who of [r.proposedBy, r.decidedBy]) if (who?.type === 'STAFF') ids.add(who.id);
  if (ids.size === 0) return records;
  const rows = await db
    .select({ id: staff.id, name: staff.name })
    .from(staff)
    .where(inArray(staff.id, [...ids]));
  const names = new Map(rows.map((r) => [r.id, r.name]));
  const named = (who: ChangeRequestRecord['proposedBy']) =>
    who && who.type === 'STAFF' ? { ...who, name: names.get(who.id) ?? who.name ?? null } : who;
  return records.map((r) => ({
    ...r,
    proposedBy: named(r.proposedBy),
    decidedBy: named(r.decidedBy),
  }));
}

const DECISION_ACTIONS = ['change_request.approve', 'change_request.reject'];

/**
 * A backend that keeps no readable change requests (upstream): what this
 * console saw happen — the proposal and each decision made through it. The
 * audit log keeps no free text, so the reason is unknown here.
 */
async function historyFromAuditLog(
  db: Database,
  entityId: string,
  proposal: string,
): Promise<ChangeRequestRecord[]> {
  const rows = await db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entityId, entityId),
        eq(auditLog.outcome, 'success'),
        inArray(auditLog.action, [proposal, ...DECISION_ACTIONS]),
      ),
    )
    .orderBy(asc(auditLog.id));
  const records: ChangeRequestRecord[] = [];
  for (const row of rows) {
    const who = row.actorId
      ? { type: row.actorType, id: row.actorId, name: row.actorName ?? null }
      : null;
    if (row.action === proposal) {
      records.push({
        changeRequestId: null,
        status: 'PENDING',
        proposedBy: who,
        proposedAt: row.at.toISOString(),
        decidedBy: null,
        decidedAt: null,
        reason: null,
      });
      continue;
    }
    let open = records.findLast((r) => r.status === 'PENDING');
    if (!open) {
      // Proposed before this console recorded it (or elsewhere): the decision still counts.
      open = {
        changeRequestId: null,
        status: 'PENDING',
        proposedBy: null,
        proposedAt: null,
        decidedBy: null,
        decidedAt: null,
        reason: null,
      };
      records.push(open);
    }
    open.status = row.action === 'change_request.approve' ? 'APPROVED' : 'REJECTED';
    open.decidedBy = who;
    open.decidedAt = row.at.toISOString();
  }
  return records;
}

/**
 * The history with each decision between members linked by member management
 * flagged (linked-accounts.ts), as a bank account's and a contact's pages show it.
 */
export async function withLinkedFlags(
  db: Database,
  entityId: string,
  history: ChangeRequestHistory,
): Promise<ChangeRequestHistory> {
  const linked = (await linkedDeciders(db, [entityId])).get(entityId);
  return {
    ...history,
    results: history.results.map((r) =>
      r.decidedBy?.type === 'STAFF' && linked?.has(r.decidedBy.id)
        ? { ...r, linkedAccounts: true }
        : r,
    ),
  };
}
