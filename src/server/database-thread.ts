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

if (typeof workerData === 'object' && workerData !== null && 'simulatorThread' in workerData) {
  const { serveSimulatorThread } = await import('./custody/sandbox/engine/simulator-thread.ts');
  serveSimulatorThread();
} else {
  const { servePglite } = await import('./db/pglite-worker.ts');
  servePglite({
    simulate: (db, timeScale, logger) =>
      startSimulator({ db, clock: systemClock, timeScale, batch: batches(), logger }),
  });
}
