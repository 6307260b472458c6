import { and, asc, eq, inArray } from 'drizzle-orm';
import { Hono } from 'hono';
import type {
  ChangeRequestHistory,
  ChangeRequestRecord,
} from '../../../contract/change-request.ts';
import { CONSOLE_API_PREFIX } from '../../../contract/endpoint.ts';
import { bankAccountHistory } from '../../../contract/endpoints/bank-accounts.ts';
import type { AuthOptions } from '../../auth/session-auth.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import type { Database } from '../../db/client.ts';
import { auditLog, staff } from '../../db/schema/console.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';
import { linkedDeciders } from '../../console/linked-accounts.ts';

/**
 * GET /api/console/bank_accounts/{id}/history/: who proposed the account, who
 * decided it, when, and the reason. Every member who may read the account may
 * read its history (a viewer too: it holds no account number); the account is
 * fetched through the scoped backend first, so one outside the member's
 * sub-organizations is a 404 like the account itself.
 */
export function historyRoutes(options: AuthOptions, backend: CustodyBackend) {
  return mount(
    new Hono<AppEnv>(),
    CONSOLE_API_PREFIX,
    bankAccountHistory,
    async ({ params: { bankAccountId: id } }, c) => {
      const ctx = custodyContext(c);
      await backend.getBankAccount(ctx, id);
      const fromBackend = backend.changeRequestHistory
        ? await backend.changeRequestHistory(ctx, id)
        : null;
      const results = fromBackend ?? (await historyFromAuditLog(options.db, id));
      // A decision between members linked by member management is flagged (linked-accounts.ts).
      const linked = (await linkedDeciders(options.db, [id])).get(id);
      const body: ChangeRequestHistory = {
        entityId: id,
        source: fromBackend ? 'change_requests' : 'audit_log',
        results: (await nameStaff(options.db, results)).map((r) =>
          r.decidedBy?.type === 'STAFF' && linked?.has(r.decidedBy.id)
            ? { ...r, linkedAccounts: true }
            : r,
        ),
      };
      return body;
    },
  );
}

/** Staff are named from the console's own table; API users keep the backend's name. */
export async function nameStaff(
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
export async function historyFromAuditLog(
  db: Database,
  entityId: string,
  /** The action that proposes the entity: its creation. */
  proposal = 'bank_account.create',
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
