import { createFileRoute } from '@tanstack/react-router';
import { bankAccountQueries } from '../../features/bank-accounts/api/bank-account-queries.ts';
import { BankAccountDetailPage } from '../../features/bank-accounts/components/bank-account-detail-page.tsx';
import { rampQueries } from '../../features/ramps/api/ramp-queries.ts';
import { approvalProgressQuery } from '../../lib/approval-progress-queries.ts';
import { BankAccountRamps } from '../../features/ramps/components/bank-account-ramps.tsx';
import { useSession } from '../../lib/session-queries.ts';
import { useCan } from '../../lib/permissions.ts';

export const Route = createFileRoute('/_authenticated/bank-accounts_/$bankAccountId')({
  loader: async ({ context: { queryClient }, params }) => {
    // History loads beside the account; failures show in the page with a retry.
    void queryClient.prefetchQuery(bankAccountQueries.history(params.bankAccountId));
    void queryClient.prefetchQuery(rampQueries.ofBankAccount(params.bankAccountId));
    const account = await queryClient
      .ensureQueryData(bankAccountQueries.detail(params.bankAccountId))
      .catch(() => undefined);
    // A waiting account's approvals so far, in the first HTML: loaded after it, they pushed
    // the Approve and Decline buttons down under a pointer about to press them.
    if (account?.status === 'PENDING')
      void queryClient.prefetchQuery(approvalProgressQuery(params.bankAccountId));
  },
  component: BankAccountDetailRoute,
});

function BankAccountDetailRoute() {
  const { bankAccountId } = Route.useParams();
  const session = useSession();
  const canReveal = useCan('reveal-bank-account');
  const canApprove = useCan('approve');
  return (
    <BankAccountDetailPage
      bankAccountId={bankAccountId}
      permissions={{ memberId: session?.member.id, canReveal, canApprove }}
      extras={<BankAccountRamps bankAccountId={bankAccountId} />}
    />
  );
}
