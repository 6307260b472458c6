import { createFileRoute } from '@tanstack/react-router';
import { transactionDetailQuery } from '../../features/transactions/api/get-transaction.ts';
import { transactionHistoryQuery } from '../../features/transactions/api/transaction-history.ts';
import { TransactionDetailPage } from '../../features/transactions/components/transaction-detail-page.tsx';
import { RampDetails } from '../../features/ramps/components/ramp-details.tsx';
import { RampApprovalFacts } from '../../features/ramps/components/ramp-approval-facts.tsx';
import { SwapDetails } from '../../features/ramps/components/swap-details.tsx';
import { approvalCardQuery } from '../../lib/approval-card-queries.ts';
import { referenceQueries } from '../../lib/reference-queries.ts';

// Not nested in the list's route: the detail is a page of its own, and the
// list's search params stay in the history entry Back returns to.
export const Route = createFileRoute('/_authenticated/transactions_/$transactionId')({
  loader: async ({ context: { queryClient }, params }) => {
    void queryClient.prefetchQuery(referenceQueries.vaults());
    // A 404 or no-access answer is the page's to explain, not a route error.
    const snapshot = await queryClient
      .ensureQueryData(transactionDetailQuery(params.transactionId))
      .catch(() => undefined);
    // Who created and decided it, started with the page rather than when it
    // renders: a server render waits for it, so the names are in the first HTML.
    if (snapshot)
      void queryClient.prefetchQuery(
        transactionHistoryQuery(params.transactionId, snapshot.transaction.status),
      );
    // What a waiting transaction's approver decides on, likewise in the first HTML.
    if (snapshot?.transaction.status === 'PENDING')
      void queryClient.prefetchQuery(approvalCardQuery(params.transactionId));
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
