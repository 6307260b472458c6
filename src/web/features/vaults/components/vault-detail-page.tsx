import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { chainLabel } from '#contract/chains.ts';
import { formatAmount, formatUsd, sum } from '#contract/decimal.ts';
import type { DetailedBalance } from '#contract/vault.ts';
import { CopyButton } from '../../../components/copy-button.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { Fact } from '../../../components/fact.tsx';
import { Panel } from '../../../components/panel.tsx';
import { QrCode } from '../../../components/qr-code.tsx';
import { EmptyState, ErrorState } from '../../../components/query-state.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { humanize } from '../../../lib/labels.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { vaultQueries } from '../api/vault-queries.ts';

const linkClass = 'text-sm font-medium text-blue-800 underline hover:text-blue-900';

function BackToVaults() {
  return (
    <p>
      <Link to="/vaults" className={linkClass}>
        Back to the vaults
      </Link>
    </p>
  );
}

function Balances({ vaultId, vaultName }: { vaultId: string; vaultName: string }) {
  const balances = useQuery(vaultQueries.balances(vaultId));
  if (balances.isPending) return <Skeleton className="mt-3 h-32 w-full" />;
  if (balances.isError)
    return (
      <div className="mt-3">
        <ErrorState
          title="Its balances could not be loaded"
          error={balances.error}
          onRetry={() => void balances.refetch()}
          retrying={balances.isFetching}
        />
      </div>
    );
  const lines: DetailedBalance[] = balances.data;
  if (lines.length === 0)
    return (
      <div className="mt-3">
        <EmptyState title="Nothing held yet: deposit to an address below" />
      </div>
    );
  const total = sum(lines.flatMap((l) => (l.balanceInUSD ? [l.balanceInUSD] : [])));
  return (
    <div className="mt-3 flex flex-col gap-2">
      <p className="text-sm text-slate-700">
        Worth{' '}
        <span className="font-medium text-slate-900" data-testid="vault-total">
          {formatUsd(total)} USD
        </span>{' '}
        in all, read <DateTime iso={new Date(balances.dataUpdatedAt).toISOString()} />.
      </p>
      <div
        className="overflow-x-auto rounded-lg border border-slate-300"
        role="region"
        aria-label={`Balances of ${vaultName} table`}
        tabIndex={0}
      >
        <table className="w-full border-collapse text-left text-sm">
          <caption className="sr-only">{`What ${vaultName} holds, per asset and chain`}</caption>
          <thead className="bg-slate-100">
            <tr>
              {['Asset', 'Chain', 'Held', 'Price (USD)', 'Value (USD)'].map((h, i) => (
                <th
                  key={h}
                  scope="col"
                  className={`px-3 py-2 font-medium text-slate-700 ${i >= 2 ? 'text-right' : ''}`}
                >
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {lines.map((line) => (
              <tr
                key={`${line.symbol}/${line.chain ?? ''}`}
                data-balance={`${line.symbol}/${line.chain ?? ''}`}
                className="border-t border-slate-200"
              >
                <th scope="row" className="px-3 py-2 font-medium">
                  {line.symbol}
                  {line.name ? (
                    <span className="block text-xs font-normal text-slate-700">{line.name}</span>
                  ) : null}
                </th>
                <td className="px-3 py-2">{chainLabel(line.chain ?? undefined)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{formatAmount(line.balance)}</td>
                <td className="px-3 py-2 text-right tabular-nums">
                  {line.price ? formatUsd(line.price) : 'No price'}
                </td>
                <td className="px-3 py-2 text-right tabular-nums">
                  {line.balanceInUSD ? formatUsd(line.balanceInUSD) : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** `/vaults/$vaultId`: what a vault holds, where to deposit into it, and its transactions. */
export function VaultDetailPage({
  vaultId,
  transactions,
}: {
  vaultId: string;
  /** Its transactions (the transactions list filtered by it), composed by the route. */
  transactions: (vaultName: string) => ReactNode;
}) {
  const vault = useQuery(vaultQueries.detail(vaultId));
  const subOrgs = useQuery(referenceQueries.subOrgs());

  if (vault.isPending)
    return (
      <section aria-busy="true" aria-label="Loading the vault" className="flex flex-col gap-3">
        <Skeleton className="h-8 w-72" />
        <Skeleton className="h-64 w-full" />
      </section>
    );
  if (vault.isError)
    return (
      <section className="flex flex-col gap-4">
        <title>Vault · Custody Console</title>
        <BackToVaults />
        <h1 className="text-2xl font-semibold text-slate-900">Vault</h1>
        <ErrorState
          title="This vault could not be loaded"
          error={vault.error}
          onRetry={() => void vault.refetch()}
          retrying={vault.isFetching}
        />
      </section>
    );

  const data = vault.data;
  const name = data.vaultName || 'Vault';
  const subOrgName = data.subOrgId
    ? (subOrgs.data?.results.find((s) => s.id === data.subOrgId)?.name ?? data.subOrgId)
    : 'Whole organization';
  const wallets = (data.wallets ?? []).filter((w) => w.address);
  return (
    // The first screen the server renders ends here (entry-server.tsx).
    <section id="vault-page" aria-labelledby="vault-title" className="flex flex-col gap-6">
      <title>{`${name} · Vaults · Custody Console`}</title>
      <BackToVaults />
      <div className="flex flex-wrap items-center gap-3">
        <h1 id="vault-title" className="text-2xl font-semibold break-words text-slate-900">
          {name}
        </h1>
        {data.vaultType ? <Badge tone="info">{humanize(data.vaultType)}</Badge> : null}
      </div>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <Fact term="Sub-organization">{subOrgName}</Fact>
        <Fact term="Created">{data.createdAt ? <DateTime iso={data.createdAt} /> : '—'}</Fact>
        <Fact term="Vault ID">
          <span className="font-mono break-all">{vaultId}</span>
        </Fact>
      </dl>
      <Panel title="Balances">
        <Balances vaultId={vaultId} vaultName={name} />
      </Panel>
      <Panel title="Deposit addresses">
        <p className="mt-1 text-sm text-slate-700">
          Send only the chain’s own assets to each address; check the whole address before sending.
        </p>
        {wallets.length === 0 ? (
          <p className="mt-3 text-sm text-slate-700">This vault has no wallet yet.</p>
        ) : (
          <ul className="mt-3 flex flex-col divide-y divide-slate-200">
            {wallets.map((w) => {
              const chain = chainLabel(w.blockchain);
              const address = w.address ?? '';
              return (
                <li key={w.id ?? w.blockchain} className="py-3" data-wallet={w.blockchain}>
                  <p className="font-medium text-slate-900">{chain}</p>
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-mono text-sm break-all" data-testid="wallet-address">
                      {address}
                    </span>
                    <CopyButton value={address} label={`Copy the ${chain} deposit address`} />
                  </p>
                  <details className="mt-1 text-sm">
                    <summary className="cursor-pointer text-blue-800 underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700">
                      Show a QR code of the {chain} address
                    </summary>
                    <div className="mt-2">
                      <QrCode
                        value={address}
                        label={`QR code of the ${chain} deposit address ${address}`}
                      />
                    </div>
                  </details>
                </li>
              );
            })}
          </ul>
        )}
      </Panel>
      <Panel title="Transactions">{transactions(name)}</Panel>
    </section>
  );
}
