import { and, desc, eq, gte, lt, lte, type SQL } from 'drizzle-orm';
import type { AuditEntry, AuditFilters } from '#contract/auth.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { Database } from '../db/client.ts';
import { auditLog } from '../db/schema/console.ts';
import { ApiError } from '#contract/api-error.ts';
import { escapeUnstorable } from '../http/storable-text.ts';
import type { Page } from '#contract/common.ts';

/**
 * The audit log: append-only (inserts here, reads below, nothing else — and a
 * trigger refuses UPDATE/DELETE). A summary never holds a secret or a full
 * account number; callers pass only masked values.
 */

export type AuditOutcome = 'success' | 'denied' | 'failed';

export interface AuditRecord {
  at: Date;
  actorType: string;
  actorId: string | null;
  actorName?: string | null | undefined;
  action: string;
  entityType?: string | null | undefined;
  entityId?: string | null | undefined;
  summary: string;
  outcome: AuditOutcome;
  requestId?: string | null | undefined;
  ip?: string | null | undefined;
}

/**
 * Whatever a request carried, its row can be stored: text is bounded and its
 * NULs and unpaired surrogates escaped (a malformed id is recorded as sent,
 * visibly, rather than making the insert fail and the attempt vanish).
 */
function storable(text: string, max: number): string;
function storable(text: string | null | undefined, max: number): string | null;
function storable(text: string | null | undefined, max: number): string | null {
  if (text === null || text === undefined) return null;
  const bounded = text.length > max ? `${text.slice(0, max)}…` : text;
  return escapeUnstorable(bounded);
}

export async function recordAudit(db: Database, entry: AuditRecord): Promise<void> {
  await db.insert(auditLog).values({
    at: entry.at,
    actorType: storable(entry.actorType, 40),
    actorId: storable(entry.actorId, 200),
    actorName: storable(entry.actorName, 320),
    action: storable(entry.action, 300),
    entityType: storable(entry.entityType, 40),
    entityId: storable(entry.entityId, 300),
    summary: storable(entry.summary, 1000),
    outcome: entry.outcome,
    requestId: storable(entry.requestId, 300),
    ip: storable(entry.ip, 100),
  });
}

function encodeCursor(id: number): string {
  return Buffer.from(`audit:${id}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const match = /^audit:(\d{1,18})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match?.[1])
    throw new ApiError(400, ERROR_CODES.invalidCursor, 'cursor was not issued by this list', [
      { field: 'cursor', message: 'is not valid' },
    ]);
  // eslint-disable-next-line no-restricted-syntax -- a row id of at most 18 digits
  return Number(match[1]);
}

/** Newest first, keyset-paged on the ever-growing id so deep pages cost the same as the first. */
export async function listAudit(
  db: Database,
  query: AuditFilters & { limit: number; cursor?: string | undefined },
): Promise<Page<AuditEntry>> {
  const before = query.cursor ? decodeCursor(query.cursor) : undefined;
  const conditions: Array<SQL | undefined> = [
    query.actorId ? eq(auditLog.actorId, query.actorId) : undefined,
    query.action ? eq(auditLog.action, query.action) : undefined,
    query.entityType ? eq(auditLog.entityType, query.entityType) : undefined,
    query.entityId ? eq(auditLog.entityId, query.entityId) : undefined,
    query.outcome ? eq(auditLog.outcome, query.outcome) : undefined,
    query.atGte ? gte(auditLog.at, new Date(query.atGte)) : undefined,
    query.atLte ? lte(auditLog.at, new Date(query.atLte)) : undefined,
    before !== undefined ? lt(auditLog.id, before) : undefined,
  ];
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(desc(auditLog.id))
    .limit(query.limit + 1);
  const hasNext = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    results: page.map((r) => ({
      id: String(r.id),
      at: r.at.toISOString(),
      actorType: r.actorType,
      actorId: r.actorId,
      actorName: r.actorName,
      action: r.action,
      entityType: r.entityType,
      entityId: r.entityId,
      summary: r.summary,
      outcome: r.outcome,
      requestId: r.requestId,
    })),
    hasNext,
    nextCursor: hasNext && last ? encodeCursor(last.id) : null,
  };
}
