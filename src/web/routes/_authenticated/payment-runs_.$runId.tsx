import { createFileRoute } from '@tanstack/react-router';
import { paymentRunQueries } from '../../features/payment-runs/api/payment-run-queries.ts';
import { PaymentRunPage } from '../../features/payment-runs/components/payment-run-page.tsx';
import { useCan } from '../../lib/permissions.ts';

export const Route = createFileRoute('/_authenticated/payment-runs_/$runId')({
  loader: async ({ context: { queryClient }, params }) => {
    // A 404 or no-access answer is the page's to explain, not a route error.
    await queryClient
      .ensureQueryData(paymentRunQueries.detail(params.runId))
      .catch(() => undefined);
  },
  component: PaymentRunRoute,
});

function PaymentRunRoute() {
  const { runId } = Route.useParams();
  const canInitiate = useCan('create-payment-run');
  const navigate = Route.useNavigate();
  return (
    <PaymentRunPage
      runId={runId}
      canInitiate={canInitiate}
      onScheduled={() => void navigate({ to: '/payment-runs/schedules' })}
    />
  );
}
