import type { Clock } from '../clock.ts';

/**
 * A readiness probe that costs something (upstream mode's signed read of the
 * custody API), asked by callers nobody identifies (`GET /readyz`): at most
 * one probe runs at a time, callers that arrive meanwhile share it, and its
 * outcome, ready or not, answers every caller for `freshMs` after it settled.
 * Without it, each anonymous /readyz made one signed upstream call, so
 * anyone could spend the console's API user's rate limit.
 */

/** How long a probe's outcome answers /readyz: load balancers ask every 5–30 s. */
export const PROBE_FRESH_MS = 10_000;

export function cachedProbe(
  probe: () => Promise<void>,
  clock: Clock,
  freshMs = PROBE_FRESH_MS,
): () => Promise<void> {
  let inFlight: Promise<void> | undefined;
  let settled: { at: number; outcome: Promise<void> } | undefined;
  return () => {
    const now = clock.now().getTime();
    // A clock set back counts as stale, never as fresh for longer.
    if (settled && now >= settled.at && now - settled.at < freshMs) return settled.outcome;
    if (inFlight) return inFlight;
    const running = probe();
    inFlight = running;
    const remember = () => {
      inFlight = undefined;
      settled = { at: clock.now().getTime(), outcome: running };
    };
    running.then(remember, remember);
    return running;
  };
}
