import * as z from 'zod/mini';

/** Error body of every non-2xx answer: `{message, code?}`; `fields` adds per-field detail. */
export const ApiErrorBody = z.looseObject({
  message: z.string(),
  code: z.optional(z.string()),
  fields: z.optional(z.array(z.object({ field: z.string(), message: z.string() }))),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

/**
 * The console's own request header carrying the written reason for a risky
 * choice (skipping a contract call's preprocessing simulation), URI-encoded
 * because header values are Latin-1 only. The console server records it in
 * the audit log; it is never forwarded to the custody API.
 */
export const AUDIT_REASON_HEADER = 'X-Audit-Reason';

// Apart from this module so that a page reading lists does not carry every code (first load).
export { ERROR_CODES } from './error-codes.ts';

/** Both list envelopes share this shape (BankAccountListResponse, TransactionListResponse). */
export function listEnvelope<T extends z.ZodMiniType>(item: T) {
  return z.looseObject({
    results: z.array(item),
    nextCursor: z.optional(z.nullable(z.string())),
    hasNext: z.optional(z.boolean()),
  });
}
export type ListEnvelope<T> = { results: T[]; nextCursor?: string | null; hasNext?: boolean };

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/**
 * `limit` and `cursor` as they arrive in a query string. Strict: a limit
 * outside 1–100 or not an integer is an error, never silently clamped.
 */
export const PageQuery = z.object({
  limit: z.optional(
    z.pipe(
      z.pipe(
        z
          .string()
          .check(z.regex(/^\d+$/, `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`)),
        // eslint-disable-next-line no-restricted-syntax -- a page size, checked digits only
        z.transform((s: string) => Number.parseInt(s, 10)),
      ),
      z
        .int()
        .check(
          z.gte(1, `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`),
          z.lte(MAX_PAGE_SIZE, `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`),
        ),
    ),
  ),
  // Both provider SDKs ask for the first page as `?limit=20&cursor=`: an
  // empty cursor is the first page. Any other cursor must be one the server issued.
  cursor: z.pipe(
    z.optional(z.string()),
    z.transform((cursor: string | undefined) => (cursor === '' ? undefined : cursor)),
  ),
});

/** ISO 8601 UTC timestamp, as every `createdAt`/`updatedAt` and time filter. */
export const IsoTimestamp = z.iso.datetime({ offset: true });

/** A validated page request: `limit` is 1–100; `cursor` is opaque and checked by whoever issued it. */
export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
}

/**
 * One page of a keyset-paged list, newest first, as every list endpoint answers it. `nextCursor` is null on the last page.
 * A type, not an interface, so that it meets the contract's loose list envelopes (server/http/mount.ts).
 */
export type Page<T> = {
  results: T[];
  nextCursor: string | null;
  hasNext: boolean;
};

/** What a list call takes: page size, cursor and string filters. */
export type ListParams<F> = F & { limit?: number; cursor?: string | null };
