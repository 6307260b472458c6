import type { Context } from 'hono';
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, ERROR_CODES, PageQuery } from '#contract/common.ts';
import { ApiError } from '#contract/api-error.ts';
import type { PageRequest } from '#contract/common.ts';

/**
 * Query-string parsing for list endpoints: `limit`, `cursor` and the
 * endpoint's filters, each validated by the contract's schema. A bad value
 * is a 400 naming the parameter, never a silent default or a 500.
 * Parameters the endpoint does not know are ignored, as clients may send
 * filters "when supported".
 */

export function parsePageRequest(c: Context): PageRequest {
  const parsed = PageQuery.safeParse({
    limit: c.req.query('limit'),
    cursor: c.req.query('cursor'),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? 'limit');
    const code = field === 'cursor' ? ERROR_CODES.invalidCursor : ERROR_CODES.invalidLimit;
    // The contract's messages already name the parameter ("limit must be…").
    const message = issue?.message ?? `${field} is not valid`;
    throw new ApiError(400, code, message, [{ field, message }]);
  }
  return { limit: parsed.data.limit ?? DEFAULT_PAGE_SIZE, cursor: parsed.data.cursor };
}

// No identifier, name or code the API deals in contains control characters,
// and PostgreSQL refuses NUL in text outright.
const CONTROL_CHARACTERS = /\p{Cc}/u;

export function parseFilters<S extends z.core.$ZodObject>(c: Context, schema: S): z.output<S> {
  const raw: Record<string, string> = {};
  const fields: Array<{ field: string; message: string }> = [];
  for (const key of Object.keys(schema._zod.def.shape)) {
    const value = c.req.query(key);
    if (value === undefined) continue;
    if (CONTROL_CHARACTERS.test(value))
      fields.push({ field: key, message: `${key} must not contain control characters` });
    raw[key] = value;
  }
  const parsed = z.safeParse(schema, raw);
  if (!parsed.success || fields.length > 0) {
    for (const issue of parsed.error?.issues ?? []) {
      const field = issue.path.map(String).join('.');
      if (!fields.some((f) => f.field === field)) fields.push({ field, message: issue.message });
    }
    throw new ApiError(
      400,
      ERROR_CODES.invalidFilter,
      fields.map((f) => `${f.field}: ${f.message}`).join('; '),
      fields,
    );
  }
  return parsed.data;
}

// Enough for every query a page or a poller repeats; what is past it is parsed as it comes.
const KEPT_QUERIES = 256;
const KEPT_QUERY_LENGTH = 512;

function isPlainValue(value: unknown): boolean {
  return value === undefined || value === null || typeof value !== 'object';
}

/**
 * `parse`, remembered by the raw query string it read: a list read by a
 * page or a poller sends the same few queries again and again, and parsing
 * them (the page request, then every filter through the contract's schema)
 * was among the largest costs of an answer from the read cache. Only what
 * parsed is kept, so a bad query is refused by `parse` itself every time,
 * with its own 400; only answers of plain values (strings, numbers) are
 * kept, and each request gets its own copy, so a handler that changes its
 * query changes nothing another request sees. `parse` must read nothing but
 * the URL's query string.
 */
export function rememberedQueries<Q, C extends { req: { url: string } }>(
  parse: (c: C) => Q,
): (c: C) => Q {
  const kept = new Map<string, Q>();
  return (c) => {
    const url = c.req.url;
    const at = url.indexOf('?');
    const raw = at === -1 ? '' : url.slice(at + 1);
    const hit = kept.get(raw);
    if (hit) return { ...hit };
    const parsed = parse(c);
    if (raw.length <= KEPT_QUERY_LENGTH && Object.values(parsed as object).every(isPlainValue)) {
      if (kept.size >= KEPT_QUERIES) {
        const oldest = kept.keys().next().value;
        if (oldest !== undefined) kept.delete(oldest);
      }
      kept.set(raw, { ...parsed });
    }
    return parsed;
  };
}

/**
 * A resource id from the path. One that no record could have (control
 * characters, absurd length) is simply not found; it never reaches the database.
 */
export function pathId(c: Context, name: string, resource: string): string {
  const id = c.req.param(name) ?? '';
  if (id === '' || id.length > 200 || CONTROL_CHARACTERS.test(id)) {
    throw new ApiError(404, ERROR_CODES.notFound, `No ${resource} with that id`);
  }
  return id;
}
