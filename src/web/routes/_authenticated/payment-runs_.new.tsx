import { createFileRoute } from '@tanstack/react-router';
import { NoAccess } from '../../components/no-access.tsx';
import { NewPaymentRunPage } from '../../features/payment-runs/components/new-payment-run-page.tsx';
import { useCan } from '../../lib/permissions.ts';

export const Route = createFileRoute('/_authenticated/payment-runs_/new')({
  component: NewPaymentRunRoute,
});

function NewPaymentRunRoute() {
  const allowed = useCan('create-payment-run');
  const { subOrg } = Route.useSearch();
  const navigate = Route.useNavigate();
  if (!allowed) return <NoAccess title="creating payment runs" />;
  return (
    <NewPaymentRunPage
      subOrgId={subOrg}
      onCreated={(run) =>
        void navigate({ to: '/payment-runs/$runId', params: { runId: run.id }, search: { subOrg } })
      }
    />
  );
}
