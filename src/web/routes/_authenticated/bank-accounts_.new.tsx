import { createFileRoute } from '@tanstack/react-router';
import { NoAccess } from '../../components/no-access.tsx';
import { ProposeBankAccountPage } from '../../features/bank-accounts/components/propose-bank-account-page.tsx';
import { useCan } from '../../lib/permissions.ts';

export const Route = createFileRoute('/_authenticated/bank-accounts_/new')({
  component: ProposeBankAccountRoute,
});

function ProposeBankAccountRoute() {
  const allowed = useCan('create-bank-account');
  const { subOrg } = Route.useSearch();
  const navigate = Route.useNavigate();
  if (!allowed) return <NoAccess title="proposing bank accounts" />;
  return (
    <ProposeBankAccountPage
      subOrgId={subOrg}
      onProposed={(account) => {
        if (!account.id) return;
        void navigate({
          to: '/bank-accounts/$bankAccountId',
          params: { bankAccountId: account.id },
          search: { subOrg },
        });
      }}
    />
  );
}
