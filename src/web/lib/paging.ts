import * as z from 'zod/mini';

/**
 * Cursor paging held in the URL. `cursor` is the page being shown (absent on
 * the first page); `prev` is the stack of cursors of the pages before it,
 * excluding the first page, which has no cursor. Both live in the URL so
 * that Previous still works after a reload and the browser's Back button
 * walks back through pages.
 */
export interface CursorPage {
  cursor?: string | undefined;
  prev?: string[] | undefined;
}

const cursorString = z.string().check(z.minLength(1), z.maxLength(2048));

/** Search-param schemas for the paging keys; invalid values fall back to the first page. */
export const cursorPageSearch = {
  cursor: z.catch(z.optional(cursorString), undefined),
  prev: z.catch(
    z.optional(
      z.pipe(
        z.union([cursorString, z.array(cursorString)]),
        z.transform((v: string | string[]) => (Array.isArray(v) ? v : [v])),
      ),
    ),
    undefined,
  ),
};

export function nextPage(page: CursorPage, nextCursor: string): CursorPage {
  return {
    cursor: nextCursor,
    prev: page.cursor ? [...(page.prev ?? []), page.cursor] : undefined,
  };
}

export function previousPage(page: CursorPage): CursorPage {
  const prev = page.prev ?? [];
  if (!page.cursor || prev.length === 0) return { cursor: undefined, prev: undefined };
  const rest = prev.slice(0, -1);
  return { cursor: prev[prev.length - 1], prev: rest.length > 0 ? rest : undefined };
}

export function hasPreviousPage(page: CursorPage): boolean {
  return Boolean(page.cursor);
}

/** 1 on the first page, 2 on the page after it, and so on. */
export function pageNumber(page: CursorPage): number {
  return page.cursor ? (page.prev?.length ?? 0) + 2 : 1;
}

export const firstPage: CursorPage = { cursor: undefined, prev: undefined };

/** Drops undefined values so equal searches give equal query keys and URLs. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
