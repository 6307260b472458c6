import { useId, useState, type FormEvent } from 'react';
import {
  occurrencesAfter,
  PreApprovalCap,
  ScheduleTiming,
  type ScheduleTiming as Timing,
  wholeNumber,
} from '#contract/payment-run-schedules.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { Choice, Input } from '../../../components/ui/input.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { useTimeZone } from '../../../lib/display.tsx';
import { useSchedulePaymentRun } from '../api/schedule-queries.ts';

export type WhenToPayChoice = 'now' | 'once' | 'monthly';

interface Typed {
  at: string;
  dayOfMonth: string;
  time: string;
  end: 'never' | 'after' | 'on';
  endAfterOccurrences: string;
  endsOn: string;
  /** Whether the schedule is put up for pre-approval, and its cap per occurrence in USD. */
  preApprove: boolean;
  maxTotalUsd: string;
}

const EMPTY: Typed = {
  at: '',
  dayOfMonth: '',
  time: '09:00',
  end: 'never',
  endAfterOccurrences: '',
  endsOn: '',
  preApprove: false,
  maxTotalUsd: '',
};

/** What the member typed, as the schedule's timing in their zone (the server checks it again). */
function timingOf(choice: 'once' | 'monthly', typed: Typed, timeZone: string): unknown {
  if (choice === 'once') return { repeat: 'ONCE', at: typed.at, timeZone };
  const day = /^\d{1,2}$/.test(typed.dayOfMonth.trim())
    ? wholeNumber(typed.dayOfMonth.trim())
    : typed.dayOfMonth;
  const count = /^\d{1,3}$/.test(typed.endAfterOccurrences.trim())
    ? wholeNumber(typed.endAfterOccurrences.trim())
    : typed.endAfterOccurrences;
  return {
    repeat: 'MONTHLY',
    dayOfMonth: day,
    time: typed.time,
    timeZone,
    ...(typed.end === 'after' ? { endAfterOccurrences: count } : {}),
    ...(typed.end === 'on' ? { endsOn: typed.endsOn } : {}),
  };
}

/** The refusal's problems by field, as the server named them (`timing.dayOfMonth`). */
function problems(error: unknown): Record<string, string> {
  const fields =
    error && typeof error === 'object' && 'fields' in error && Array.isArray(error.fields)
      ? (error.fields as { field: string; message: string }[])
      : [];
  return Object.fromEntries(
    fields.map((p) => [p.field.replace(/^(body\.)?(timing|preApproval)\./, ''), p.message]),
  );
}

/**
 * A checked run's "when": paid now (submitted for approval: the page's own
 * button), once at a date and time, or every month on a day at a time, in
 * the member's zone. A schedule shows its next three occurrences as it is
 * typed; scheduling turns the draft into the schedule, whose occurrences are
 * each a new run approved like any run, or, with a cap the policy allows,
 * paid on the schedule's one approval while they stay within it.
 */
export function WhenToPay({
  runId,
  choice,
  onChoice,
  onScheduled,
}: {
  runId: string;
  choice: WhenToPayChoice;
  onChoice: (choice: WhenToPayChoice) => void;
  onScheduled: () => void;
}) {
  const base = useId();
  const timeZone = useTimeZone();
  const [typed, setTyped] = useState<Typed>(EMPTY);
  const [local, setLocal] = useState<Record<string, string>>({});
  const schedule = useSchedulePaymentRun(runId);
  const set = (field: keyof Typed, value: string | boolean) =>
    setTyped((t) => ({ ...t, [field]: value }));

  const candidate = choice === 'now' ? null : timingOf(choice, typed, timeZone);
  const parsed = candidate ? ScheduleTiming.safeParse(candidate) : null;
  const next: Date[] = parsed?.success ? occurrencesAfter(parsed.data, new Date(), 3) : [];
  const errors = { ...problems(schedule.error), ...local };

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!candidate || !parsed) return;
    const cap = typed.preApprove
      ? PreApprovalCap.safeParse({ maxTotalUsd: typed.maxTotalUsd.trim() })
      : null;
    if (!parsed.success || (cap && !cap.success)) {
      setLocal(
        Object.fromEntries(
          [...(parsed.success ? [] : parsed.error.issues), ...(cap?.error?.issues ?? [])].map(
            (i) => [i.path.join('.'), i.message],
          ),
        ),
      );
      return;
    }
    setLocal({});
    schedule.mutate(
      { timing: parsed.data as Timing, ...(cap?.success ? { preApproval: cap.data } : {}) },
      { onSuccess: onScheduled },
    );
  }

  const control = (field: string, hint?: boolean) => ({
    id: `${base}-${field}`,
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': describedBy(`${base}-${field}`, { hint, error: errors[field] }),
  });

  return (
    <div className="flex flex-col gap-3">
      <fieldset className="flex flex-wrap gap-4">
        <legend className="mb-1 text-sm font-medium text-slate-900">When to pay</legend>
        {(
          [
            ['now', 'Pay now'],
            ['once', 'Schedule once'],
            ['monthly', 'Repeat monthly'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="flex items-center gap-2 text-sm">
            <Choice
              type="radio"
              name={`${base}-when`}
              value={value}
              checked={choice === value}
              onChange={() => {
                setLocal({});
                schedule.reset();
                onChoice(value);
              }}
            />
            {label}
          </label>
        ))}
      </fieldset>
      {choice === 'now' ? null : (
        <form
          onSubmit={submit}
          noValidate
          aria-label="Schedule"
          className="flex max-w-3xl flex-col gap-3 rounded-md border border-slate-300 p-3"
        >
          {choice === 'once' ? (
            <Field
              id={`${base}-at`}
              label="Pay at"
              hint={`Your time (${timeZone}).`}
              error={errors.at}
            >
              <Input
                type="datetime-local"
                step={1}
                value={typed.at}
                onChange={(e) => set('at', e.target.value)}
                {...control('at', true)}
              />
            </Field>
          ) : (
            <div className="flex flex-col gap-3">
              <div className="grid gap-3 sm:grid-cols-2">
                <Field
                  id={`${base}-dayOfMonth`}
                  label="Day of the month"
                  hint="1 to 31. A month without that day (the 31st in April) pays on its last day."
                  error={errors.dayOfMonth}
                >
                  <Input
                    inputMode="numeric"
                    value={typed.dayOfMonth}
                    onChange={(e) => set('dayOfMonth', e.target.value)}
                    {...control('dayOfMonth', true)}
                  />
                </Field>
                <Field
                  id={`${base}-time`}
                  label="Time"
                  hint={`Your time (${timeZone}).`}
                  error={errors.time}
                >
                  <Input
                    type="time"
                    step={1}
                    value={typed.time}
                    onChange={(e) => set('time', e.target.value)}
                    {...control('time', true)}
                  />
                </Field>
              </div>
              <fieldset className="flex flex-wrap items-end gap-4">
                <legend className="mb-1 text-sm font-medium text-slate-900">Ends</legend>
                {(
                  [
                    ['never', 'Never'],
                    ['after', 'After a number of runs'],
                    ['on', 'On a date'],
                  ] as const
                ).map(([value, label]) => (
                  <label key={value} className="flex items-center gap-2 text-sm">
                    <Choice
                      type="radio"
                      name={`${base}-end`}
                      value={value}
                      checked={typed.end === value}
                      onChange={() => set('end', value)}
                    />
                    {label}
                  </label>
                ))}
              </fieldset>
              {typed.end === 'after' ? (
                <Field
                  id={`${base}-endAfterOccurrences`}
                  label="Number of runs"
                  error={errors.endAfterOccurrences}
                >
                  <Input
                    inputMode="numeric"
                    value={typed.endAfterOccurrences}
                    onChange={(e) => set('endAfterOccurrences', e.target.value)}
                    {...control('endAfterOccurrences')}
                  />
                </Field>
              ) : typed.end === 'on' ? (
                <Field id={`${base}-endsOn`} label="Last date" error={errors.endsOn}>
                  <Input
                    type="date"
                    value={typed.endsOn}
                    onChange={(e) => set('endsOn', e.target.value)}
                    {...control('endsOn')}
                  />
                </Field>
              ) : null}
            </div>
          )}
          <section aria-labelledby={`${base}-next`} className="text-sm">
            <h3 id={`${base}-next`} className="font-medium text-slate-900">
              Next occurrences
            </h3>
            {next.length ? (
              <ol className="list-decimal pl-5">
                {next.map((d) => (
                  <li key={d.toISOString()}>
                    <DateTime iso={d.toISOString()} />
                  </li>
                ))}
              </ol>
            ) : (
              <p className="text-slate-700">None yet: choose a time in the future.</p>
            )}
            <p className="mt-1 text-slate-700">
              Each occurrence is a new run, checked as its rows stand then and approved like any run
              before anything is paid.
            </p>
          </section>
          <fieldset className="flex flex-col gap-2 text-sm">
            <legend className="mb-1 font-medium text-slate-900">Approval</legend>
            <label className="flex items-center gap-2">
              <Choice
                type="checkbox"
                checked={typed.preApprove}
                onChange={(e) => set('preApprove', e.target.checked)}
              />
              Pre-approve its occurrences up to a cap
            </label>
            {typed.preApprove ? (
              <Field
                id={`${base}-maxTotalUsd`}
                label="Most one occurrence may pay (USD)"
                hint="The schedule is approved once with this cap, its rows’ assets and destinations. An occurrence within it is paid without a new vote; one over it, or after the policy or the cap changes, is approved like any run. Only where the transactions policy allows it."
                error={errors.maxTotalUsd}
              >
                <Input
                  inputMode="decimal"
                  value={typed.maxTotalUsd}
                  onChange={(e) => set('maxTotalUsd', e.target.value)}
                  {...control('maxTotalUsd', true)}
                />
              </Field>
            ) : null}
          </fieldset>
          {schedule.isError && Object.keys(problems(schedule.error)).length === 0 ? (
            <p role="alert" className="text-sm text-red-800">
              {describeError(schedule.error)}
            </p>
          ) : null}
          <Button
            type="submit"
            variant="primary"
            className="self-start"
            disabled={schedule.isPending}
          >
            {schedule.isPending ? 'Scheduling…' : 'Schedule the run'}
          </Button>
        </form>
      )}
    </div>
  );
}
