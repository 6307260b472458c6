import { approvalInbox } from '#contract/endpoints/approvals.ts';
import { apiClient, type ApprovalInboxParams } from './api-client.ts';
import { APPROVAL_INBOX_KEY, inboxRefresh } from './approval-inbox-count.ts';
import { listQueries } from './list-queries.ts';

/**
 * The approvals inbox's pages (GET /api/console/approvals/), keyed under
 * APPROVAL_INBOX_KEY with its count (approval-inbox-count.ts), so that any
 * decision's invalidation reaches both. In lib because the inbox page and an
 * item's page (which offers the next item) both read it.
 */
export const approvalInboxQueries = listQueries(
  APPROVAL_INBOX_KEY[0],
  (params: ApprovalInboxParams, signal) =>
    apiClient.call(approvalInbox, { query: params }, { signal }),
  { refetchInterval: inboxRefresh },
);
