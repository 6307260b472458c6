import * as z from 'zod/mini';

/**
 * Cursor paging held in the URL: `cursor` is the page being shown (absent on
 * the first page) and `page` its number (absent on the first page). Keyset
 * cursors only go forward, so the way back is remembered apart from the URL:
 * each Next records, in this tab's session storage, which cursor came before
 * the new one (`rememberPrevious`). The URL stays two short parameters at any
 * depth (a stack of every earlier cursor in it grew 190 bytes a page and
 * passed common 8 KB proxy limits near page 60), Back walks through pages as
 * before (each page is a history entry), and Previous still works after a
 * reload. A link opened elsewhere has no such record: its Previous goes to the
 * first page and says so.
 */
export interface CursorPage {
  cursor?: string | undefined;
  page?: number | undefined;
}

const cursorString = z.string().check(z.minLength(1), z.maxLength(2048));

/** Search-param schemas for the paging keys; invalid values fall back to the first page. */
export const cursorPageSearch = {
  cursor: z.catch(z.optional(cursorString), undefined),
  page: z.catch(
    // eslint-disable-next-line no-restricted-syntax -- a page number in the URL
    z.optional(z.pipe(z.coerce.number(), z.int().check(z.gte(2), z.lte(1_000_000)))),
    undefined,
  ),
};

const STORAGE_KEY = 'cc.previous-cursors';
/** Cursors remembered per tab: enough for any walk a person makes, bounded for storage. */
const REMEMBERED = 500;
/** Stands for the first page, which has no cursor. */
const FIRST = '';

type Remembered = [cursor: string, previous: string][];

function readRemembered(): Remembered {
  try {
    const raw = globalThis.sessionStorage?.getItem(STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed)
      ? parsed.filter(
          (e): e is [string, string] =>
            Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

/** Records that `cursor`'s page was reached by Next from `previous`'s page. */
export function rememberPrevious(cursor: string, previous: string | undefined): void {
  try {
    const kept = readRemembered().filter(([c]) => c !== cursor);
    kept.push([cursor, previous ?? FIRST]);
    globalThis.sessionStorage?.setItem(STORAGE_KEY, JSON.stringify(kept.slice(-REMEMBERED)));
  } catch {
    // Storage full or refused (a private window): Previous falls back to the first page.
  }
}

/** The cursor of the page before `cursor`'s: '' for the first page, undefined when not known. */
function previousCursor(cursor: string): string | undefined {
  return readRemembered().find(([c]) => c === cursor)?.[1];
}

export function nextPage(page: CursorPage, nextCursor: string): CursorPage {
  rememberPrevious(nextCursor, page.cursor);
  return { cursor: nextCursor, page: pageNumber(page) + 1 };
}

/** Whether Previous goes one page back (true) or, not knowing the way, to the first page. */
export function knowsPreviousPage(page: CursorPage): boolean {
  return !page.cursor || pageNumber(page) <= 2 || previousCursor(page.cursor) !== undefined;
}

export function previousPage(page: CursorPage): CursorPage {
  if (!page.cursor || pageNumber(page) <= 2) return firstPage;
  const previous = previousCursor(page.cursor);
  if (!previous) return firstPage;
  return { cursor: previous, page: pageNumber(page) - 1 };
}

export function hasPreviousPage(page: CursorPage): boolean {
  return Boolean(page.cursor);
}

/** 1 on the first page, 2 on the page after it, and so on (2 when a cursor comes without one). */
export function pageNumber(page: CursorPage): number {
  return page.cursor ? (page.page ?? 2) : 1;
}

export const firstPage: CursorPage = { cursor: undefined, page: undefined };

/** Drops undefined values so equal searches give equal query keys and URLs. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
