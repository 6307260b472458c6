import type { Page } from '#contract/common.ts';

/**
 * A page of an upstream list holding only rows of some sub-organizations,
 * for filters the custody API cannot apply itself (several sub-orgs at once,
 * or a sub-org on lists that take no `subOrgId`). Each upstream call asks
 * for at most the rows still missing, so the page never exceeds `limit` and
 * always ends on an upstream page boundary: the next cursor is upstream's own
 * and nothing is skipped or shown twice. A page may come back short (even
 * empty) with `hasNext` when the scope's rows are sparse; the next page
 * carries on from there.
 */

/** Upstream calls spent on one page before answering with what was found. */
const MAX_UPSTREAM_PAGES = 10;

export async function filteredPage<T extends { subOrgId?: string | null | undefined }>(
  limit: number,
  cursor: string | undefined,
  subOrgIds: readonly string[],
  fetchPage: (limit: number, cursor: string | undefined) => Promise<Page<T>>,
): Promise<Page<T>> {
  const results: T[] = [];
  let next = cursor;
  for (let call = 0; call < MAX_UPSTREAM_PAGES; call += 1) {
    const page = await fetchPage(limit - results.length, next);
    results.push(
      ...page.results.filter((row) => !!row.subOrgId && subOrgIds.includes(row.subOrgId)),
    );
    next = page.nextCursor ?? undefined;
    if (!page.hasNext || !next) return { results, nextCursor: null, hasNext: false };
    if (results.length >= limit) break;
  }
  return { results, nextCursor: next ?? null, hasNext: true };
}
