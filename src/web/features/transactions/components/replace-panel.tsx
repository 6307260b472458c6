import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { cmp, formatAmount, mul } from '#contract/decimal.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { Initiator } from './people.tsx';
import { UsdEquivalent } from './usd-equivalent.tsx';
import { isTerminalStatus } from '#contract/enums.ts';
import type { Transaction } from '#contract/transaction.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ActionDialog, MutationError } from '../../../components/action-dialog.tsx';
import { DialogActions, DialogClose } from '../../../components/ui/dialog.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { useCan } from '../../../lib/permissions.ts';
import { transactionQueries } from '../api/transaction-queries.ts';
import {
  estimateFeeFor,
  neverReplaceable,
  replaceBlocker,
  useReplaceTransaction,
} from '../api/replace-transaction.ts';
import { Panel } from '../../../components/panel.tsx';

/**
 * Replace a transaction stuck on the chain with one paying a higher fee.
 * Never offered for a ramp, an FX or an incoming transaction; otherwise
 * offered only when it can succeed (SUBMITTED, a chain with replacement, no
 * replacement in flight), and the page says which of those is missing.
 * Both transactions link to each other once a replacement exists.
 */
export function ReplacePanel({ transaction: tx }: { transaction: Transaction }) {
  const mayCreate = useCan('create-transaction');
  const [open, setOpen] = useState(false);
  const links = <ReplacementLinks transaction={tx} />;
  // Incoming transactions, ramps and finished ones have nothing to replace: no offer, only the
  // links (the server refuses a replacement of the first two whatever the page shows).
  if (neverReplaceable(tx) || (isTerminalStatus(tx.status) && !tx.replacements?.length)) {
    return tx.replacesTransactionId ? <Section>{links}</Section> : null;
  }
  const blocker = replaceBlocker(tx);
  return (
    <Section>
      {links}
      {blocker ? (
        <p className="text-sm text-slate-800" data-testid="replace-blocked">
          Replace with a higher fee is not available: {blocker}
        </p>
      ) : !mayCreate ? (
        <p className="text-sm text-slate-800" data-testid="replace-blocked">
          Replacing a transaction needs the initiator or admin role.
        </p>
      ) : null}
      {/* Stays mounted while open, so its answer is still shown once the replacement exists. */}
      {mayCreate && (!blocker || open) ? (
        <ReplaceDialog transaction={tx} open={open} onOpenChange={setOpen} />
      ) : null}
    </Section>
  );
}

function Section({ children }: { children: ReactNode }) {
  return (
    // The slow notice links here (slow-flag.tsx).
    <Panel title="Replacement" id="replacement">
      <div className="mt-2 space-y-2">{children}</div>
    </Panel>
  );
}

function TransactionLink({ id }: { id: string }) {
  return (
    <Link
      to="/transactions/$transactionId"
      params={{ transactionId: id }}
      className="font-mono text-sm font-medium break-all text-blue-800 underline hover:text-blue-900"
    >
      {id}
    </Link>
  );
}

function ReplacementLinks({ transaction: tx }: { transaction: Transaction }) {
  return (
    <>
      {tx.replacesTransactionId ? (
        <p className="text-sm">
          This transaction replaces <TransactionLink id={tx.replacesTransactionId} />.
        </p>
      ) : null}
      {tx.replacements?.length ? (
        <ul className="space-y-1 text-sm" aria-label="Replacements of this transaction">
          {tx.replacements.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center gap-2">
              Replaced by <TransactionLink id={r.id} /> <StatusBadge status={r.status} />
              <span className="text-slate-700">
                {r.createdAt ? (
                  <>
                    {' '}
                    on <DateTime iso={r.createdAt} />
                  </>
                ) : null}{' '}
                by <Initiator transaction={{ id: r.id, status: r.status }} />
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

function ReplaceDialog({
  transaction: tx,
  open,
  onOpenChange,
}: {
  transaction: Transaction;
  open: boolean;
  onOpenChange: (open: boolean) => void;
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
      trigger={<Button variant="primary">Replace with a higher fee…</Button>}
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
