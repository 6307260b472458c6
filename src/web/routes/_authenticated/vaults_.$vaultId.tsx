import { createFileRoute } from '@tanstack/react-router';
import {
  VaultTransactions,
  vaultTransactionsQuery,
} from '../../features/transactions/components/vault-transactions.tsx';
import { vaultQueries } from '../../features/vaults/api/vault-queries.ts';
import { VaultDetailPage } from '../../features/vaults/components/vault-detail-page.tsx';

export const Route = createFileRoute('/_authenticated/vaults_/$vaultId')({
  loader: async ({ context: { queryClient }, params }) => {
    // Its balances, addresses and newest transactions are the first screen: read together.
    await Promise.all(
      [
        vaultQueries.detail(params.vaultId),
        vaultQueries.balances(params.vaultId),
        vaultTransactionsQuery(params.vaultId),
      ].map((query) => queryClient.ensureQueryData(query as never).catch(() => undefined)),
    );
  },
  component: VaultDetailRoute,
});

function VaultDetailRoute() {
  const { vaultId } = Route.useParams();
  return (
    <VaultDetailPage
      vaultId={vaultId}
      transactions={(vaultName) => <VaultTransactions vaultId={vaultId} vaultName={vaultName} />}
    />
  );
}
