import { useEffect } from 'react';
import type { ApprovalAction, ApprovalActionResponse } from '#contract/approvals.ts';
import type { BankAccount } from '#contract/bank-account.ts';
import { LinkedAccountsNote } from '../../../components/approval-progress.tsx';
import { DecideDialog } from '../../../components/decide-dialog.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { useSendOnce } from '../../../lib/use-send-once.ts';
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
  onOpenChange,
  onDecided,
  subOrgName,
  proposedBy,
  onCloseAutoFocus,
}: {
  account: BankAccount & { id: string };
  action: ApprovalAction;
  onOpenChange: (open: boolean) => void;
  onDecided: (answer: ApprovalActionResponse) => void;
  subOrgName?: string | undefined;
  proposedBy?: string | undefined;
  onCloseAutoFocus?: ((event: Event) => void) | undefined;
}) {
  const reveal = useRevealBankAccount();
  const decide = useDecideBankAccount();
  // A double click delivers both clicks before the button is disabled: one decision only.
  const decideOnce = useSendOnce(decide);
  const approve = action === 'approve';

  // Mounted to be shown: the numbers are fetched (and audited) once per opening,
  // and leave memory with the dialog (the reveal is never cached).
  const { mutate: revealNumbers } = reveal;
  useEffect(() => {
    revealNumbers(account.id);
  }, [account.id, revealNumbers]);

  return (
    <DecideDialog
      entityId={account.id}
      action={action}
      what={account.accountName || 'this bank account'}
      description={
        approve
          ? 'Check every detail against the counterparty’s instructions. Once approved, funds can be sent to this account.'
          : 'The account will not be usable. The proposer sees your reason on its page.'
      }
      reasonMissing="Give a reason to decline: the proposer reads it on the account’s page."
      labels={{ approve: 'Approve bank account', reject: 'Decline bank account' }}
      sending={decide.isPending}
      error={decide.isError ? decide.error : null}
      canConfirm={Boolean(reveal.data)}
      onConfirm={(reason, card) =>
        decideOnce(
          { bankAccountId: account.id, action, reason, digest: card.digest },
          { onSuccess: onDecided, onError: card.refused },
        )
      }
      onOpenChange={onOpenChange}
      onCloseAutoFocus={onCloseAutoFocus}
    >
      <LinkedAccountsNote entityId={account.id} />
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
    </DecideDialog>
  );
}
