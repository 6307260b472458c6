import { useId, type ReactNode } from 'react';
import {
  shortDigest,
  type ApprovalCard,
  type ApprovalCardResponse,
  type CardBalanceChange,
  type CardDestination,
  type CardRun,
} from '#contract/approval-card.ts';
import { chainLabel } from '#contract/chains.ts';
import { PARTY_TYPES } from '#contract/enums.ts';
import { isNegative } from '#contract/decimal.ts';
import { formatAmount, formatUsd } from '#contract/decimal-format.ts';
import { describeError } from '../lib/api-errors.ts';
import { useApprovalCard } from '../lib/approval-card-queries.ts';
import { humanize, paymentMethodLabel } from '../lib/labels.ts';
import { DateTime } from './date-time.tsx';
import { Fact } from './fact.tsx';
import { VoidedVotes } from './signatures-panel.tsx';

/**
 * The approval card as the server computed it (contract/approval-card.ts),
 * every field of it and nothing of the browser's own: what it is, from which
 * vault, to whom, how much and its USD value now, each vault's balance before
 * → after, the fee ceiling, the decoded call, the quote, the rule and the
 * quorum, and the digest of its intent (what a signature will bind). The
 * transaction's decision panel and the create form's review show this one
 * component, so both read the same card.
 */
export function ApprovalCardView({
  answer,
  title = 'What you are approving',
}: {
  answer: ApprovalCardResponse;
  title?: string;
}) {
  const titleId = useId();
  const { card, digest } = answer;
  const { intent, status } = card;
  return (
    <section
      aria-labelledby={titleId}
      className="mt-3 rounded-md border border-slate-200 bg-white p-3 text-sm"
      data-testid="approval-card"
    >
      <h3 id={titleId} className="font-medium text-slate-900">
        {title}
      </h3>
      <dl className="mt-2 grid grid-cols-[9rem_1fr] gap-x-3 gap-y-1">
        <Fact term="What">
          <span data-testid="card-what">
            {humanize(intent.category) || humanize(intent.kind)}
            {intent.blockChain ? ` on ${chainLabel(intent.blockChain) || intent.blockChain}` : ''}
          </span>
        </Fact>
        {intent.source ? (
          <Fact term="From">
            <span data-testid="card-source">{vaultName(intent.source)}</span>
          </Fact>
        ) : null}
        {intent.destination ? (
          <Fact term={intent.kind === 'TRANSACTION' ? 'To' : 'Who'}>
            <Destination destination={intent.destination} />
          </Fact>
        ) : null}
        {intent.amount !== null ? (
          <Fact term="Amount">
            <span className="font-medium tabular-nums" data-testid="card-amount">
              {formatAmount(intent.amount)} {intent.asset ?? ''}
            </span>
            {status.amountUsd !== null ? (
              <span className="block text-slate-700" data-testid="card-usd">
                ≈ {formatUsd(status.amountUsd)} USD now
                {status.priceUsd !== null
                  ? ` (at ${formatUsd(status.priceUsd)} USD per ${intent.asset ?? 'unit'})`
                  : ''}
              </span>
            ) : (
              <span className="block text-slate-700">No USD value known</span>
            )}
          </Fact>
        ) : null}
        {intent.assets !== null ? (
          <Fact term="Assets">
            <span data-testid="card-assets">
              {intent.assets.length ? intent.assets.join(', ') : 'None yet'}
            </span>
          </Fact>
        ) : null}
        {intent.change ? (
          <Fact term="Change">
            <span className="font-medium" data-testid="card-change">
              {intent.change.summary}
            </span>
            <ul>
              {intent.change.lines.map((line) => (
                <li key={line.label}>
                  {line.label}: {line.before ?? 'none'} → {line.after ?? 'removed'}
                </li>
              ))}
            </ul>
          </Fact>
        ) : null}
        {intent.run ? (
          <Fact term="Payment run">
            <RunFacts run={intent.run} />
          </Fact>
        ) : null}
        {intent.schedule ? (
          <Fact term="Pre-approval">
            <span data-testid="card-schedule">
              <span className="block">{intent.schedule.timing}</span>
              <span className="block font-medium tabular-nums">
                Each occurrence up to ${formatUsd(intent.schedule.maxTotalUsd)} USD, paid without a
                new vote
              </span>
              <span className="block text-slate-700">
                Only {intent.schedule.assets.join(', ')}, to{' '}
                {intent.schedule.destinations.join(', ')}
              </span>
            </span>
          </Fact>
        ) : null}
        {intent.feeCeiling ? (
          <Fact term="Fee ceiling">
            <span data-testid="card-fee-ceiling">
              <span className="font-medium tabular-nums">
                At most {formatAmount(intent.feeCeiling.maxFee)} {intent.feeCeiling.asset}
              </span>
              {status.feeCeilingUsd !== null
                ? ` (≈ ${formatUsd(status.feeCeilingUsd)} USD now)`
                : ''}
              <span className="block text-slate-700">
                {humanize(intent.feeCeiling.tier)} fee tier
              </span>
            </span>
          </Fact>
        ) : null}
        {intent.call ? (
          <Fact term="Call">
            <span className="font-medium" data-testid="card-call">
              {intent.call.description}
            </span>
            {intent.call.function ? (
              <span className="block text-slate-700">Function {intent.call.function}</span>
            ) : null}
            {intent.call.contract ? (
              <span className="block break-all text-slate-700">
                Contract {intent.call.contract}
              </span>
            ) : null}
            {intent.call.spender ? (
              <span className="block break-all text-slate-700">Spender {intent.call.spender}</span>
            ) : null}
            {intent.call.unlimited ? (
              <span className="block font-medium text-red-800">
                Unlimited: the spender may take every token, for ever
              </span>
            ) : intent.call.amount !== null ? (
              <span className="block text-slate-700">
                Amount {intent.call.amount} (smallest units)
              </span>
            ) : null}
          </Fact>
        ) : null}
        {intent.quote ? (
          <Fact term="Quote">
            <span data-testid="card-quote">
              {intent.quote.provider ?? 'Provider not named'}
              {intent.quote.rate ? `, rate ${formatAmount(intent.quote.rate)}` : ''}
            </span>
            {intent.quote.arrivesAmount ? (
              <span className="block font-medium tabular-nums">
                Arrives {formatAmount(intent.quote.arrivesAmount)} {intent.quote.arrivesAsset ?? ''}
              </span>
            ) : null}
            <span className="block break-all text-slate-700">Quote {intent.quote.quoteId}</span>
            {intent.quote.expiresAt ? (
              <span className="block text-slate-700">
                Expires <DateTime iso={intent.quote.expiresAt} />
              </span>
            ) : null}
          </Fact>
        ) : null}
        {status.balances.length ? (
          <Fact term="Balances">
            <ul data-testid="card-balances">
              {status.balances.map((b) => (
                <li key={`${b.vault.id}:${b.asset}:${b.blockChain ?? ''}`}>
                  <Balance change={b} />
                </li>
              ))}
            </ul>
          </Fact>
        ) : null}
        <Fact term="Rule">
          <span data-testid="card-rule">
            {intent.rule ? (
              <>
                “{intent.rule.name}”: {intent.rule.summary}
              </>
            ) : (
              'No approval rule is recorded for it'
            )}
          </span>
        </Fact>
        {status.quorum ? (
          <Fact term="Approvals">
            <Quorum quorum={status.quorum} />
          </Fact>
        ) : null}
        <Fact term="Intent">
          <span data-testid="card-digest" className="font-mono" title={digest}>
            {shortDigest(digest)}
          </span>
          <span className="block text-xs text-slate-700">
            The fingerprint of what leaves, the fee ceiling, where it goes, the call, the quote and
            the rule; worked out <DateTime iso={status.computedAt} />.
          </span>
        </Fact>
      </dl>
    </section>
  );
}

const vaultName = (v: { id: string; name: string | null }) => v.name ?? `Vault ${v.id}`;

/** A payment run approved once for all its rows: what leaves, from where, and the rows it binds. */
function RunFacts({ run }: { run: CardRun }) {
  const leg = (t: { asset: string; blockChain: string; amount: string }) =>
    `${formatAmount(t.amount)} ${t.asset} (${chainLabel(t.blockChain) || t.blockChain})`;
  return (
    <span data-testid="card-run">
      <span className="font-medium">
        {run.name}: {run.rowCount} rows from {run.sourceVaults.map(vaultName).join(', ')}
      </span>
      <span className="block tabular-nums">
        {run.totals.map(leg).join(' · ')}
        {run.totalUsd !== null ? ` ≈ ${formatUsd(run.totalUsd)} USD` : ' (no USD value known)'}
      </span>
      {run.fees.length ? (
        <span className="block text-slate-700">
          Fees estimated at {run.fees.map(leg).join(' · ')}
          {run.feesUsd !== null ? `, ≈ ${formatUsd(run.feesUsd)} USD` : ''}
        </span>
      ) : null}
      <span className="block font-mono text-slate-700" title={run.rowsDigest}>
        Rows {shortDigest(run.rowsDigest)}
      </span>
    </span>
  );
}

function Destination({ destination: d }: { destination: CardDestination }) {
  const where: ReactNode[] = [];
  if (d.rail) where.push(`${paymentMethodLabel(d.rail)}${d.last4 ? ` ending ${d.last4}` : ''}`);
  else if (d.last4) where.push(`ending ${d.last4}`);
  if (d.address) where.push(d.address);
  return (
    <span data-testid="card-destination">
      <span className="font-medium">{d.name ?? humanize(d.type ?? 'Unnamed')}</span>
      {where.length ? (
        <span className="block break-all text-slate-700">{where.join(' · ')}</span>
      ) : null}
      {/* A member, a policy, a period: named, and neither a vault nor a contact. */}
      {isParty(d) ? (
        <span className="block text-slate-700">
          {d.ours ? (
            'One of our vaults'
          ) : d.approvedContact ? (
            <>
              Approved contact
              {d.approvedContactSince ? (
                <>
                  {' '}
                  since <DateTime iso={d.approvedContactSince} />
                </>
              ) : null}
            </>
          ) : d.type === 'BANK_ACCOUNT' || d.type === 'EXTERNAL_BANK_ACCOUNT' ? (
            'Bank account'
          ) : (
            'Not an approved contact'
          )}
        </span>
      ) : null}
    </span>
  );
}

/** Whether the destination is a party money can go to, as the custody API names one. */
const isParty = (d: CardDestination) =>
  d.type === null || (PARTY_TYPES as readonly string[]).includes(d.type);

/** A signed amount with a true minus sign; `plus` marks what arrives. */
const signed = (amount: string, plus = '') =>
  amount.startsWith('-') ? `−${formatAmount(amount.slice(1))}` : `${plus}${formatAmount(amount)}`;

function Balance({ change: b }: { change: CardBalanceChange }) {
  const asset = `${b.asset}${b.blockChain ? ` (${chainLabel(b.blockChain) || b.blockChain})` : ''}`;
  // The sandbox and the provider accept an item the vault cannot pay for, and fail it when it
  // is signed: an approver should know before approving that it will not go through as it is.
  const short = b.after !== null && isNegative(b.after) ? b.after.slice(1) : null;
  return (
    <span className="tabular-nums">
      {vaultName(b.vault)}, {asset}:{' '}
      {b.before !== null && b.after !== null ? (
        <>
          {signed(b.before)} → {signed(b.after)}
        </>
      ) : (
        'balance not readable'
      )}{' '}
      <span className="text-slate-700">({signed(b.change, '+')})</span>
      {short ? (
        <span className="block font-medium text-red-800">
          Short by {formatAmount(short)} {b.asset}: unless it arrives first, this fails when it is
          signed.
        </span>
      ) : null}
    </span>
  );
}

function Quorum({ quorum: q }: { quorum: NonNullable<ApprovalCard['status']['quorum']> }) {
  // Votes on an earlier card, said whatever the quorum is now: they were cast and do not count.
  const voided = q.voided?.length ? <VoidedVotes voided={q.voided} /> : null;
  if (q.blocked)
    return (
      <span data-testid="card-quorum">
        Blocked by its rule
        {voided}
      </span>
    );
  return (
    <span data-testid="card-quorum">
      {q.approvedBy.length} of {q.required}
      {q.approvedBy.length ? (
        <span className="block text-slate-700">
          Approved by{' '}
          {q.approvedBy.map((a, i) => (
            <span key={`${a.name}:${a.at}`}>
              {i > 0 ? ', ' : ''}
              {a.name} (<DateTime iso={a.at} />)
            </span>
          ))}
        </span>
      ) : null}
      {q.waitingOn ? (
        <span className="block text-slate-700">{humanizeFirst(q.waitingOn)}</span>
      ) : null}
      {voided}
    </span>
  );
}

const humanizeFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The card of an item, read from the server; its state while loading or refused. */
export function ApprovalCardFor({ entityId }: { entityId: string }) {
  const card = useApprovalCard(entityId);
  if (card.isPending)
    return (
      // No live region: the page's own status and alerts are what a decision announces.
      <p className="mt-3 text-sm text-slate-700">Reading the approval card…</p>
    );
  if (card.isError)
    return (
      <p className="mt-3 text-sm text-red-800">
        The approval card could not be read: {describeError(card.error)}
      </p>
    );
  return <ApprovalCardView answer={card.data} />;
}
