import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { chainLabel } from '#contract/chains.ts';
import { formatUsd } from '#contract/decimal-format.ts';
import { DataTable } from '../../../components/data-table.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { PageSection } from '../../../components/page-section.tsx';
import { EmptyState, ErrorState } from '../../../components/query-state.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { TableCell, TableRow } from '../../../components/ui/table.tsx';
import { humanize } from '../../../lib/labels.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { vaultQueries } from '../api/vault-queries.ts';

const VAULTS_TABLE = {
  label: 'Vaults',
  caption: 'Vaults by name, with their chains and value in USD',
  columns: [
    'Name',
    'Type',
    'Sub-organization',
    'Chains',
    { name: 'Value', header: 'Value (USD)', className: 'text-right' },
  ],
};

/** `/vaults`: every vault in the scope, what kind it is, where it holds and what it is worth. */
export function VaultsPage({ subOrgId }: { subOrgId: string | undefined }) {
  const list = useQuery(vaultQueries.list(subOrgId));
  const subOrgs = useQuery(referenceQueries.subOrgs());
  const subOrgName = (id: string | null) =>
    id ? (subOrgs.data?.results.find((s) => s.id === id)?.name ?? id) : 'Whole organization';
  return (
    <PageSection name="vaults" heading="Vaults" className="gap-4">
      {list.isPending ? (
        <Skeleton className="h-64 w-full" />
      ) : list.isError ? (
        <ErrorState
          title="The vaults could not be loaded"
          error={list.error}
          onRetry={() => void list.refetch()}
          retrying={list.isFetching}
        />
      ) : list.data.vaults.length === 0 ? (
        <EmptyState title="No vaults in this scope" />
      ) : (
        <>
          <p className="text-sm text-slate-700">
            {list.data.vaults.length} vault{list.data.vaults.length === 1 ? '' : 's'} holding{' '}
            <span className="font-medium text-slate-900" data-testid="vaults-total">
              {formatUsd(list.data.totalUsd)} USD
            </span>
            ,{' '}
            {list.data.priceSource === 'SANDBOX_REFERENCE'
              ? 'at the sandbox’s reference prices'
              : 'as the custody service values it'}
            , read <DateTime iso={list.data.pricedAt} />.
          </p>
          <DataTable spec={VAULTS_TABLE} rows={list.data.vaults}>
            {(vault) => (
              <TableRow data-vault-id={vault.id}>
                <TableCell>
                  <Link
                    to="/vaults/$vaultId"
                    params={{ vaultId: vault.id }}
                    className="font-medium text-blue-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
                  >
                    {vault.name}
                  </Link>
                </TableCell>
                <TableCell>
                  <Badge tone={vault.vaultType === 'DEFAULT' ? 'neutral' : 'info'}>
                    {humanize(vault.vaultType) || 'Unknown'}
                  </Badge>
                </TableCell>
                <TableCell>{subOrgName(vault.subOrgId)}</TableCell>
                <TableCell>
                  <span className="block max-w-72">
                    {vault.chains.map((c) => chainLabel(c)).join(', ') || '—'}
                  </span>
                </TableCell>
                <TableCell className="text-right whitespace-nowrap tabular-nums">
                  {vault.unread ? (
                    <span className="text-slate-700">Balances unavailable</span>
                  ) : (
                    formatUsd(vault.usd)
                  )}
                </TableCell>
              </TableRow>
            )}
          </DataTable>
        </>
      )}
    </PageSection>
  );
}
