import { createFileRoute } from '@tanstack/react-router';
import { scheduleQueries } from '../../features/payment-runs/api/schedule-queries.ts';
import { PaymentRunSchedulesPage } from '../../features/payment-runs/components/payment-run-schedules-page.tsx';
import { useCan } from '../../lib/permissions.ts';

export const Route = createFileRoute('/_authenticated/payment-runs_/schedules')({
  loader: async ({ context: { queryClient } }) => {
    // A failed list is the page's to show, with a retry, not a route error.
    await queryClient.ensureQueryData(scheduleQueries.list()).catch(() => undefined);
  },
  component: PaymentRunSchedulesRoute,
});

function PaymentRunSchedulesRoute() {
  const canChange = useCan('create-payment-run');
  return <PaymentRunSchedulesPage canChange={canChange} />;
}
