import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import type { Database } from './client.ts';
import { compilePgliteAtBaselineTier } from './pglite-tier.ts';
import type { ToWorker, FromWorker, WireError, WorkerStart } from './pglite-protocol.ts';
import { SharedWriteCounts, trackPgliteWrites } from './read-cache.ts';
import * as sandboxSchema from './schema/sandbox.ts';

/**
 * The embedded database's own thread (issue 31). PGlite runs PostgreSQL as
 * WebAssembly, synchronously: every statement it runs stops the thread it
 * runs on. On the request thread that stalled the server's event loop for
 * 250–888 ms while lifecycles ran (200 pages polling). Here it stops only
 * this thread; the request thread sends statements and awaits answers
 * (db/pglite-remote.ts, the protocol in db/pglite-protocol.ts). The
 * thread's entry is `src/server/database-thread.ts`, which adds the
 * simulator (this layer knows no custody code).
 *
 * One PGlite, one connection: statements and transactions run one at a
 * time, in the order PGlite's own lock admits them, as they did in process.
 * A transaction the request thread opens holds that lock until it sends its
 * end, so no other statement runs inside it. The lifecycle simulator runs
 * here too, on its own Database over the same PGlite: its steps need no
 * round trip to the request thread, and it takes several steps per
 * transaction (one commit), sized to about 25 ms each so a request never
 * waits long behind one. Every write is counted in memory shared with the
 * request thread before it is answered (db/read-cache.ts, SharedWriteCounts).
 */

function post(message: FromWorker): void {
  if (!parentPort) throw new Error('db/pglite-worker.ts runs as a worker thread');
  parentPort.postMessage(message);
}

/** Work that runs beside the database in its thread: the simulator, started and stopped by message. */
export interface DatabaseThreadWork {
  simulate(
    db: Database,
    timeScale: number,
    logger: { error(fields: { err?: unknown; transactionId?: string }, msg?: string): void },
  ): { stop(): Promise<void> };
}

/** What can cross to the other thread of an error: its message, stack and every plain field. */
export function toWire(error: unknown): WireError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(error))
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      fields[key] = value;
  return {
    name: error.name,
    message: error.message,
    ...(error.stack ? { stack: error.stack } : {}),
    fields,
    ...(error.cause !== undefined ? { cause: toWire(error.cause) } : {}),
  };
}

/** drizzle asks for some types as their text; which ones it names by OID. */
function rawParsers(oids: readonly number[] | undefined) {
  if (!oids) return undefined;
  return Object.fromEntries(oids.map((oid) => [oid, (value: string) => value]));
}

interface OpenTransaction {
  tx: Transaction;
  finish(commit: boolean): void;
  settled: Promise<unknown>;
}

class Rollback extends Error {}

async function serve(work: DatabaseThreadWork): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('db/pglite-worker.ts runs as a worker thread');
  const start = workerData as WorkerStart;
  // The optimizing tier cost ~55 MB resident for no query speed (db/pglite-tier.ts).
  compilePgliteAtBaselineTier();
  const client = new PGlite(start.dataDir, {
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${start.sharedBuffers}`],
  });
  await client.waitReady;
  const db = drizzle({ client, schema: sandboxSchema }) as unknown as Database;
  trackPgliteWrites(client, undefined, new SharedWriteCounts(start.tables, start.writeCounts));

  const open = new Map<number, OpenTransaction>();
  let nextTx = 1;
  let simulator: { stop(): Promise<void> } | undefined;

  const begin = () =>
    new Promise<number>((resolve, reject) => {
      const id = nextTx++;
      let finish: (commit: boolean) => void = () => undefined;
      const decided = new Promise<void>((commit, rollback) => {
        finish = (yes) => (yes ? commit() : rollback(new Rollback()));
      });
      const settled = client.transaction(async (tx) => {
        open.set(id, { tx, finish, settled });
        resolve(id);
        await decided;
      });
      settled.catch((error: unknown) => {
        if (!open.has(id)) reject(error as Error);
      });
    });

  const end = async (id: number, commit: boolean) => {
    const entry = open.get(id);
    if (!entry) throw new Error(`no open transaction ${id}`);
    entry.finish(commit);
    try {
      await entry.settled;
    } catch (error) {
      if (!(error instanceof Rollback)) throw error;
    } finally {
      open.delete(id);
    }
  };

  const runner = (id: number | undefined) => {
    if (id === undefined) return client;
    const entry = open.get(id);
    if (!entry) throw new Error(`no open transaction ${id}`);
    return entry.tx;
  };

  const handle = async (message: ToWorker): Promise<unknown> => {
    switch (message.op) {
      case 'query': {
        const parsers = rawParsers(message.rawTypes);
        return runner(message.tx).query(message.text, message.params, {
          ...(message.rowMode ? { rowMode: message.rowMode } : {}),
          ...(parsers ? { parsers } : {}),
        });
      }
      case 'exec':
        return runner(message.tx).exec(message.text);
      case 'begin':
        return begin();
      case 'end':
        return end(message.tx, message.commit);
      case 'simulate':
        await simulator?.stop();
        simulator = work.simulate(db, message.timeScale, {
          error: (fields, msg) =>
            post({
              op: 'log',
              level: 'error',
              msg: msg ?? '',
              ...(fields.err !== undefined ? { err: toWire(fields.err) } : {}),
              ...(fields.transactionId ? { transactionId: fields.transactionId } : {}),
            }),
        });
        return undefined;
      case 'stop-simulator':
        await simulator?.stop();
        simulator = undefined;
        return undefined;
      case 'close':
        await simulator?.stop();
        simulator = undefined;
        if (!client.closed) await client.close();
        return undefined;
    }
  };

  port.on('message', (message: ToWorker) => {
    handle(message).then(
      (result) => post({ id: message.id, ok: true, result }),
      (error: unknown) => post({ id: message.id, ok: false, error: toWire(error) }),
    );
  });
  post({ op: 'ready' });
}

/** Opens the database and answers the request thread until closed: a worker thread's whole job. */
export function servePglite(work: DatabaseThreadWork): void {
  serve(work).catch((error: unknown) => post({ op: 'failed', error: toWire(error) }));
}
