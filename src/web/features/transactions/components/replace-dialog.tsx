import { useQuery } from '@tanstack/react-query';
import { cmp, formatAmount, mul } from '#contract/decimal.ts';
import type { Transaction } from '#contract/transaction.ts';
import { ActionDialog, MutationError } from '../../../components/action-dialog.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { DialogActions, DialogClose } from '../../../components/ui/dialog.tsx';
import { estimateFeeFor, useReplaceTransaction } from '../api/replace-transaction.ts';
import { transactionQueries } from '../api/transaction-queries.ts';
import { TransactionLink } from './replace-panel.tsx';
import { UsdEquivalent } from './usd-equivalent.tsx';

/**
 * The replacement's confirmation (replace-panel.tsx), loaded when opened: the
 * fee now and the one it will pay, then the replacement sent once.
 */
export function ReplaceDialog({
  transaction: tx,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  transaction: Transaction;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  const replace = useReplaceTransaction(tx.id ?? '');
  const estimate = useQuery({
    queryKey: [...transactionQueries.all(), 'replacement-estimate', tx.id],
    queryFn: ({ signal }) => estimateFeeFor(tx, signal),
    enabled: open,
    staleTime: 30_000,
  });
  const current = tx.fees?.amount;
  const minimum = current ? mul(current, '1.1') : undefined;
  const high = estimate.data?.high;
  const highIsMore = minimum && high && cmp(high.expectedFeeInAsset, minimum) > 0;
  const expected = highIsMore ? high.expectedFeeInAsset : minimum;
  const currentUsd = tx.fees?.amountInFiat;
  const expectedUsd = highIsMore
    ? high.expectedFeeInUSD
    : currentUsd
      ? mul(currentUsd, '1.1')
      : undefined;

  return (
    <ActionDialog
      open={open}
      onOpenChange={onOpenChange}
      onClosed={replace.reset}
      onCloseAutoFocus={onCloseAutoFocus}
      title="Replace this transaction?"
      description="A new transaction with the same nonce and a higher fee is created for approval. When it reaches the chain, this one ends as failed."
    >
      <dl className="grid grid-cols-[10rem_1fr] gap-x-3 gap-y-1 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
        <dt className="text-slate-700">Current fee</dt>
        <dd className="tabular-nums">
          {current ? (
            <>
              {formatAmount(current)} {tx.fees?.asset ?? ''}
              <UsdEquivalent value={currentUsd} />
            </>
          ) : (
            'Not known'
          )}
        </dd>
        <dt className="text-slate-700">New fee</dt>
        <dd className="tabular-nums">
          {expected ? (
            <>
              about {formatAmount(expected)} {tx.fees?.asset ?? ''}
              <UsdEquivalent value={expectedUsd} />
              <span className="block text-xs text-slate-700">
                At least 10% more ({minimum ? formatAmount(minimum) : '—'}), or the network&apos;s
                high tier when that is more{estimate.isPending ? ' (checking the network…)' : ''}.
                The exact fee is set when it is signed.
              </span>
            </>
          ) : (
            'At least 10% more than the current fee'
          )}
        </dd>
      </dl>
      <MutationError error={replace.error} />
      {replace.data?.id ? (
        <p role="status" className="mt-3 text-sm text-green-800">
          Replacement <TransactionLink id={replace.data.id} /> created; it waits for approval.
        </p>
      ) : null}
      <DialogActions>
        <DialogClose asChild>
          <Button>{replace.data ? 'Close' : 'Cancel'}</Button>
        </DialogClose>
        {replace.data ? null : (
          <Button variant="primary" disabled={replace.isPending} onClick={() => replace.mutate()}>
            {replace.isPending ? 'Checking status and sending…' : 'Send replacement'}
          </Button>
        )}
      </DialogActions>
    </ActionDialog>
  );
}
