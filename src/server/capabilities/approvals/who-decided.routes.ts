import { and, desc, eq, inArray } from 'drizzle-orm';
import { Hono } from 'hono';
import type { ApprovalDecision } from '#contract/approval-decision.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { approvalDecisions } from '#contract/endpoints/approvals.ts';
import type { AuthOptions } from '../../auth/session-auth.ts';
import type { CustodyBackend, CustodyContext } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import type { Database } from '../../db/client.ts';
import { auditLog, staff } from '../../db/schema/console.ts';
import { ApiError } from '#contract/api-error.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';
import { linkedDeciders } from '../../console/linked-accounts.ts';
import { inScope } from '../../console/scope-rules.ts';

/**
 * GET /api/console/approval_decisions/?entityIds=a,b: who approved or
 * rejected each of these transactions or bank accounts, and when. Any staff
 * role may read it (it is part of what a transaction is), held to the
 * member's sub-orgs like every read.
 *
 * Source: the backend's own change-request records where it keeps them (the
 * sandbox); otherwise the console's audit log, which records every decision
 * made through this console (upstream mode: decisions made elsewhere are
 * not known to the console and stay absent). A decision between members
 * linked by member management carries `linkedAccounts: true`
 * (linked-accounts.ts).
 */
export function approvalDecisionRoutes(options: AuthOptions, backend: CustodyBackend) {
  return mount(
    new Hono<AppEnv>(),
    CONSOLE_API_PREFIX,
    approvalDecisions,
    async ({ query: { entityIds } }, c) => {
      const ctx = custodyContext(c);
      const decisions = backend.approvalDecisions
        ? (await backend.approvalDecisions(ctx, entityIds))
            .filter((d) => inScope(ctx, d.subOrgId))
            .map(({ subOrgId: _subOrgId, ...decision }) => decision)
        : await decisionsFromAudit(options.db, backend, ctx, entityIds);
      const named = await withStaffNames(options.db, decisions);
      return { results: await withLinkFlags(options.db, named) };
    },
  );
}

async function withLinkFlags(
  db: Database,
  decisions: ApprovalDecision[],
): Promise<ApprovalDecision[]> {
  const linked = await linkedDeciders(
    db,
    decisions.map((d) => d.entityId),
  );
  return decisions.map((d) =>
    d.decidedBy.type === 'STAFF' && linked.get(d.entityId)?.has(d.decidedBy.id)
      ? { ...d, linkedAccounts: true }
      : d,
  );
}

async function withStaffNames(
  db: Database,
  decisions: ApprovalDecision[],
): Promise<ApprovalDecision[]> {
  const ids = [
    ...new Set(
      decisions
        .filter((d) => d.decidedBy.type === 'STAFF' && !d.decidedBy.name)
        .map((d) => d.decidedBy.id),
    ),
  ];
  if (ids.length === 0) return decisions;
  const rows = await db
    .select({ id: staff.id, name: staff.name })
    .from(staff)
    .where(inArray(staff.id, ids));
  const names = new Map(rows.map((r) => [r.id, r.name]));
  return decisions.map((d) =>
    d.decidedBy.type === 'STAFF' && !d.decidedBy.name
      ? { ...d, decidedBy: { ...d.decidedBy, name: names.get(d.decidedBy.id) ?? null } }
      : d,
  );
}

const DECISION_ACTIONS = ['change_request.approve', 'change_request.reject'];

async function decisionsFromAudit(
  db: Database,
  backend: CustodyBackend,
  ctx: CustodyContext,
  entityIds: string[],
): Promise<ApprovalDecision[]> {
  const rows = await db
    .select()
    .from(auditLog)
    .where(
      and(
        inArray(auditLog.action, DECISION_ACTIONS),
        eq(auditLog.outcome, 'success'),
        inArray(auditLog.entityId, entityIds),
      ),
    )
    .orderBy(desc(auditLog.id));
  const latest = new Map<string, (typeof rows)[number]>();
  for (const row of rows)
    if (row.entityId && !latest.has(row.entityId)) latest.set(row.entityId, row);

  const decisions: ApprovalDecision[] = [];
  const found = [...latest];
  const types = await Promise.all(
    found.map(([entityId]) => visibleEntityType(backend, ctx, entityId)),
  );
  for (const [index, [entityId, row]] of found.entries()) {
    const entityType = types[index];
    if (!entityType) continue;
    decisions.push({
      entityId,
      entityType,
      decision: row.action === 'change_request.approve' ? 'APPROVED' : 'REJECTED',
      decidedAt: row.at.toISOString(),
      decidedBy: { type: row.actorType, id: row.actorId ?? '', name: row.actorName },
      // The audit log keeps no free text a member typed; the reason is not known here.
      reason: null,
    });
  }
  return decisions;
}

/** TRANSACTION or BANK_ACCOUNT when the (scoped) backend shows it to this caller, else null. */
async function visibleEntityType(
  backend: CustodyBackend,
  ctx: CustodyContext,
  entityId: string,
): Promise<string | null> {
  const notFound = (error: unknown) => {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  };
  if (await backend.getTransaction(ctx, entityId).catch(notFound)) return 'TRANSACTION';
  if (await backend.getBankAccount(ctx, entityId).catch(notFound)) return 'BANK_ACCOUNT';
  return null;
}
