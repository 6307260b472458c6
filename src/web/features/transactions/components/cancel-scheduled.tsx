import { useState } from 'react';
import type { Transaction } from '#contract/transaction.ts';
import { OnDemandActionDialog } from '../../../components/on-demand.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useCan } from '../../../lib/permissions.ts';
import { useNow } from '../../../lib/use-now.ts';
import { cancellableAt, useCancelScheduled } from '../api/cancel-scheduled.ts';

/**
 * Cancel a scheduled transfer before its time, after a confirmation that
 * says what it does: it ends as failed, nothing is sent, and it cannot be
 * undone. Offered only while it can succeed (scheduled, not yet run, its time
 * ahead) and to members who may create transactions; the server checks both.
 */
export function CancelScheduled({ transaction: tx }: { transaction: Transaction }) {
  const mayCreate = useCan('create-transaction');
  const now = useNow(1000);
  const [open, setOpen] = useState(false);
  const cancel = useCancelScheduled(tx.id ?? '');
  // Kept while open, so a refusal (its time came meanwhile) is still read in the dialog.
  if (!mayCreate || !tx.id || !tx.executeAt || (!cancellableAt(tx, now) && !open)) return null;
  return (
    <OnDemandActionDialog
      open={open}
      onOpenChange={setOpen}
      onClosed={cancel.reset}
      trigger={
        <Button variant="destructive" size="sm" className="mt-2">
          Cancel scheduled transfer…
        </Button>
      }
      what="the cancellation"
      title="Cancel this scheduled transfer?"
      description={
        <>
          It is scheduled for <DateTime iso={tx.executeAt} />. Cancelled, it ends as failed and is
          never sent, whatever approvals it has; this cannot be undone.
        </>
      }
    >
      {({ ConfirmActions }) => (
        <ConfirmActions
          mutation={cancel}
          label="Cancel the transfer"
          runningLabel="Cancelling…"
          variant="destructive"
          cancelLabel="Keep it"
          onConfirm={() => cancel.mutate(undefined, { onSuccess: () => setOpen(false) })}
        />
      )}
    </OnDemandActionDialog>
  );
}
