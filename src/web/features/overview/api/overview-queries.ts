import { queryOptions } from '@tanstack/react-query';
import { overview } from '#contract/endpoints/overview.ts';
import { apiClient } from '../../../lib/api-client.ts';

/**
 * The home page's figures (GET /api/console/overview/). Balances move when a
 * transfer completes, in this tab or anyone's: re-read every few seconds
 * while the page is visible (TanStack Query pauses the interval in a hidden
 * tab: refetchIntervalInBackground is false), and on focus.
 */
export const OVERVIEW_REFRESH_MS = 10_000;

export const overviewQueries = {
  all: () => ['overview'] as const,
  get: (params: { subOrgId: string | undefined; timeZone: string }) =>
    queryOptions({
      queryKey: [...overviewQueries.all(), params] as const,
      queryFn: ({ signal }) => apiClient.call(overview, { query: params }, { signal }),
      refetchInterval: OVERVIEW_REFRESH_MS,
      refetchIntervalInBackground: false,
    }),
};
