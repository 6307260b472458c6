import { useQuery } from '@tanstack/react-query';
import type { ApprovalItem } from '../../../../contract/approval-inbox.ts';
import {
  CursorListPage,
  type CursorListSpec,
  type ListPageProps,
} from '../../../components/cursor-list.tsx';
import { approvalInboxQueries } from '../../../lib/approval-inbox-queries.ts';
import { approvalInboxSearch, type ApprovalInboxSearch } from '../search.ts';
import { APPROVALS_TABLE, ApprovalRow } from './approvals-table.tsx';

const APPROVALS_LIST: CursorListSpec<ApprovalItem, ApprovalInboxSearch, object> = {
  id: 'approvals',
  nouns: {
    list: 'the approvals inbox',
    title: 'Approvals',
    one: 'item waiting for a decision',
    many: 'items waiting for a decision',
  },
  search: approvalInboxSearch,
  table: APPROVALS_TABLE,
};

/**
 * `/approvals`: every transaction and bank account waiting for a decision,
 * newest first, in the member's scope. Each item opens its own page, where
 * the decision is made with what is being approved in full view; items the
 * member created are listed but marked, as another member must decide them.
 */
export function ApprovalsPage(props: ListPageProps<ApprovalInboxSearch>) {
  const query = useQuery(approvalInboxQueries.list(approvalInboxSearch.toListParams(props.search)));
  const counts = query.data;
  return (
    <CursorListPage
      spec={APPROVALS_LIST}
      query={query}
      {...props}
      intro={
        counts ? (
          <p className="text-sm text-slate-700">
            {counts.actionableCount === 1
              ? '1 item waits for your decision'
              : `${counts.actionableCount} items wait for your decision`}
            {counts.totalCount > counts.actionableCount
              ? `; ${counts.totalCount - counts.actionableCount} of yours wait for another member.`
              : '.'}
          </p>
        ) : null
      }
    >
      {(item) => <ApprovalRow item={item} />}
    </CursorListPage>
  );
}
