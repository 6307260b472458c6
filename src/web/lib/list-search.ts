import * as z from 'zod/mini';
import type { ListParams } from '../../contract/common.ts';
import { compact, cursorPageSearch, type CursorPage } from './paging.ts';
import { scopeSearch } from './scope.ts';

/**
 * One list page's URL search, derived from the contract's filter schema:
 * every filter it declares, the cursor stack, and — when the list takes
 * `subOrgId` — the scope as `?subOrg=` (the scope switcher's, not a filter of
 * the page). A value that does not parse is dropped rather than failing the
 * page, so a stale bookmark still opens. A page that offers fewer filters
 * than the endpoint takes passes the contract's schema with those omitted.
 */
type FilterKey<Shape extends z.core.$ZodShape> = Exclude<keyof Shape & string, 'subOrgId'>;
type FilterShape<Shape extends z.core.$ZodShape> = {
  [P in FilterKey<Shape>]: z.ZodMiniCatch<z.ZodMiniOptional<Shape[P]>>;
};
type ScopeShape<Shape extends z.core.$ZodShape> = 'subOrgId' extends keyof Shape
  ? typeof scopeSearch
  : Record<never, never>;
type SearchShape<Shape extends z.core.$ZodShape> = FilterShape<Shape> &
  typeof cursorPageSearch &
  ScopeShape<Shape>;
type SearchOf<Shape extends z.core.$ZodShape> = {
  [P in FilterKey<Shape>]?: z.output<Shape[P]>;
} & CursorPage &
  ('subOrgId' extends keyof Shape ? { subOrg?: string | undefined } : Record<never, never>);

export function defineListSearch<Shape extends z.core.$ZodShape>(filters: z.ZodMiniObject<Shape>) {
  type K = FilterKey<Shape>;
  const filterKeys = Object.keys(filters.shape).filter((key) => key !== 'subOrgId') as K[];
  const scoped = 'subOrgId' in filters.shape;
  const shape: Record<string, z.ZodMiniType> = {};
  for (const key of filterKeys) shape[key] = z.catch(z.optional(filters.shape[key]!), undefined);
  const schema = z.object({
    ...shape,
    ...cursorPageSearch,
    ...(scoped ? scopeSearch : {}),
  } as SearchShape<Shape>);

  type Search = SearchOf<Shape>;
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
      compact({ ...search, ...patch, cursor: undefined, page: undefined }),
    /**
     * The list call (and query key) for a search: the filters, the scope as
     * `subOrgId`, and the current cursor — not the history.
     */
    toListParams: (search: Search): ListParams<z.output<z.ZodMiniObject<Shape>>> =>
      compact({
        ...pickFilters(search),
        ...(scoped ? { subOrgId: (search as { subOrg?: string }).subOrg } : {}),
        cursor: search.cursor,
      }) as ListParams<z.output<z.ZodMiniObject<Shape>>>,
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any list's helpers
type AnyListSearch = { pickFilters: (search: any) => object };
/** The URL search of a list defined with `defineListSearch`. */
export type ListSearchOf<L extends AnyListSearch> = Parameters<L['pickFilters']>[0];
/** Its filters alone, as the filter form edits them. */
export type ListFiltersOf<L extends AnyListSearch> = ReturnType<L['pickFilters']>;

/** What a list page's filters need of its search: read them, apply a change, tell if any is set. */
export interface ListFilterKit<Search, Filters> {
  pickFilters: (search: Search) => Filters;
  hasFilters: (search: Search) => boolean;
  withFilters: (search: Search, patch: Partial<Filters>) => Search;
}
