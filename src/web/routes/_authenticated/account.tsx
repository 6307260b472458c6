import { createFileRoute } from '@tanstack/react-router';
import { accountQueries } from '../../features/session/api/account-queries.ts';
import { AccountPage } from '../../features/session/components/account-page.tsx';
import { useSession } from '../../lib/session-queries.ts';

export const Route = createFileRoute('/_authenticated/account')({
  // A failed load is shown in the page with a retry, not as a route error.
  loader: ({ context: { queryClient } }) =>
    queryClient.ensureQueryData(accountQueries.secondFactor()).then(
      () => undefined,
      () => undefined,
    ),
  component: AccountRoute,
});

function AccountRoute() {
  return <AccountPage session={useSession()} />;
}
