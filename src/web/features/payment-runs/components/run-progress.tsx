import { paymentRunProgress, type PaymentRun } from '#contract/payment-runs.ts';

/**
 * How far an approved run has gone: a bar of the rows that ended (completed,
 * failed or cancelled) out of all, and each count in words, announced
 * politely as it moves.
 */
export function RunProgress({ run }: { run: PaymentRun }) {
  const p = paymentRunProgress(run.rows);
  const ended = p.completed + p.failed + p.cancelled;
  const parts = [
    `${p.completed} completed`,
    `${p.sent} sent`,
    `${p.failed} failed`,
    `${p.pending} waiting`,
    ...(p.cancelled ? [`${p.cancelled} cancelled`] : []),
  ];
  return (
    <div className="flex flex-col gap-2">
      <div
        role="progressbar"
        aria-label={`Rows ended: ${ended} of ${p.rows}`}
        aria-valuemin={0}
        aria-valuemax={p.rows}
        aria-valuenow={ended}
        className="flex h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <span className="bg-green-700" style={{ width: `${(p.completed / p.rows) * 100}%` }} />
        <span className="bg-red-700" style={{ width: `${(p.failed / p.rows) * 100}%` }} />
        <span className="bg-slate-500" style={{ width: `${(p.cancelled / p.rows) * 100}%` }} />
        <span className="bg-blue-600" style={{ width: `${(p.sent / p.rows) * 100}%` }} />
      </div>
      <p aria-live="polite" className="text-sm text-slate-800">
        {parts.join(' · ')}
      </p>
    </div>
  );
}
