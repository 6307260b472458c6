import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { shortDigest, type ApprovalCardResponse } from '#contract/approval-card.ts';
import { ApprovalCardView } from '../../../components/approval-card.tsx';
import { approvalCardQuery } from '../../../lib/approval-card-queries.ts';
import { chainLabel } from '#contract/chains.ts';
import { formatAmount, formatUsd } from '#contract/decimal-format.ts';
import { Fact } from '../../../components/fact.tsx';
import { PartySummary } from '../../../components/party-summary.tsx';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogActions,
  DialogClose,
  DialogContent,
} from '../../../components/ui/dialog.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { describeItem, initiatorName } from '../../../lib/approval-inbox-items.ts';
import { useSendOnce } from '../../../lib/use-send-once.ts';
import { useApprovalCosts } from '../../../lib/approval-cost-queries.ts';
import { CostFacts, CostSumView } from '../../../components/approval-cost.tsx';
import type { ApprovalCosts } from '#contract/approval-cost.ts';
import { useApproveTransactions, type BulkOutcome } from '../api/approve-transactions.ts';
import { batchNoun, type BulkItem } from '../bulk.ts';

export interface BatchResult {
  items: readonly BulkItem[];
  outcomes: ReadonlyMap<string, BulkOutcome>;
}

/**
 * The confirmation before approving several transactions at once — the most
 * consequential click in the console, so it lists every selected
 * transaction with everything its approval rests on (what, from which vault,
 * to whom and whether that is an approved contact, the amount and its USD
 * value, the chain, who asked, the fee of its tier and the total leaving, the
 * memo) and what the whole batch sends and costs, per asset and in USD, as the
 * server works them out (contract/approval-cost.ts), and each one's approval
 * card as read when the dialog opened; then it approves them one by one, each
 * signed over its own card (one passkey prompt each), and says what happened
 * to each. The batch is taken when the
 * dialog opens, so the inbox refreshing behind it changes nothing; it is
 * sent once however often the button is pressed, and the dialog cannot be
 * closed while it is being sent. Mounted to open it, with the batch selected
 * then; loaded on demand (approvals-page.tsx, components/on-demand.tsx), with
 * the dialog library, the approval cards and the passkey library.
 */
export function BulkApproveDialog({
  selected,
  onApproved,
  onFinished,
  onOpenChange,
  onCloseAutoFocus,
}: {
  selected: readonly BulkItem[];
  onOpenChange: (open: boolean) => void;
  onApproved?: (() => Promise<unknown>) | undefined;
  /** The batch is over and the dialog closed: what happened to each. */
  onFinished: (result: BatchResult) => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  // The batch is what was selected as the dialog opened.
  const [batch] = useState(selected);
  const [outcomes, setOutcomes] = useState<ReadonlyMap<string, BulkOutcome>>(
    () => new Map(selected.map((item) => [item.id, { state: 'waiting' }])),
  );
  const approve = useApproveTransactions(onApproved);
  // Read once as the batch is taken: the fees and sums the approver checks before sending.
  // Fees are a transaction's: an item the console holds moves nothing on a chain.
  const costs = useApprovalCosts(
    batch.flatMap((item) => (item.kind === 'TRANSACTION' ? [item.id] : [])),
    true,
  );
  // Each item's card, read as the batch is taken; the first answer is the one shown and signed.
  const cardQueries = useQueries({
    queries: batch.map((item) => approvalCardQuery(item.id)),
  });
  const [shownCards, setShownCards] = useState<ReadonlyMap<string, ApprovalCardResponse>>(
    new Map(),
  );
  const unpinned = batch.filter(
    (item, index) => cardQueries[index]?.data && !shownCards.has(item.id),
  );
  if (unpinned.length) {
    const next = new Map(shownCards);
    batch.forEach((item, index) => {
      const data = cardQueries[index]?.data;
      if (data && !next.has(item.id)) next.set(item.id, data);
    });
    setShownCards(next);
  }
  const cardsSettled = cardQueries.every((q) => !q.isPending);
  const send = useSendOnce(approve);
  const sending = approve.isPending;
  // Each item's refusal is caught and reported; the batch itself fails only on the unforeseen.
  const done = approve.isSuccess || approve.isError;
  const count = batch.length;
  const noun = batchNoun(batch);

  const openWith = (next: boolean) => {
    if (sending || next) return;
    if (done) onFinished({ items: batch, outcomes });
    onOpenChange(false);
  };

  const progress = [...outcomes.values()];
  const approvedCount = progress.filter((o) => o.state === 'approved').length;
  const refusedCount = progress.filter((o) => o.state === 'refused').length;
  // Items are sent in order: the one being sent is the count of those no longer waiting. Once
  // the last is decided the batch still settles (the inbox read again); it stays "N of N".
  const position = progress.filter((o) => o.state !== 'waiting').length;

  return (
    <Dialog open onOpenChange={openWith}>
      <DialogContent
        title={`Approve ${count} ${noun}?`}
        description={`Each is approved on its own, in turn, exactly as on its page, and signed with your passkey over its own approval card shown below: your browser asks for the passkey once for each. The server checks each and records it in the audit log. Once approved, each is signed and sent to the chain. Check every line.`}
        onCloseAutoFocus={onCloseAutoFocus}
        onEscapeKeyDown={(event) => sending && event.preventDefault()}
        onPointerDownOutside={(event) => sending && event.preventDefault()}
      >
        <BatchSum costs={costs} count={count} />
        <ol className="mt-3 flex flex-col gap-3" aria-label={`The ${noun} to approve`}>
          {batch.map((item, index) => (
            <BatchItem
              key={item.id}
              item={item}
              number={index + 1}
              outcome={outcomes.get(item.id)}
              card={shownCards.get(item.id)}
              cardError={cardQueries[index]?.error ?? null}
              cost={costs.data?.results.find((c) => c.entityId === item.id)}
              costsPending={costs.isPending}
            />
          ))}
        </ol>
        <p role="status" className="mt-3 text-sm font-medium text-slate-900">
          {sending
            ? `Approving ${Math.max(position, 1)} of ${count}…`
            : done
              ? `Done: ${approvedCount} approved${refusedCount ? `, ${refusedCount} not approved` : ''}.`
              : ''}
          {approve.isError ? ` The batch stopped: ${describeError(approve.error)}` : ''}
        </p>
        <DialogActions>
          {done ? (
            <DialogClose asChild>
              <Button variant="primary">Close</Button>
            </DialogClose>
          ) : (
            <>
              <DialogClose asChild>
                <Button disabled={sending}>Cancel</Button>
              </DialogClose>
              <Button
                variant="primary"
                disabled={sending || !cardsSettled}
                onClick={() =>
                  send({
                    items: batch.map((item) => ({
                      id: item.id,
                      held: item.kind === 'HELD',
                      card: shownCards.get(item.id) ?? null,
                    })),
                    onOutcome: (id, outcome) => setOutcomes((old) => new Map(old).set(id, outcome)),
                  })
                }
              >
                {sending ? 'Approving…' : `Approve ${count} ${noun}`}
              </Button>
            </>
          )}
        </DialogActions>
      </DialogContent>
    </Dialog>
  );
}

/** The batch's sums per asset and in USD, or why they are not shown. */
function BatchSum({ costs, count }: { costs: ReturnType<typeof useApprovalCosts>; count: number }) {
  if (costs.data) return <CostSumView sum={costs.data.sum} count={count} />;
  return (
    <p className="text-sm text-slate-800">
      {costs.isError
        ? `The fees and sums could not be read: ${describeError(costs.error)}`
        : 'Estimating the fees and adding up the batch…'}
    </p>
  );
}

function BatchItem({
  item,
  number,
  outcome,
  card,
  cardError,
  cost,
  costsPending,
}: {
  item: BulkItem;
  number: number;
  outcome: BulkOutcome | undefined;
  card: ApprovalCardResponse | undefined;
  cardError: Error | null;
  cost: ApprovalCosts['results'][number] | undefined;
  costsPending: boolean;
}) {
  return (
    <li
      className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm"
      data-batch-item={item.id}
    >
      <p className="font-medium text-slate-900">
        {number}. {describeItem(item)}
      </p>
      {item.kind === 'TRANSACTION' ? (
        <TransactionFacts item={item} cost={cost} costsPending={costsPending} />
      ) : (
        // An item the console holds is its card, below: nothing else is approved.
        <dl className="mt-2 grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1">
          <Fact term="Initiator">{initiatorName(item) ?? 'Not recorded by this console'}</Fact>
        </dl>
      )}
      {card ? (
        <>
          <ApprovalCardView answer={card} title={`Approval card ${number}, which you sign`} />
          <p className="mt-1 text-xs text-slate-700" data-testid="batch-card-digest">
            Signed with your passkey over intent{' '}
            <span className="font-mono" title={card.digest}>
              {shortDigest(card.digest)}
            </span>
            .
          </p>
        </>
      ) : (
        <p className="mt-2 text-sm text-slate-800">
          {cardError
            ? `Its approval card could not be read (${describeError(cardError)}): it will not be sent.`
            : 'Reading its approval card…'}
        </p>
      )}
      <Outcome outcome={outcome} />
    </li>
  );
}

/** What a transaction's approval rests on, beside its card. */
function TransactionFacts({
  item,
  cost,
  costsPending,
}: {
  item: Extract<BulkItem, { kind: 'TRANSACTION' }>;
  cost: ApprovalCosts['results'][number] | undefined;
  costsPending: boolean;
}) {
  const tx = item.transaction;
  return (
    <dl className="mt-2 grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1">
      <Fact term="Amount">
        <span className="font-medium tabular-nums">
          {tx.amount ? `${formatAmount(tx.amount)} ${tx.asset ?? ''}` : 'Not stated'}
        </span>
        <span className="text-slate-700">
          {tx.amountInUSD ? ` (≈ ${formatUsd(tx.amountInUSD)} USD)` : ' (no USD value given)'}
        </span>
      </Fact>
      <Fact term="From">
        {item.vault?.name ?? item.vault?.id ?? <PartySummary party={tx.source} none="Not stated" />}
        {item.vault ? <span className="text-slate-700"> · our vault</span> : null}
      </Fact>
      <Fact term="To">
        <PartySummary party={tx.destination} none="Not stated" />
      </Fact>
      <Fact term="Chain">{chainLabel(tx.blockChain) || 'Not stated'}</Fact>
      <Fact term="Initiator">{initiatorName(item) ?? 'Not recorded by this console'}</Fact>
      {cost ? (
        <CostFacts cost={cost} />
      ) : (
        <Fact term="Fee">
          {costsPending ? 'Estimating the fee…' : 'Not known: the transaction could not be read.'}
        </Fact>
      )}
      {tx.memo ? <Fact term="Memo">{tx.memo}</Fact> : null}
    </dl>
  );
}

function Outcome({ outcome }: { outcome: BulkOutcome | undefined }) {
  if (!outcome || outcome.state === 'waiting') return null;
  if (outcome.state === 'sending')
    return <p className="mt-2 text-sm text-slate-800">Signing and approving…</p>;
  if (outcome.state === 'approved')
    return <p className="mt-2 text-sm font-medium text-green-800">Approved.</p>;
  return <p className="mt-2 text-sm font-medium text-red-800">Not approved: {outcome.reason}</p>;
}
