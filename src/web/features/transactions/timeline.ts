import { TRANSACTION_LIFECYCLE } from '#contract/enums.ts';
import type { Transaction } from '#contract/transaction.ts';

/**
 * The lifecycle a transaction goes through, as the timeline shows it: the
 * contract's main path, and the two branches that end it early.
 */
const LIFECYCLE: readonly string[] = TRANSACTION_LIFECYCLE;

export type StepState = 'done' | 'current' | 'upcoming' | 'failed';

export interface TimelineStep {
  status: string;
  state: StepState;
  /** When the step was first reached (ISO), if recorded. */
  at?: string;
  /** Time since the previous recorded step, in ms. */
  afterMs?: number;
}

/** The steps to show for `tx`, with when each was reached and how long after the one before. */
export function timelineSteps(tx: Pick<Transaction, 'status' | 'statusHistory'>): TimelineStep[] {
  const reached = new Map<string, string>();
  for (const entry of tx.statusHistory ?? []) {
    if (!reached.has(entry.status)) reached.set(entry.status, entry.at);
  }
  const current = tx.status ?? '';
  const mainIndex = LIFECYCLE.indexOf(current);

  let steps: TimelineStep[];
  if (mainIndex >= 0) {
    // The last step reached is where the transaction is now, unless it is the
    // end of the road (COMPLETED): then every step is done, none is pending.
    const finished = mainIndex === LIFECYCLE.length - 1;
    steps = LIFECYCLE.map((status, i) => ({
      status,
      state: i < mainIndex || finished ? 'done' : i === mainIndex ? 'current' : 'upcoming',
    }));
  } else {
    // FAILED, DECLINED (or a status this console does not know): the steps
    // it went through, then where it ended.
    const before = LIFECYCLE.filter((s) => reached.has(s) && s !== current);
    steps = [
      ...before.map((status): TimelineStep => ({ status, state: 'done' })),
      {
        status: current,
        state: current === 'FAILED' || current === 'DECLINED' ? 'failed' : 'current',
      },
    ];
  }

  let previousAt: number | undefined;
  return steps.map((step) => {
    const at = reached.get(step.status);
    if (at === undefined || step.state === 'upcoming') return step;
    const time = Date.parse(at);
    const withTime: TimelineStep = { ...step, at };
    if (previousAt !== undefined && !Number.isNaN(time)) withTime.afterMs = time - previousAt;
    if (!Number.isNaN(time)) previousAt = time;
    return withTime;
  });
}

/** "under 1 s", "42 s", "3 min 5 s", "2 h 10 min", "3 d 4 h". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return 'under 1 s';
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}
