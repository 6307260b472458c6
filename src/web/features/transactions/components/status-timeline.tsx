import { useState } from 'react';
import type { Transaction } from '#contract/transaction.ts';
import { cn } from '../../../lib/cn.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { humanize } from '../../../lib/labels.ts';
import { formatDuration, timelineSteps, type StepState } from '../timeline.ts';
import { Panel } from '../../../components/panel.tsx';
import { endReason, endReasonTerm } from './transaction-facts.tsx';

const MARKER: Record<StepState, string> = {
  done: 'border-green-700 bg-green-700',
  current: 'border-blue-700 bg-white ring-4 ring-blue-200',
  upcoming: 'border-slate-400 bg-white',
  failed: 'border-red-700 bg-red-700',
};

const TITLE_COLOR: Record<StepState, string> = {
  done: 'text-slate-900',
  current: 'text-slate-900',
  upcoming: 'text-slate-700',
  failed: 'text-red-800',
};

const STATE_TEXT: Record<StepState, string> = {
  done: 'done',
  current: 'current step',
  upcoming: 'not reached yet',
  failed: 'ended here',
};

/**
 * The transaction's lifecycle: each step with when it was reached and how
 * long after the one before, the current step marked (and announced to
 * screen readers when it changes), and a failure or decline with its reason.
 */
export function StatusTimeline({ transaction }: { transaction: Transaction }) {
  const steps = timelineSteps(transaction);
  // Announce changes, not the status the page opened with.
  const [openedWith] = useState(transaction.status);
  const changed = transaction.status !== openedWith;
  const reason = transaction.error ? `: ${endReason(transaction)}` : '';

  return (
    <Panel title="Status timeline">
      <p role="status" aria-live="polite" aria-atomic="true" className="sr-only">
        {changed ? `Status changed to ${humanize(transaction.status)}${reason}` : ''}
      </p>
      <ol className="mt-3 space-y-0" aria-label="Lifecycle steps">
        {steps.map((step, i) => (
          <li
            key={step.status}
            data-step={step.status}
            data-state={step.state}
            aria-current={step.state === 'current' || step.state === 'failed' ? 'step' : undefined}
            className="relative flex gap-3 pb-4 last:pb-0"
          >
            {i < steps.length - 1 ? (
              <span
                aria-hidden="true"
                className="absolute top-5 left-[0.55rem] h-full w-0.5 bg-slate-300"
              />
            ) : null}
            <span
              aria-hidden="true"
              className={cn(
                'relative mt-1 size-5 shrink-0 rounded-full border-2',
                MARKER[step.state],
              )}
            />
            <div className="min-w-0">
              <p className={cn('font-medium', TITLE_COLOR[step.state])}>
                {humanize(step.status)}
                <span className="sr-only">, {STATE_TEXT[step.state]}</span>
                {step.state === 'current' ? (
                  <span
                    aria-hidden="true"
                    className="ml-2 rounded bg-blue-100 px-1.5 py-0.5 text-xs text-blue-900"
                  >
                    now
                  </span>
                ) : null}
              </p>
              {step.at ? (
                <p className="text-sm text-slate-700">
                  <DateTime iso={step.at} />
                  {step.afterMs !== undefined ? (
                    <> · {formatDuration(step.afterMs)} after the step before</>
                  ) : null}
                </p>
              ) : step.state !== 'upcoming' ? (
                <p className="text-sm text-slate-700">Time not recorded</p>
              ) : null}
              {step.state === 'failed' && transaction.error ? (
                <p className="mt-1 text-sm text-red-800">
                  {endReasonTerm(transaction)}: {endReason(transaction)}
                </p>
              ) : null}
            </div>
          </li>
        ))}
      </ol>
    </Panel>
  );
}
