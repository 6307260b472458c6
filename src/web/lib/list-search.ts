import { z } from 'zod';
import type { ListParams } from '../../contract/common.ts';
import { compact, cursorPageSearch, type CursorPage } from './paging.ts';
import { scopeSearch } from './scope.ts';

/**
 * One list page's URL search, derived from the contract's filter schema:
 * the filters the page offers, the cursor stack, and — when the list takes
 * `subOrgId` — the scope `?subOrg=`. A value that does not parse is dropped
 * rather than failing the page, so a stale bookmark still opens.
 */
type FilterShape<Shape extends z.ZodRawShape, K extends keyof Shape> = {
  [P in K]: z.ZodCatch<z.ZodOptional<Shape[P]>>;
};
type ScopeShape<Shape extends z.ZodRawShape> = 'subOrgId' extends keyof Shape
  ? typeof scopeSearch
  : Record<never, never>;
type SearchShape<Shape extends z.ZodRawShape, K extends keyof Shape> = FilterShape<Shape, K> &
  typeof cursorPageSearch &
  ScopeShape<Shape>;
type SearchOf<Shape extends z.ZodRawShape, K extends keyof Shape> = {
  [P in K]?: z.output<Shape[P]>;
} & CursorPage &
  ('subOrgId' extends keyof Shape ? { subOrg?: string | undefined } : Record<never, never>);

export function defineListSearch<Shape extends z.ZodRawShape, K extends keyof Shape & string>(
  filters: z.ZodObject<Shape>,
  filterKeys: readonly K[],
) {
  const scoped = 'subOrgId' in filters.shape;
  const shape: Record<string, z.ZodType> = {};
  for (const key of filterKeys) shape[key] = z.optional(filters.shape[key]!).catch(undefined);
  const schema = z.object({
    ...shape,
    ...cursorPageSearch,
    ...(scoped ? scopeSearch : {}),
  } as SearchShape<Shape, K>);

  type Search = SearchOf<Shape, K>;
  type Filters = Pick<Search, K>;

  const pickFilters = (search: Search): Filters =>
    compact(
      Object.fromEntries(filterKeys.map((key) => [key, (search as Record<string, unknown>)[key]])),
    ) as Filters;

  return {
    schema,
    filterKeys,
    pickFilters,
    hasFilters: (search: Search): boolean =>
      filterKeys.some((key) => (search as Record<string, unknown>)[key] !== undefined),
    /** Applies filter changes; any change starts again from the first page (the scope stays). */
    withFilters: (search: Search, patch: Partial<Filters>): Search =>
      compact({ ...search, ...patch, cursor: undefined, prev: undefined }),
    /**
     * The list call (and query key) for a search: the filters, the scope as
     * `subOrgId`, and the current cursor — not the history.
     */
    toListParams: (search: Search): ListParams<z.output<z.ZodObject<Shape>>> =>
      compact({
        ...pickFilters(search),
        ...(scoped ? { subOrgId: (search as { subOrg?: string }).subOrg } : {}),
        cursor: search.cursor,
      }) as ListParams<z.output<z.ZodObject<Shape>>>,
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any list's helpers
type AnyListSearch = { pickFilters: (search: any) => object };
/** The URL search of a list defined with `defineListSearch`. */
export type ListSearchOf<L extends AnyListSearch> = Parameters<L['pickFilters']>[0];
/** Its filters alone, as the filter form edits them. */
export type ListFiltersOf<L extends AnyListSearch> = ReturnType<L['pickFilters']>;
