import { createFileRoute } from '@tanstack/react-router';
import { transactionDetailQuery } from '../../features/transactions/api/get-transaction.ts';
import {
  startTransactionHistory,
  transactionHistoryQuery,
} from '../../features/transactions/api/transaction-history.ts';
import { TransactionDetailPage } from '../../features/transactions/components/transaction-detail-page.tsx';
import { RampDetails } from '../../features/ramps/components/ramp-details.tsx';
import { RampApprovalFacts } from '../../features/ramps/components/ramp-approval-facts.tsx';
import { SwapDetails } from '../../features/ramps/components/swap-details.tsx';
import { approvalCardQuery } from '../../lib/approval-card-queries.ts';
import { approvalProgressQuery } from '../../lib/approval-progress-queries.ts';
import { referenceQueries } from '../../lib/reference-queries.ts';

// Not nested in the list's route: the detail is a page of its own, and the
// list's search params stay in the history entry Back returns to.
export const Route = createFileRoute('/_authenticated/transactions_/$transactionId')({
  loader: async ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(referenceQueries.vaults());
    const detail = transactionDetailQuery(params.transactionId);
    // Who created and decided it, started with the page rather than when it
    // renders: a server render waits for it, so the names are in the first HTML.
    // With no copy of the transaction yet (a first load, the server's render) it
    // is asked for beside the transaction rather than after it: its key names
    // the status, its answer does not depend on it.
    const early =
      queryClient.getQueryData(detail.queryKey) === undefined
        ? startTransactionHistory(params.transactionId)
        : undefined;
    // A 404 or no-access answer is the page's to explain, not a route error.
    const snapshot = await queryClient.ensureQueryData(detail).catch(() => undefined);
    if (snapshot) {
      const { status } = snapshot.transaction;
      void queryClient.prefetchQuery(
        early ? early(status) : transactionHistoryQuery(params.transactionId, status),
      );
    }
    // What a waiting transaction's approver decides on, likewise in the first HTML.
    // Its approvals so far too: loaded after the page, they pushed the decision's buttons down.
    if (snapshot?.transaction.status === 'PENDING') {
      void queryClient.prefetchQuery(approvalCardQuery(params.transactionId));
      void queryClient.prefetchQuery(approvalProgressQuery(params.transactionId));
    }
  },
  component: TransactionDetailRoute,
});

function TransactionDetailRoute() {
  const { transactionId } = Route.useParams();
  return (
    <TransactionDetailPage
      transactionId={transactionId}
      extras={(transaction, refresh) => (
        <>
          <RampDetails transaction={transaction} refresh={refresh} />
          <SwapDetails transaction={transaction} />
        </>
      )}
      decisionExtras={(transaction) => <RampApprovalFacts transaction={transaction} />}
    />
  );
}
