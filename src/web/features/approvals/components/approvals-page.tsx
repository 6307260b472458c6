import { useQuery } from '@tanstack/react-query';
import { CursorListPage } from '../../../components/cursor-list.tsx';
import { approvalInboxQueries } from '../../../lib/approval-inbox-queries.ts';
import { approvalInboxSearch, type ApprovalInboxSearch } from '../search.ts';
import { ApprovalsTable, ApprovalsTableSkeleton } from './approvals-table.tsx';

const NOUNS = {
  list: 'the approvals inbox',
  title: 'Approvals',
  one: 'item waiting for a decision',
  many: 'items waiting for a decision',
};

/**
 * `/approvals`: every transaction and bank account waiting for a decision,
 * newest first, in the member's scope. Each item opens its own page, where
 * the decision is made with what is being approved in full view; items the
 * member created are listed but marked, as another member must decide them.
 */
export function ApprovalsPage({
  search,
  onSearchChange,
}: {
  search: ApprovalInboxSearch;
  onSearchChange: (next: ApprovalInboxSearch) => void;
}) {
  const query = useQuery(approvalInboxQueries.list(approvalInboxSearch.toListParams(search)));
  const counts = query.data;
  return (
    <CursorListPage
      id="approvals"
      nouns={NOUNS}
      query={query}
      search={search}
      onSearchChange={onSearchChange}
      skeleton={<ApprovalsTableSkeleton />}
      filters={
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
      {(rows, busy) => <ApprovalsTable items={rows} busy={busy} />}
    </CursorListPage>
  );
}
