import { parentPort, Worker, workerData } from 'node:worker_threads';
import pg from 'pg';
import type { Logger } from 'pino';
import { systemClock } from '../../../clock.ts';
import { PG_CONNECT_TIMEOUT_MS, wrapPgPool, type Database } from '../../../db/client.ts';
import { DatabaseError, workerScript } from '../../../db/pglite-remote.ts';
import type { WireError } from '../../../db/pglite-protocol.ts';
import { toWire } from '../../../db/pglite-worker.ts';
import { startSimulator, type RunningSimulator } from './simulator.ts';

/**
 * The lifecycle simulator over PostgreSQL, in a worker thread of its own
 * (entry `src/server/database-thread.ts`) with a pool of its own: each step
 * is several statements, one round trip each, and on the request thread
 * every answer waited its turn behind the requests' work. Under the
 * 30-client mix it fell 30-52 s behind with four lanes; here its
 * round trips wait for nothing but PostgreSQL. Steps stay one per database
 * transaction: the lanes lock balance rows step by step in one order
 * (balances.ts), and a batch of steps would hold them in no one order.
 */

export interface SimulatorThreadStart {
  simulatorThread: { databaseUrl: string; timeScale: number; lanes: number };
}

type ToThread = { op: 'stop' };
type FromThread =
  | { op: 'ready' }
  | { op: 'stopped' }
  | { op: 'log'; level: 'error' | 'warn'; msg: string; err?: WireError; transactionId?: string };

export function isSimulatorThread(data: unknown): data is SimulatorThreadStart {
  return typeof data === 'object' && data !== null && 'simulatorThread' in data;
}

/** In the thread: runs the simulator until told to stop (database-thread.ts). */
export function serveSimulatorThread(): void {
  const port = parentPort;
  if (!port || !isSimulatorThread(workerData)) throw new Error('not the simulator thread');
  const { databaseUrl, timeScale, lanes } = workerData.simulatorThread;
  const log =
    (level: 'error' | 'warn') =>
    (fields: { err?: unknown; transactionId?: string }, msg?: string) =>
      port.postMessage({
        op: 'log',
        level,
        msg: msg ?? '',
        ...(fields.err !== undefined ? { err: toWire(fields.err) } : {}),
        ...(fields.transactionId ? { transactionId: fields.transactionId } : {}),
      } satisfies FromThread);
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: lanes + 1,
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
  });
  const handle = wrapPgPool(pool, { warn: log('warn'), error: log('error') });
  const simulator = startSimulator({
    db: handle.db,
    clock: systemClock,
    timeScale,
    lanes,
    logger: { error: log('error') },
  });
  port.on('message', (message: ToThread) => {
    if (message.op !== 'stop') return;
    void simulator
      .stop()
      .then(() => handle.close())
      .finally(() => port.postMessage({ op: 'stopped' } satisfies FromThread));
  });
  port.postMessage({ op: 'ready' } satisfies FromThread);
}

/**
 * Starts the simulator over PostgreSQL in its own thread. Should the thread
 * die, the simulator carries on in this thread over `db` (the request
 * thread's pool), as it ran before, and says so in the log.
 */
export async function startSimulatorThread(options: {
  databaseUrl: string;
  timeScale: number;
  db: Database;
  logger: Pick<Logger, 'error'> & Partial<Pick<Logger, 'warn'>>;
  /** Step transactions at once: the thread's pool holds these and one more connection. */
  lanes: number;
}): Promise<RunningSimulator> {
  const { logger, lanes } = options;
  const entry = workerScript();
  const start: SimulatorThreadStart = {
    simulatorThread: { databaseUrl: options.databaseUrl, timeScale: options.timeScale, lanes },
  };
  const worker = new Worker(entry.script, {
    eval: entry.eval,
    workerData: start,
    // Its garbage is each step's rows and statements, short-lived (db/pglite-remote.ts).
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
  let stopping = false;
  let fallback: RunningSimulator | undefined;
  const stopped = new Promise<void>((resolve) => {
    worker.on('message', (message: FromThread) => {
      if (message.op === 'stopped') resolve();
      if (message.op !== 'log') return;
      const fields = {
        ...(message.err ? { err: new DatabaseError(message.err) } : {}),
        ...(message.transactionId ? { transactionId: message.transactionId } : {}),
      };
      if (message.level === 'warn') logger.warn?.(fields, message.msg);
      else logger.error(fields, message.msg);
    });
    worker.once('exit', () => resolve());
  });
  await new Promise<void>((resolve, reject) => {
    const onMessage = (message: FromThread) => {
      if (message.op !== 'ready') return;
      worker.off('message', onMessage);
      resolve();
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.once('exit', (code) =>
      reject(new Error(`the simulator's thread exited (${code}) before it was ready`)),
    );
  });
  worker.on('error', (error) => logger.error({ err: error }, "the simulator's thread failed"));
  worker.once('exit', (code) => {
    if (stopping) return;
    logger.error(
      { code },
      "the simulator's thread stopped; the simulator runs in the server's thread instead",
    );
    fallback = startSimulator({
      db: options.db,
      clock: systemClock,
      timeScale: options.timeScale,
      lanes,
      logger,
    });
  });
  return {
    async stop() {
      stopping = true;
      await fallback?.stop();
      worker.postMessage({ op: 'stop' } satisfies ToThread);
      await stopped;
      await worker.terminate();
    },
  };
}
