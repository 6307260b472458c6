import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  cursorPageSearch,
  firstPage,
  hasPreviousPage,
  knowsPreviousPage,
  nextPage,
  pageNumber,
  previousPage,
  type CursorPage,
} from './paging.ts';

// The unit project runs in node: a stand-in for the browser's per-tab session storage.
const stored = new Map<string, string>();
globalThis.sessionStorage = {
  getItem: (key: string) => stored.get(key) ?? null,
  setItem: (key: string, value: string) => void stored.set(key, value),
  removeItem: (key: string) => void stored.delete(key),
  clear: () => stored.clear(),
  key: () => null,
  get length() {
    return stored.size;
  },
} as Storage;
afterEach(() => stored.clear());

describe('cursor paging', () => {
  it('walks forward and back through pages', () => {
    const p2 = nextPage(firstPage, 'c2');
    const p3 = nextPage(p2, 'c3');
    const p4 = nextPage(p3, 'c4');
    expect(p2).toEqual({ cursor: 'c2', page: 2 });
    expect(p4).toEqual({ cursor: 'c4', page: 4 });
    expect([firstPage, p2, p3, p4].map(pageNumber)).toEqual([1, 2, 3, 4]);

    expect(previousPage(p4)).toEqual(p3);
    expect(previousPage(p3)).toEqual(p2);
    expect(previousPage(p2)).toEqual(firstPage);
  });

  it('keeps the URL two short values however deep the walk', () => {
    let page: CursorPage = firstPage;
    for (let i = 0; i < 100; i += 1) page = nextPage(page, `cursor-${'x'.repeat(150)}-${i}`);
    expect(Object.keys(page)).toEqual(['cursor', 'page']);
    expect(page.page).toBe(101);
    expect(previousPage(page)).toEqual({ cursor: `cursor-${'x'.repeat(150)}-98`, page: 100 });
  });

  it('goes to the first page when the way back is not known (a link opened afresh)', () => {
    const opened = { cursor: 'c9', page: 9 };
    expect(knowsPreviousPage(opened)).toBe(false);
    expect(previousPage(opened)).toEqual(firstPage);
    expect(knowsPreviousPage({ cursor: 'c2', page: 2 })).toBe(true);
  });

  it('has no previous page on the first page', () => {
    expect(hasPreviousPage(firstPage)).toBe(false);
    expect(hasPreviousPage({ cursor: 'c2' })).toBe(true);
    expect(previousPage(firstPage)).toEqual(firstPage);
  });

  it('reads the page number from the URL and drops junk', () => {
    const schema = z.object(cursorPageSearch);
    expect(schema.parse({ cursor: 'c3', page: '3' })).toEqual({ cursor: 'c3', page: 3 });
    const junk: CursorPage = schema.parse({ cursor: '', page: 'x' });
    expect(junk).toEqual({ cursor: undefined, page: undefined });
    expect(schema.parse({ cursor: 'c3', page: '1.5' }).page).toBeUndefined();
    // A bookmark from before still opens (its old `prev` stack is ignored).
    expect(schema.parse({ cursor: 'c3', prev: ['c2'] })).toEqual({ cursor: 'c3' });
    expect(pageNumber({ cursor: 'c3' })).toBe(2);
  });
});
