import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { heldApprovalText } from '#contract/approvals.ts';
import { chainInfo, chainLabel } from '#contract/chains.ts';
import { formatAmount } from '#contract/decimal-format.ts';
import type { Transaction } from '#contract/transaction.ts';
import { ActionDialog } from '../../../components/action-dialog.tsx';
import { CostFactsFor } from '../../../components/approval-cost.tsx';
import { LinkedAccountsNote } from '../../../components/approval-progress.tsx';
import { Fact } from '../../../components/fact.tsx';
import { PartySummary } from '../../../components/party-summary.tsx';
import {
  CardToSignView,
  SignedDecisionProblem,
  useCardToSign,
} from '../../../components/signed-decision.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { DialogActions, DialogClose } from '../../../components/ui/dialog.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { Textarea } from '../../../components/ui/input.tsx';
import { humanize } from '../../../lib/labels.ts';
import { describeTransaction } from '../../../lib/transaction-summary.ts';
import { ContractCallRows } from './contract-call-details.tsx';
import type { DecisionDialogState } from './decision-panel.tsx';
import { Initiator } from './people.tsx';
import { FeeCharged, UsdEquivalent } from './usd-equivalent.tsx';

/**
 * The approve and decline dialogs of a transaction's page, loaded when an
 * approver opens one (decision-panel.tsx, components/on-demand.tsx): with
 * them come the form library, classic zod for the reason, the passkey
 * library and the approval card to sign, which a member who only reads the
 * page never needs.
 */

/** A decline must say why (the API refuses a reject without a reason). */
const DeclineForm = z.object({
  reason: z
    .string()
    .trim()
    .min(1, 'Give a reason for declining')
    .max(500, 'The reason must be at most 500 characters'),
});
type DeclineForm = z.infer<typeof DeclineForm>;

const APPROVE = {
  title: 'Approve this transaction?',
  description: 'Once approved it is signed and sent to the chain. Check the figures.',
};

const DECLINE = {
  title: 'Decline this transaction?',
  description: 'A declined transaction never moves funds. The reason is kept with it.',
};

export function ApproveDialog(props: DecisionDialogState) {
  return (
    <ActionDialog {...props.dialog} {...APPROVE} onCloseAutoFocus={props.onCloseAutoFocus}>
      <ApproveBody {...props} />
    </ActionDialog>
  );
}

export function DeclineDialog(props: DecisionDialogState) {
  return (
    <ActionDialog {...props.dialog} {...DECLINE} onCloseAutoFocus={props.onCloseAutoFocus}>
      <DeclineBody {...props} />
    </ActionDialog>
  );
}

type DialogBodyProps = DecisionDialogState;

/**
 * Mounted as the dialog opens: the card it shows (and signs over) is the one
 * read then, replaced only with what changed said (components/signed-decision.tsx).
 */
function ApproveBody({ transaction: tx, extras, decide, send, decided }: DialogBodyProps) {
  const card = useCardToSign(tx.id ?? '');
  const shown = card.shown;
  return (
    <>
      <LinkedAccountsNote entityId={tx.id ?? ''} />
      <DecisionSummary transaction={tx} />
      {extras?.(tx)}
      <CardToSignView card={card} approve />
      <div className="mt-3">
        <SignedDecisionProblem card={card} error={decide.error} approve />
      </div>
      <DialogActions>
        <DialogClose asChild>
          <Button>Cancel</Button>
        </DialogClose>
        <Button
          variant="primary"
          disabled={decide.isPending || !shown}
          onClick={() => {
            if (!shown) return;
            card.acknowledge();
            send(
              // A ramp's approval names the quote shown: the server refuses it if the quote changed.
              tx.quoteResponse?.quoteId
                ? { action: 'approve', quoteId: tx.quoteResponse.quoteId, digest: shown.digest }
                : { action: 'approve', digest: shown.digest },
              {
                onSuccess: (answer) =>
                  decided(
                    heldApprovalText(answer) ?? 'Approved. The timeline follows it to the chain.',
                  ),
                onError: card.refused,
              },
            );
          }}
        >
          {decide.isPending ? 'Approving…' : 'Approve transaction'}
        </Button>
      </DialogActions>
    </>
  );
}

function DeclineBody({ transaction: tx, decide, send, decided }: DialogBodyProps) {
  const card = useCardToSign(tx.id ?? '');
  const form = useForm<DeclineForm>({
    resolver: zodResolver(DeclineForm),
    defaultValues: { reason: '' },
  });
  const error = form.formState.errors.reason?.message;
  return (
    <>
      <LinkedAccountsNote entityId={tx.id ?? ''} />
      <DecisionSummary transaction={tx} />
      <CardToSignView card={card} approve={false} />
      <form
        className="mt-4"
        noValidate
        onSubmit={form.handleSubmit(({ reason }) => {
          if (!card.shown) return;
          card.acknowledge();
          send(
            { action: 'reject', reason, digest: card.shown.digest },
            {
              onSuccess: () => {
                form.reset();
                decided('Declined.');
              },
              onError: card.refused,
            },
          );
        })}
      >
        <Field
          id="decline-reason"
          label="Reason for declining"
          error={error}
          hint="Required; at most 500 characters."
        >
          <Textarea
            id="decline-reason"
            rows={3}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy('decline-reason', { hint: true, error })}
            className="rounded-md border border-slate-400 px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-blue-700 aria-invalid:border-red-700"
            {...form.register('reason')}
          />
        </Field>
        <div className="mt-3">
          <SignedDecisionProblem card={card} error={decide.error} approve={false} />
        </div>
        <DialogActions>
          <DialogClose asChild>
            <Button>Cancel</Button>
          </DialogClose>
          <Button type="submit" variant="destructive" disabled={decide.isPending || !card.shown}>
            {decide.isPending ? 'Declining…' : 'Decline transaction'}
          </Button>
        </DialogActions>
      </form>
    </>
  );
}

/**
 * What the member is deciding: everything the decision rests on, checked
 * before money moves — who asked, from where, to whom (and whether that is an
 * approved contact), how much and what it is worth, the fee of its tier and
 * the total leaving (with a warning when the fee is more than what is sent),
 * and for a contract call what it calls (decoded where the console knows the function).
 */
function DecisionSummary({ transaction: tx }: { transaction: Transaction }) {
  const contractCall = tx.category === 'CONTRACT_CALL';
  return (
    <dl className="grid grid-cols-[9rem_1fr] gap-x-3 gap-y-1 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
      <Fact term="What">
        {humanize(tx.category) || 'Transaction'}
        {tx.subCategory && tx.subCategory !== tx.category ? ` · ${humanize(tx.subCategory)}` : ''}
        {contractCall ? <span className="block font-medium">{describeTransaction(tx)}</span> : null}
      </Fact>
      <Fact term="Initiator">
        <Initiator transaction={tx} />
      </Fact>
      <Fact term="From">
        <PartySummary party={tx.source} none="—" />
      </Fact>
      {contractCall ? null : (
        <Fact term="To">
          <PartySummary party={tx.destination} none="—" />
        </Fact>
      )}
      <Fact term={contractCall ? 'Value sent' : 'Amount'}>
        <span className="font-medium tabular-nums">
          {contractCall && (!tx.amount || isZeroAmount(tx.amount))
            ? `None: the call sends no ${nativeOf(tx)}`
            : tx.amount
              ? `${formatAmount(tx.amount)} ${tx.asset ?? nativeOf(tx)}`
              : '—'}
        </span>
        <UsdEquivalent value={tx.amountInUSD} />
      </Fact>
      <Fact term="Chain">{chainLabel(tx.blockChain) || '—'}</Fact>
      {contractCall ? <ContractCallRows transaction={tx} Row={Fact} /> : null}
      {tx.quoteResponse ? (
        // A ramp's fee is its provider's, inside what leaves; it pays no network fee tier.
        <Fact term="Provider fee">
          <FeeCharged fees={tx.fees} none="None stated" />
        </Fact>
      ) : (
        // The fee of its tier and what leaves in all, as the server works them out.
        <CostFactsFor entityId={tx.id ?? ''} />
      )}
      {tx.memo ? <Fact term="Memo">{tx.memo}</Fact> : null}
    </dl>
  );
}

const isZeroAmount = (amount: string) => !/[1-9]/.test(amount);
const nativeOf = (tx: Transaction) => chainInfo(tx.blockChain)?.nativeAsset ?? 'native coin';
