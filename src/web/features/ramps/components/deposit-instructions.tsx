import { useState, type ReactNode } from 'react';
import { chainLabel } from '#contract/chains.ts';
import type { DepositInstructions } from '#contract/ramp-record.ts';
import type { Transaction } from '#contract/transaction-record.ts';
import { OnDemandActionDialog } from '../../../components/on-demand.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { Panel } from '../../../components/panel.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { humanize } from '../../../lib/labels.ts';
import { amountOf, railLabel } from '../quote-text.ts';
import { useCan } from '../../../lib/permissions.ts';
import { useSession } from '../../../lib/session-queries.ts';
import { useSendOnce } from '../../../lib/use-send-once.ts';
import { useMarkDepositSent } from '../api/mark-deposit-sent.ts';

/** One line of the instructions: the value as it must be typed, and a button that copies it. */
function Line({
  term,
  value,
  display,
}: {
  term: string;
  value: string | undefined;
  display?: ReactNode;
}) {
  if (!value) return null;
  return (
    <div className="grid grid-cols-1 gap-1 py-1.5 sm:grid-cols-[10rem_1fr]">
      <dt className="text-sm font-medium text-slate-700">{term}</dt>
      <dd className="flex min-w-0 flex-wrap items-center gap-x-2">
        <span className="font-mono text-sm break-all">{display ?? value}</span>
        <CopyButton value={value} label={`Copy ${term.toLowerCase()}`} />
      </dd>
    </div>
  );
}

function InstructionLines({ instructions: d }: { instructions: DepositInstructions }) {
  const bank = d.bankDetails;
  return (
    <dl className="mt-2 divide-y divide-slate-200" data-testid="deposit-instructions">
      <Line
        term="Amount to send"
        value={d.amount}
        display={amountOf(d.amount, d.currency ?? d.asset)}
      />
      <Line term="Reference" value={d.reference} />
      <Line term="Beneficiary" value={bank?.beneficiaryName ?? bank?.accountName} />
      <Line term="Bank" value={bank?.bankName} />
      <Line term="Account number" value={bank?.accountNumber ?? bank?.accountNumberMasked} />
      <Line term="Routing number" value={bank?.routingNumber} />
      <Line term="IBAN" value={bank?.iban} />
      <Line term="SWIFT / BIC" value={bank?.swiftBic ?? bank?.swiftCode} />
      <Line term="Bank address" value={bank?.bankAddress} />
      <Line term="Address" value={d.address} />
      {d.chain ? (
        <div className="grid grid-cols-1 gap-1 py-1.5 sm:grid-cols-[10rem_1fr]">
          <dt className="text-sm font-medium text-slate-700">Chain</dt>
          <dd className="text-sm">{chainLabel(d.chain)}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/** Waiting for the payer's money: approved, its first step (the deposit) not yet under way. */
export function awaitsDeposit(tx: Transaction): boolean {
  if (tx.status !== 'APPROVED' || !tx.depositInstructions) return false;
  const deposit = tx.operations?.find((op) => op.type === 'DEPOSIT');
  return !deposit || deposit.status === 'PENDING';
}

/**
 * Where an on-ramp's or FX's money goes, each value with a copy button, and
 * — while the transaction waits for it — "Mark deposit sent", confirmed in a
 * dialog and sent once. The mutation lives here, not in its dialog: it
 * outlives the button, which goes once the transaction moves on.
 */
export function DepositInstructionsPanel({
  transaction: tx,
  refresh,
}: {
  transaction: Transaction;
  refresh: () => void;
}) {
  const d = tx.depositInstructions as DepositInstructions;
  const allowed = useCan('mark-deposit-sent');
  const role = useSession()?.member.role;
  const mark = useMarkDepositSent(tx.id ?? '');
  const send = useSendOnce(mark);
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<string | null>(null);
  const waiting = awaitsDeposit(tx);
  const rail = d.paymentRail ? railLabel(d.paymentRail) : undefined;
  return (
    <Panel title="Deposit instructions" tone={waiting ? 'attention' : undefined}>
      <p className="mt-1 text-sm text-slate-800">
        {waiting
          ? `Send exactly this amount${rail ? ` by ${rail}` : ''} from your organization's bank, with the reference, then mark the deposit sent.`
          : `The deposit${rail ? ` (${rail})` : ''} the conversion was paid with.`}
      </p>
      <InstructionLines instructions={d} />
      {outcome ? (
        <p role="status" className="mt-2 text-sm text-green-800">
          {outcome}
        </p>
      ) : null}
      {waiting ? (
        allowed ? (
          <div className="mt-3">
            <OnDemandActionDialog
              open={open}
              onOpenChange={setOpen}
              onClosed={mark.reset}
              trigger={<Button variant="primary">Mark deposit sent…</Button>}
              what="the confirmation"
              title="Mark the deposit sent?"
              description="Only once the money has left your bank: the provider then waits for it and the conversion moves on. This cannot be undone here."
            >
              {({ ConfirmActions }) => (
                <>
                  <dl className="grid grid-cols-[9rem_1fr] gap-x-3 gap-y-1 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
                    <dt className="text-slate-700">Amount sent</dt>
                    <dd>{amountOf(d.amount, d.currency ?? d.asset)}</dd>
                    {d.reference ? (
                      <>
                        <dt className="text-slate-700">Reference</dt>
                        <dd className="font-mono break-all">{d.reference}</dd>
                      </>
                    ) : null}
                    <dt className="text-slate-700">Transaction</dt>
                    <dd>{humanize(tx.category)}</dd>
                  </dl>
                  <ConfirmActions
                    mutation={mark}
                    label="Mark deposit sent"
                    runningLabel="Marking…"
                    onConfirm={() =>
                      send(undefined, {
                        onSuccess: () => {
                          setOpen(false);
                          setOutcome('Marked sent. The steps below follow the deposit.');
                          refresh();
                        },
                      })
                    }
                  />
                </>
              )}
            </OnDemandActionDialog>
          </div>
        ) : (
          <p className="mt-3 text-sm text-slate-800" data-testid="deposit-blocked">
            Marking the deposit sent needs the initiator or admin role; you are signed in as{' '}
            {role ?? 'a member without it'}.
          </p>
        )
      ) : null}
    </Panel>
  );
}
