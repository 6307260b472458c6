import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { approvalInboxCount } from '#contract/endpoints/approval-counts.ts';
import { apiClient } from './api-client.ts';
import { isLive } from './live-updates.ts';

/**
 * The approvals inbox's key and its count, for the navigation's badge on
 * every page (the inbox's pages are approval-inbox-queries.ts, loaded with
 * the pages that list them). In lib, not in a feature, because every
 * decision (transactions, bank accounts and contacts alike) must drop the
 * count without a reload.
 */

/** Every inbox read is keyed under this: the count, the pages, an item's progress. */
export const APPROVAL_INBOX_KEY = ['approvals'] as const;

// Items arrive without anyone acting in this tab (another member proposes). While the
// event stream is up (lib/live-updates.ts) everything that enters or leaves the inbox or
// moves an item's approvals is pushed (a transaction's status, a bank account's or a
// contact's proposal and decision, a vote under a policy) and refetches it at once: no
// polling. While the stream is down, it re-reads every 30 s while the tab is visible;
// TanStack Query also re-reads on focus.
const INBOX_REFRESH_MS = 30_000;
export const inboxRefresh = () => (isLive() ? false : INBOX_REFRESH_MS);

/** The counts alone (GET /api/console/approvals/count/). */
export const approvalInboxCountQuery = (subOrgId: string | undefined) =>
  queryOptions({
    queryKey: [...APPROVAL_INBOX_KEY, 'count', subOrgId ?? null] as const,
    queryFn: ({ signal }) =>
      apiClient.call(approvalInboxCount, { query: { subOrgId } }, { signal }),
    refetchInterval: inboxRefresh,
    select: (counts) => counts.actionableCount,
  });

/** After any decision: the inbox and its count are stale, whichever item was decided. */
export function invalidateApprovalInbox(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: APPROVAL_INBOX_KEY });
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
  return useQuery({ ...approvalInboxCountQuery(subOrgId), enabled }).data;
}
