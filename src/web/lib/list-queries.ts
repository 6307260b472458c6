import { keepPreviousData, queryOptions } from '@tanstack/react-query';

/**
 * The key factory of a cursor-paged list, general to specific (`all`,
 * `lists()`, `list(params)`), so `invalidateQueries({ queryKey: x.lists() })`
 * after a create refreshes every page and filter combination at once, and
 * `x.all()` also reaches whatever the feature keys under it (details).
 * The current page stays on screen while the next one loads (placeholder
 * data); `refresh` says how fresh a page must be and how often it re-reads.
 */
export function listQueries<Name extends string, Params, Page>(
  name: Name,
  fetchPage: (params: Params, signal: AbortSignal) => Promise<Page>,
  // A function is read at each turn: the inbox's slows down while lib/live-updates.ts's stream is up.
  refresh: { staleTime?: number; refetchInterval?: number | (() => number | false) } = {},
) {
  const all = () => [name] as const;
  const lists = () => [name, 'list'] as const;
  return {
    all,
    lists,
    list: (params: Params) =>
      queryOptions({
        queryKey: [...lists(), params] as const,
        queryFn: ({ signal }) => fetchPage(params, signal),
        placeholderData: keepPreviousData,
        ...refresh,
      }),
  };
}
