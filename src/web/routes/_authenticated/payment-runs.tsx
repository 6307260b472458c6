import { createFileRoute } from '@tanstack/react-router';
import { paymentRunQueries } from '../../features/payment-runs/api/payment-run-queries.ts';
import { PaymentRunsPage } from '../../features/payment-runs/components/payment-runs-page.tsx';
import { useCan } from '../../lib/permissions.ts';

export const Route = createFileRoute('/_authenticated/payment-runs')({
  loader: async ({ context: { queryClient } }) => {
    // A failed list is the page's to show, with a retry, not a route error.
    await queryClient.ensureQueryData(paymentRunQueries.list()).catch(() => undefined);
  },
  component: PaymentRunsRoute,
});

function PaymentRunsRoute() {
  const canCreate = useCan('create-payment-run');
  return <PaymentRunsPage canCreate={canCreate} />;
}
