import { ApprovalInboxFilters } from '#contract/approval-inbox-counts.ts';
import { defineListSearch, type ListSearchOf } from '../../lib/list-search.ts';

/** `/approvals` search params: no filters of its own, the scope and the cursor stack. */
export const approvalInboxSearch = defineListSearch(ApprovalInboxFilters);
export type ApprovalInboxSearch = ListSearchOf<typeof approvalInboxSearch>;
