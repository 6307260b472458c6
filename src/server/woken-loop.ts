import type { Logger } from 'pino';
import type { Database, DatabaseHandle } from './db/client.ts';
import { writeVersion } from './db/read-cache.ts';
import { isDatabaseUnavailable } from './http/database-errors.ts';

/**
 * A background pass run as soon as something may have changed: on
 * PostgreSQL at a NOTIFY on `channel` (its LISTEN taken again by the next
 * round after a lost connection), on PGlite when the write count of `tables`
 * moves, and every `intervalMs` anyway (what falls due with time; a LISTEN
 * lost meanwhile). Passes never overlap: a wake during one asks for one more
 * after it. A failed pass is logged; the database being unavailable, once
 * until a pass succeeds. The webhook dispatcher and the notifier run on it.
 */
export interface WokenLoopOptions {
  /** The name log lines start with: "webhooks: …". */
  name: string;
  /** One pass; `stopped` says whether stop() was called meanwhile, for a pass that loops. */
  pass: (stopped: () => boolean) => Promise<unknown>;
  db: Database;
  logger: Pick<Logger, 'error' | 'warn'>;
  intervalMs: number;
  /** PostgreSQL's LISTEN, when the database has one. */
  listen?: DatabaseHandle['listen'] | undefined;
  channel: string;
  /** Without LISTEN: the tables whose writes wake it, watched every `watchMs`. */
  tables: readonly string[];
  watchMs: number;
}

export interface WokenLoop {
  wake(): void;
  /** Stops waking it, and waits for the pass under way. */
  stop(): Promise<void>;
}

export function startWokenLoop(options: WokenLoopOptions): WokenLoop {
  const { name, logger, listen, intervalMs } = options;
  let stopped = false;
  let passing: Promise<void> | undefined;
  let again = false;
  let outage = false;

  function wake(): void {
    if (stopped) return;
    if (passing) {
      again = true;
      return;
    }
    passing = (async () => {
      try {
        do {
          again = false;
          await options.pass(() => stopped);
          outage = false;
        } while (again && !stopped);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) {
          logger.error({ err: error }, `${name}: a pass failed`);
        } else if (!outage) {
          outage = true;
          logger.warn({ err: error }, `${name}: the database is unavailable`);
        }
      } finally {
        passing = undefined;
      }
    })();
  }

  const timers: NodeJS.Timeout[] = [setInterval(wake, intervalMs)];
  let unlisten: (() => Promise<void>) | undefined;
  let listening: Promise<void> | undefined;
  const listenAgain = () => {
    if (!listen || unlisten || listening || stopped) return;
    listening = listen(options.channel, wake, () => {
      // The next round listens again; the interval's passes run meanwhile.
      unlisten = undefined;
      logger.warn(`${name}: the LISTEN connection was lost`);
    })
      .then((stop) => {
        if (stopped) return stop();
        unlisten = stop;
      })
      .catch((error: unknown) => {
        logger.warn({ err: error }, `${name}: LISTEN failed; polling until it works`);
      })
      .finally(() => {
        listening = undefined;
      });
  };
  if (listen) {
    listenAgain();
    timers.push(setInterval(listenAgain, intervalMs));
  } else {
    let seen = writeVersion(options.db, options.tables);
    if (seen !== undefined)
      timers.push(
        setInterval(() => {
          const now = writeVersion(options.db, options.tables);
          if (now === seen) return;
          seen = now;
          wake();
        }, options.watchMs),
      );
  }
  for (const timer of timers) timer.unref();
  wake();

  return {
    wake,
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await listening;
      await unlisten?.().catch(() => undefined);
      unlisten = undefined;
      await passing;
    },
  };
}
