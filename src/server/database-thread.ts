import { workerData } from 'node:worker_threads';
import { systemClock } from './clock.ts';
import {
  adaptiveBatch,
  startSimulator,
  type BatchSize,
} from './custody/sandbox/engine/simulator.ts';
import { workerStats } from './db/pglite-stats.ts';

/**
 * The server's worker threads' entry (started by db/pglite-remote.ts and
 * custody/sandbox/engine/simulator-thread.ts): the embedded database, PGlite,
 * with the sandbox's lifecycle simulator beside it taking several steps per
 * transaction sized to what PGlite sustains; or, over PostgreSQL, the
 * simulator alone. Each loads only what it runs (the PGlite thread no pg
 * driver).
 */
function batches(): BatchSize {
  const batch = adaptiveBatch();
  const stats = workerStats();
  if (!stats) return batch;
  return {
    next: () => batch.next(),
    took(steps, ms, overdueMs) {
      stats.simulated(steps, ms);
      batch.took(steps, ms, overdueMs);
    },
  };
}

/**
 * The longest a simulator batch waits for the pages being rendered to be
 * sent (db/foreground.ts): a page's reads are answered in milliseconds once
 * PGlite's connection is free, and the simulator keeps its pace under a
 * steady stream of pages.
 */
const PAGES_FIRST_MS = 250;

if (typeof workerData === 'object' && workerData !== null && 'simulatorThread' in workerData) {
  const { serveSimulatorThread } = await import('./custody/sandbox/engine/simulator-thread.ts');
  serveSimulatorThread();
} else {
  const { servePglite } = await import('./db/pglite-worker.ts');
  servePglite({
    simulate: (db, timeScale, logger, foreground) =>
      startSimulator({
        db,
        clock: systemClock,
        timeScale,
        batch: batches(),
        logger,
        beforeBatch: () => foreground.quiet(PAGES_FIRST_MS),
      }),
  });
}
