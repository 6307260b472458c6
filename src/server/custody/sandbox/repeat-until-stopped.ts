import { isDatabaseUnavailable } from '../../http/database-errors.ts';

export interface RepeatOptions {
  /** The pause after each pass before the next. */
  intervalMs: number;
  /** One pass; what it throws never ends the loop. */
  pass: () => Promise<unknown>;
  /** A pass failed for a reason other than the database being away. */
  failed: (error: unknown) => void;
  /** The database is unavailable (http/database-errors.ts): told once per outage. */
  unavailable: (error: unknown) => void;
  /** While it is unavailable, the pause doubles up to this; by default it stays `intervalMs`. */
  maxOutageBackoffMs?: number;
}

/**
 * The sandbox's background loops (the lifecycle simulator, the webhook
 * dispatcher): a pass now, and the next one `intervalMs` after each ends,
 * never two at once. An outage is told once, not at every pass, and the
 * first pass that succeeds resumes the usual pace. `stop()` resolves once the
 * pass under way has ended.
 */
export function repeatUntilStopped(options: RepeatOptions): { stop(): Promise<void> } {
  const { intervalMs } = options;
  const maxBackoff = options.maxOutageBackoffMs ?? intervalMs;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<unknown> = Promise.resolve();
  let delay = intervalMs;
  let outage = false;

  const tick = () => {
    pass = options
      .pass()
      .then(() => {
        outage = false;
        delay = intervalMs;
      })
      .catch((error: unknown) => {
        if (!isDatabaseUnavailable(error)) {
          delay = intervalMs;
          options.failed(error);
          return;
        }
        if (!outage) options.unavailable(error);
        outage = true;
        delay = Math.min(delay * 2, maxBackoff);
      })
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, delay);
      });
  };
  timer = setTimeout(tick, 0);

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await pass;
    },
  };
}
