import { systemClock } from './clock.ts';
import { adaptiveBatch, startSimulator } from './custody/sandbox/engine/simulator.ts';
import { servePglite } from './db/pglite-worker.ts';

/**
 * The embedded database's thread (db/pglite-worker.ts, started by
 * db/pglite-remote.ts): PGlite, and the sandbox's lifecycle simulator beside
 * it, taking several steps per transaction sized to what PGlite sustains.
 */
servePglite({
  simulate: (db, timeScale, logger) =>
    startSimulator({ db, clock: systemClock, timeScale, batch: adaptiveBatch(), logger }),
});
