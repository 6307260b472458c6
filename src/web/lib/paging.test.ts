import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  cursorPageSearch,
  firstPage,
  hasPreviousPage,
  nextPage,
  pageNumber,
  previousPage,
  type CursorPage,
} from './paging.ts';

describe('cursor paging', () => {
  it('walks forward and back through pages', () => {
    const p2 = nextPage(firstPage, 'c2');
    const p3 = nextPage(p2, 'c3');
    const p4 = nextPage(p3, 'c4');
    expect(p2).toEqual({ cursor: 'c2', prev: undefined });
    expect(p4).toEqual({ cursor: 'c4', prev: ['c2', 'c3'] });
    expect([firstPage, p2, p3, p4].map(pageNumber)).toEqual([1, 2, 3, 4]);

    expect(previousPage(p4)).toEqual(p3);
    expect(previousPage(p3)).toEqual(p2);
    expect(previousPage(p2)).toEqual(firstPage);
  });

  it('has no previous page on the first page', () => {
    expect(hasPreviousPage(firstPage)).toBe(false);
    expect(hasPreviousPage({ cursor: 'c2' })).toBe(true);
    expect(previousPage(firstPage)).toEqual(firstPage);
  });

  it('reads a single or repeated prev param from the URL and drops junk', () => {
    const schema = z.object(cursorPageSearch);
    expect(schema.parse({ cursor: 'c3', prev: 'c2' })).toEqual({ cursor: 'c3', prev: ['c2'] });
    expect(schema.parse({ cursor: 'c4', prev: ['c2', 'c3'] })).toEqual({
      cursor: 'c4',
      prev: ['c2', 'c3'],
    });
    const junk: CursorPage = schema.parse({ cursor: '', prev: [1, 2] });
    expect(junk).toEqual({ cursor: undefined, prev: undefined });
  });
});
