import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { approvalInbox, approvalInboxCount } from '#contract/endpoints/approvals.ts';
import { apiClient, type ApprovalInboxParams } from './api-client.ts';
import { isLive } from './live-updates.ts';
import { listQueries } from './list-queries.ts';

/**
 * The approvals inbox (GET /api/console/approvals/) and the navigation's
 * count of it. In lib, not in a feature, because three places use it: the
 * inbox page, the layout's badge, and every decision (transactions and bank
 * accounts alike), which must drop the count without a reload.
 */

// Items arrive without anyone acting in this tab (another member proposes). While the
// event stream is up (lib/live-updates.ts) everything that enters or leaves the inbox or
// moves an item's approvals is pushed (a transaction's status, a bank account's or a
// contact's proposal and decision, a vote under a policy) and refetches it at once: no
// polling. While the stream is down, it re-reads every 30 s while the tab is visible;
// TanStack Query also re-reads on focus.
const INBOX_REFRESH_MS = 30_000;
const inboxRefresh = () => (isLive() ? false : INBOX_REFRESH_MS);

const inboxLists = listQueries(
  'approvals',
  (params: ApprovalInboxParams, signal) =>
    apiClient.call(approvalInbox, { query: params }, { signal }),
  { refetchInterval: inboxRefresh },
);

export const approvalInboxQueries = {
  ...inboxLists,
  /** The count alone (GET /api/console/approvals/count/). */
  count: (subOrgId: string | undefined) =>
    queryOptions({
      queryKey: [...inboxLists.all(), 'count', subOrgId ?? null] as const,
      queryFn: ({ signal }) =>
        apiClient.call(approvalInboxCount, { query: { subOrgId } }, { signal }),
      refetchInterval: inboxRefresh,
      select: (counts) => counts.actionableCount,
    }),
};

/** After any decision: the inbox and its count are stale, whichever item was decided. */
export function invalidateApprovalInbox(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: approvalInboxQueries.all() });
}

/**
 * How many items in the scope wait for this member's decision, for the
 * navigation's badge; undefined while unknown or when `enabled` is false
 * (roles that do not decide are never asked: the server would refuse them).
 */
export function useApprovalInboxCount(
  subOrgId: string | undefined,
  enabled: boolean,
): number | undefined {
  return useQuery({ ...approvalInboxQueries.count(subOrgId), enabled }).data;
}
