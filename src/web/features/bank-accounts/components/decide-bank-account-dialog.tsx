import { useSendOnce } from '../../../lib/use-send-once.ts';
import { useEffect, useId, useState } from 'react';
import type { BankAccount } from '#contract/bank-account.ts';
import type { ApprovalAction } from '#contract/approvals.ts';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogActions,
  DialogClose,
  DialogContent,
} from '../../../components/ui/dialog.tsx';
import { DecisionRefused, DeclineReasonField } from '../../../components/decline-reason-field.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { useDecideBankAccount } from '../api/decide-bank-account.ts';
import { useRevealBankAccount } from '../api/reveal-bank-account.ts';
import { BankAccountFields } from './bank-account-fields.tsx';

/**
 * The confirmation before a decision: the account in full — its numbers
 * fetched through the audited reveal as the dialog opens, since checking
 * them is the point of a second pair of eyes — and, to decline, the reason
 * the proposer will read. Approving waits until the numbers are shown.
 * Mount it to open it; unmounting forgets the numbers, reason and outcome.
 */
export function DecideBankAccountDialog({
  account,
  action,
  open,
  onOpenChange,
  onDecided,
  subOrgName,
  proposedBy,
  onCloseAutoFocus,
}: {
  account: BankAccount & { id: string };
  action: ApprovalAction;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDecided: (status: string) => void;
  subOrgName?: string | undefined;
  proposedBy?: string | undefined;
  /** Where focus goes as the dialog closes; by default back to the control that opened it. */
  onCloseAutoFocus?: ((event: Event) => void) | undefined;
}) {
  const id = useId();
  const reveal = useRevealBankAccount();
  const decide = useDecideBankAccount();
  // A double click delivers both clicks before the button is disabled: one decision only.
  const decideOnce = useSendOnce(decide);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const approve = action === 'approve';
  const name = account.accountName || 'this bank account';

  // Mounted to be shown: the numbers are fetched (and audited) once per opening,
  // and leave memory with the dialog (the reveal is never cached).
  const { mutate: revealNumbers } = reveal;
  useEffect(() => {
    if (open) revealNumbers(account.id);
  }, [open, account.id, revealNumbers]);

  const confirm = () => {
    const trimmed = reason.trim();
    if (!approve && !trimmed) {
      setReasonError('Give a reason to decline: the proposer reads it on the account’s page.');
      document.getElementById(`${id}-reason`)?.focus();
      return;
    }
    decideOnce(
      { bankAccountId: account.id, action, reason: approve ? undefined : trimmed },
      { onSuccess: (result) => onDecided(result.status ?? (approve ? 'APPROVED' : 'REJECTED')) },
    );
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !decide.isPending && onOpenChange(next)}>
      <DialogContent
        onCloseAutoFocus={onCloseAutoFocus}
        title={approve ? `Approve ${name}?` : `Decline ${name}?`}
        description={
          approve
            ? 'Check every detail against the counterparty’s instructions. Once approved, funds can be sent to this account.'
            : 'The account will not be usable. The proposer sees your reason on its page.'
        }
      >
        <div className="flex flex-col gap-4">
          <div aria-live="polite" className="text-sm">
            {reveal.isPending ? <p className="text-slate-700">Loading the full numbers…</p> : null}
            {reveal.isError ? (
              <p role="alert" className="text-red-800">
                The full numbers could not be shown: {describeError(reveal.error)}
                {approve ? ' Approval needs them; close and try again.' : ''}
              </p>
            ) : null}
          </div>
          <BankAccountFields
            account={account}
            revealed={reveal.data}
            subOrgName={subOrgName}
            proposedBy={proposedBy}
          />
          {!approve ? (
            <DeclineReasonField
              id={`${id}-reason`}
              value={reason}
              error={reasonError}
              onChange={(value) => {
                setReason(value);
                if (value.trim()) setReasonError(null);
              }}
            />
          ) : null}
          <DecisionRefused approve={approve} error={decide.isError ? decide.error : null} />
        </div>
        <DialogActions>
          <DialogClose asChild>
            <Button variant="ghost" disabled={decide.isPending}>
              Cancel
            </Button>
          </DialogClose>
          <Button
            variant={approve ? 'primary' : 'destructive'}
            onClick={confirm}
            disabled={decide.isPending || (approve && !reveal.data)}
          >
            {decide.isPending
              ? approve
                ? 'Approving…'
                : 'Declining…'
              : approve
                ? 'Approve bank account'
                : 'Decline bank account'}
          </Button>
        </DialogActions>
      </DialogContent>
    </Dialog>
  );
}
