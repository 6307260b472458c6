import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { chainLabel } from '#contract/chains.ts';
import { formatAmount, isNegative, isZero } from '#contract/decimal.ts';
import { isTerminalStatus } from '#contract/enums.ts';
import type { BalanceChange, Party, Transaction } from '#contract/transaction.ts';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { explorerTxUrl } from '../../../lib/explorers.ts';
import { humanize } from '../../../lib/labels.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { CopyButton } from '../../../components/copy-button.tsx';
import { ContractCallRows } from './contract-call-details.tsx';
import { PeopleRows } from './people.tsx';
import { FeeCharged, UsdEquivalent } from './usd-equivalent.tsx';
import { Panel } from '../../../components/panel.tsx';

/** Every field of a transaction as the API describes it, in the order a reviewer reads them. */

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-1 gap-1 py-2 sm:grid-cols-[12rem_1fr]">
      <dt className="text-sm font-medium text-slate-700">{term}</dt>
      <dd className="min-w-0 text-slate-900">{children}</dd>
    </div>
  );
}

const None = () => <span className="text-slate-700">—</span>;

export function Mono({ children }: { children: ReactNode }) {
  return <span className="font-mono text-sm break-all">{children}</span>;
}

/** "+1.5" or "-1.5": a balance change always shows its direction in text, not only colour. */
export function signedAmount(amount: string): string {
  const formatted = formatAmount(amount);
  return isNegative(amount) || isZero(amount) ? formatted : `+${formatted}`;
}

export function PartyDetails({ party }: { party: Party | undefined }) {
  if (!party) return <None />;
  return (
    <span className="block">
      <span className="block font-medium">{party.name ?? humanize(party.type) ?? '—'}</span>
      <span className="block text-sm text-slate-700">
        {humanize(party.type)}
        {party.chain ? ` on ${chainLabel(party.chain)}` : ''}
      </span>
      {party.address ? (
        <span className="block">
          <Mono>{party.address}</Mono>
        </span>
      ) : null}
      {party.id ? <span className="block text-xs text-slate-700">ID {party.id}</span> : null}
      {party.type === 'VAULT' && party.id ? (
        <Link
          to="/vaults/$vaultId"
          params={{ vaultId: party.id }}
          className="block text-sm font-medium text-blue-800 underline hover:text-blue-900"
        >
          Open the vault<span className="sr-only"> {party.name ?? party.id}</span>
        </Link>
      ) : null}
    </span>
  );
}

/** What ended a transaction early, in words: a decline's reason is its approver's, not an error. */
export function endReasonTerm(tx: Pick<Transaction, 'status'>): string {
  return tx.status === 'DECLINED' ? 'Reason for declining' : 'Reason it failed';
}

/** The reason as a person wrote it: the sandbox records a decline's as "declined: <reason>". */
export function endReason(tx: Pick<Transaction, 'status' | 'error'>): string {
  const reason = tx.error?.replace(/^declined:\s*/i, '').trim();
  if (reason) return reason;
  return tx.status === 'DECLINED' ? 'No reason given by the approver' : 'No reason given';
}

export function TransactionSummary({ transaction: tx }: { transaction: Transaction }) {
  const vaults = useQuery(referenceQueries.vaults());
  const vault = vaults.data?.results.find((v) => v.id === tx.vaultId);
  const explorer = tx.txHash ? explorerTxUrl(tx.blockChain, tx.txHash) : undefined;
  const ended = isTerminalStatus(tx.status);
  return (
    <Panel title="Details">
      <dl className="mt-2 divide-y divide-slate-200">
        <Row term="Status">
          <StatusBadge status={tx.status} />
        </Row>
        {tx.status === 'FAILED' || tx.status === 'DECLINED' || tx.error ? (
          <Row term={endReasonTerm(tx)}>
            <span className="text-red-800">{endReason(tx)}</span>
          </Row>
        ) : null}
        <Row term="Category">
          {humanize(tx.category) || <None />}
          {tx.subCategory ? (
            <span className="text-slate-700"> · {humanize(tx.subCategory)}</span>
          ) : null}
          {tx.transactionType ? (
            <span className="text-slate-700"> · {humanize(tx.transactionType)}</span>
          ) : null}
        </Row>
        <Row term="Amount">
          {tx.amount ? (
            <span className="font-medium tabular-nums">
              {formatAmount(tx.amount)} {tx.asset}
            </span>
          ) : (
            <None />
          )}
          <UsdEquivalent value={tx.amountInUSD} />
        </Row>
        <Row term="Chain">{chainLabel(tx.blockChain) || <None />}</Row>
        <Row term="Vault">
          {tx.vaultId ? (
            <>
              <Link
                to="/vaults/$vaultId"
                params={{ vaultId: tx.vaultId }}
                className="font-medium text-blue-800 underline hover:text-blue-900"
              >
                {vault?.vaultName ?? 'Vault'}
              </Link>{' '}
              <span className="text-xs text-slate-700">ID {tx.vaultId}</span>
            </>
          ) : (
            <None />
          )}
        </Row>
        <Row term="Source">
          <PartyDetails party={tx.source} />
        </Row>
        {tx.category === 'CONTRACT_CALL' ? (
          <ContractCallRows transaction={tx} Row={Row} />
        ) : (
          <Row term="Destination">
            <PartyDetails party={tx.destination} />
          </Row>
        )}
        {/* A ramp's fee is its provider's, not a network's. */}
        <Row term={tx.quoteResponse ? 'Provider fee' : 'Network fee'}>
          <FeeCharged
            fees={tx.fees}
            none={
              <span className="text-slate-700">{ended ? 'None charged' : 'Not charged yet'}</span>
            }
          />
          {tx.gasParams?.feeTier ? (
            <span className="text-slate-700"> · {humanize(tx.gasParams.feeTier)} tier</span>
          ) : null}
        </Row>
        <Row term="Transaction hash">
          {tx.txHash ? (
            <span className="flex flex-wrap items-center gap-2">
              <Mono>{tx.txHash}</Mono>
              <CopyButton value={tx.txHash} label="Copy transaction hash" />
              {explorer ? (
                <a
                  href={explorer}
                  target="_blank"
                  rel="noreferrer noopener"
                  className="text-sm font-medium text-blue-800 underline hover:text-blue-900"
                >
                  View on {chainLabel(tx.blockChain)} explorer
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              ) : null}
            </span>
          ) : (
            <span className="text-slate-700">
              {ended ? 'Never reached the chain' : 'Not on the chain yet'}
            </span>
          )}
        </Row>
        {tx.nonce !== undefined ? <Row term="Nonce">{tx.nonce}</Row> : null}
        <Row term="Memo">{tx.memo ? <span className="break-words">{tx.memo}</span> : <None />}</Row>
        <Row term="External ID">{tx.externalId ? <Mono>{tx.externalId}</Mono> : <None />}</Row>
        <PeopleRows transaction={tx} Row={Row} />
        <Row term="Last updated">{tx.updatedAt ? <DateTime iso={tx.updatedAt} /> : <None />}</Row>
        <Row term="Transaction ID">
          <Mono>{tx.id}</Mono>
        </Row>
      </dl>
    </Panel>
  );
}

function ChangesTable({ changes, caption }: { changes: BalanceChange[]; caption: string }) {
  return (
    <table className="mt-2 w-full text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b border-slate-300 text-slate-700">
          <th scope="col" className="py-1 pr-3 font-medium">
            Party
          </th>
          <th scope="col" className="py-1 pr-3 font-medium">
            Chain
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            Change
          </th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change, i) => (
          <tr key={i} className="border-b border-slate-200 last:border-0">
            <td className="py-1 pr-3">
              {change.party?.name ?? change.party?.address ?? humanize(change.party?.type)}
            </td>
            <td className="py-1 pr-3">{chainLabel(change.chain)}</td>
            <td
              className={`py-1 text-right tabular-nums ${change.amount && isNegative(change.amount) ? 'text-red-800' : 'text-green-800'}`}
            >
              {change.amount ? `${signedAmount(change.amount)} ${change.asset ?? ''}` : '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The operations in sequence and the balance changes they made, once the transaction settled. */
export function TransactionMovements({ transaction: tx }: { transaction: Transaction }) {
  const operations = [...(tx.operations ?? [])].sort(
    (a, b) => (a.sequence ?? 0) - (b.sequence ?? 0),
  );
  const changes = tx.balanceChanges?.changes ?? [];
  return (
    <Panel title="Operations and balance changes">
      {operations.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700">
          {isTerminalStatus(tx.status)
            ? `None: the transaction ended ${humanize(tx.status).toLowerCase()} without settling.`
            : 'No operations yet: they are recorded when the transaction settles.'}
        </p>
      ) : (
        <ol className="mt-2 space-y-3">
          {operations.map((op, i) => (
            <li key={op.sequence ?? i} className="rounded-md border border-slate-200 p-3">
              <h3 className="font-medium text-slate-900">
                Operation {op.sequence ?? i + 1}: {humanize(op.type)}{' '}
                <StatusBadge status={op.status} />
              </h3>
              <p className="text-sm text-slate-700">
                From {op.source?.name ?? op.source?.address ?? humanize(op.source?.type) ?? '—'} to{' '}
                {op.destination?.name ??
                  op.destination?.address ??
                  humanize(op.destination?.type) ??
                  '—'}
              </p>
              {op.balanceChanges?.changes?.length ? (
                <ChangesTable
                  changes={op.balanceChanges.changes}
                  caption={`Balance changes of operation ${op.sequence ?? i + 1}`}
                />
              ) : null}
            </li>
          ))}
        </ol>
      )}
      <h3 className="mt-4 font-medium text-slate-900">Balance changes</h3>
      {changes.length === 0 ? (
        <p className="mt-1 text-sm text-slate-700">
          {isTerminalStatus(tx.status) ? 'None.' : 'None recorded yet.'}
        </p>
      ) : (
        <ChangesTable changes={changes} caption="Balance changes of the transaction" />
      )}
    </Panel>
  );
}
