import { createHash } from 'node:crypto';
import { asc, desc, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { ERROR_CODES, IsoTimestamp } from '#contract/common.ts';
import { ApiError } from '#contract/api-error.ts';
import type { Page } from '#contract/common.ts';

/**
 * Keyset paging, newest first: rows are ordered by (created_at DESC, id DESC)
 * and a cursor is the position of the last row served. Unlike OFFSET, a page
 * deep into the list costs the same as the first, and rows inserted while a
 * client pages never shift what it sees next.
 *
 * The cursor is opaque to clients: base64url JSON naming the list it belongs
 * to plus a short digest, so a cursor that was edited, truncated or taken
 * from another list is refused with INVALID_CURSOR instead of silently
 * landing somewhere else.
 *
 * The digest is a checksum, not a MAC, on purpose: anyone can
 * make a cursor that decodes. A cursor holds a position and nothing else
 * (no filter, organization or scope), and every query applies the caller's
 * organization, scope and filters itself; a made-up position only chooses
 * where a page starts, which paging (or `createdAtLte`) reaches anyway, and
 * costs what any page costs. A keyed MAC would need a secret every server
 * on one database shares and keeps across restarts, to guard nothing.
 * Should a cursor ever carry something the caller must not choose (a
 * filter, a scope, an offset into another caller's data), make it a MAC.
 */

export type CursorKind =
  | 'transactions'
  | 'bank_accounts'
  | 'vaults'
  /** The vault list read oldest first (the older SDKs' `reverse`): its cursors serve that order only. */
  | 'vaults_oldest_first'
  | 'contacts'
  | 'sub_orgs'
  | 'activity_events';

export interface KeysetPosition {
  createdAt: Date;
  id: string;
}

const CursorPayload = z.strictObject({
  k: z.string(),
  t: IsoTimestamp,
  i: z.string().min(1).max(200),
});

function digest(json: string): string {
  return createHash('sha256').update(json).digest('base64url').slice(0, 16);
}

export function encodeCursor(kind: CursorKind, position: KeysetPosition): string {
  const json = JSON.stringify({ k: kind, t: position.createdAt.toISOString(), i: position.id });
  return `${Buffer.from(json).toString('base64url')}.${digest(json)}`;
}

function invalidCursor(): ApiError {
  return new ApiError(
    400,
    ERROR_CODES.invalidCursor,
    'cursor is not valid for this list: pass the nextCursor of a previous page unchanged, or omit it for the first page',
  );
}

export function decodeCursor(kind: CursorKind, cursor: string): KeysetPosition {
  const [body, check, ...rest] = cursor.split('.');
  if (!body || !check || rest.length > 0 || !/^[A-Za-z0-9_-]+$/.test(body)) throw invalidCursor();
  const json = Buffer.from(body, 'base64url').toString('utf8');
  if (digest(json) !== check) throw invalidCursor();
  let payload: unknown;
  try {
    payload = JSON.parse(json);
  } catch {
    throw invalidCursor();
  }
  const parsed = CursorPayload.safeParse(payload);
  if (!parsed.success || parsed.data.k !== kind) throw invalidCursor();
  return { createdAt: new Date(parsed.data.t), id: parsed.data.i };
}

interface KeysetColumns {
  createdAt: PgColumn;
  id: PgColumn;
}

/** Rows strictly after `position` in newest-first order. A row comparison, so one index range scan serves it. */
export function after(columns: KeysetColumns, position: KeysetPosition): SQL {
  return sql`(${columns.createdAt}, ${columns.id}) < (${position.createdAt.toISOString()}::timestamptz, ${position.id})`;
}

export function newestFirst(columns: KeysetColumns): SQL[] {
  return [desc(columns.createdAt), desc(columns.id)];
}

/** Rows strictly after `position` in oldest-first order. */
export function afterOldest(columns: KeysetColumns, position: KeysetPosition): SQL {
  return sql`(${columns.createdAt}, ${columns.id}) > (${position.createdAt.toISOString()}::timestamptz, ${position.id})`;
}

export function oldestFirst(columns: KeysetColumns): SQL[] {
  return [asc(columns.createdAt), asc(columns.id)];
}

/**
 * Runs `fetch` for one row more than the page needs (that extra row is how we
 * know a next page exists without counting) and builds the page.
 */
export async function keysetPage<Row extends KeysetPosition, T>(
  kind: CursorKind,
  limit: number,
  fetch: (take: number) => Promise<Row[]>,
  toWire: (row: Row) => T,
): Promise<Page<T>> {
  const rows = await fetch(limit + 1);
  const hasNext = rows.length > limit;
  const pageRows = hasNext ? rows.slice(0, limit) : rows;
  const last = pageRows.at(-1);
  return {
    results: pageRows.map(toWire),
    hasNext,
    nextCursor: hasNext && last ? encodeCursor(kind, last) : null,
  };
}
