import * as z from 'zod/mini';
import type { ListParams } from '#contract/common.ts';
import { endOfDayIn, isCompleteDay, startOfDayIn } from './dates.ts';
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

/**
 * A day filter's value in the URL: the day (`2026-11-24`), which the list
 * reads in the member's time zone when it asks the API (`toListParams`), so
 * a link names the same day for everyone who opens it, each in their own
 * zone. A link from before days were kept (an ISO instant, the start or end
 * of a UTC day) is read as that UTC day.
 */
const DaySearch = z.pipe(
  z.string(),
  z.transform((value): string | undefined => {
    if (isCompleteDay(value)) return value;
    const at = Date.parse(value);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(at)) return undefined;
    const day = new Date(at).toISOString().slice(0, 10);
    return isCompleteDay(day) ? day : undefined;
  }),
);

/** The two filters of a list's day range: the start (`…Gte`) and the end (`…Lte`). */
type DayKeys<Shape extends z.core.$ZodShape> = readonly [FilterKey<Shape>, FilterKey<Shape>];

export function defineListSearch<
  Shape extends z.core.$ZodShape,
  Days extends DayKeys<Shape> | undefined = undefined,
>(
  filters: z.ZodMiniObject<Shape>,
  /** `days`: the filters a DayRange sets, held in the URL as days (see `DaySearch`). */
  { days }: { days?: Days } = {},
) {
  type K = FilterKey<Shape>;
  const filterKeys = Object.keys(filters.shape).filter((key) => key !== 'subOrgId') as K[];
  const scoped = 'subOrgId' in filters.shape;
  const dayKeys: readonly string[] = days ?? [];
  const shape: Record<string, z.ZodMiniType> = {};
  for (const key of filterKeys)
    shape[key] = z.catch(
      z.optional(dayKeys.includes(key) ? DaySearch : filters.shape[key]!),
      undefined,
    );
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
    /** Whether the search names a day, so its list call needs the member's time zone. */
    hasDays: (search: Search): boolean =>
      dayKeys.some((key) => (search as Record<string, unknown>)[key] !== undefined),
    /**
     * What a list's loader depends on: the search without its page number
     * (days still days). Its `toListParams` is the search's.
     */
    listDeps: (search: Search): Search => compact({ ...search, page: undefined }) as Search,
    /**
     * The list call (and query key) for a search: the filters, the scope as
     * `subOrgId`, and the current cursor — not the history. A list with a
     * day range takes the member's time zone: its start day becomes the
     * first instant of that day there, its end day the last.
     */
    toListParams: (
      search: Search,
      ...zone: Days extends undefined ? [] : [timeZone: string]
    ): ListParams<z.output<z.ZodMiniObject<Shape>>> => {
      const params: Record<string, unknown> = compact({
        ...pickFilters(search),
        ...(scoped ? { subOrgId: (search as { subOrg?: string }).subOrg } : {}),
        cursor: search.cursor,
      });
      const [start, end] = dayKeys;
      const [timeZone] = zone as [string?];
      // Only days (the URL's schema holds nothing else there) become instants.
      const dayAt = (key: string | undefined) => {
        const value = key === undefined ? undefined : params[key];
        return typeof value === 'string' && isCompleteDay(value) ? value : undefined;
      };
      const [startDay, endDay] = [dayAt(start), dayAt(end)];
      if (timeZone !== undefined) {
        if (start && startDay) params[start] = startOfDayIn(startDay, timeZone);
        if (end && endDay) params[end] = endOfDayIn(endDay, timeZone);
      }
      return params as ListParams<z.output<z.ZodMiniObject<Shape>>>;
    },
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
