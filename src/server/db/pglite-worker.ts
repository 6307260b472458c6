import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types, type Transaction } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import type { Database } from './database.ts';
import { ForegroundPages } from './foreground.ts';
import { compilePgliteAtBaselineTier } from './pglite-tier.ts';
import type { ToWorker, FromWorker, WireError, WorkerStart } from './pglite-protocol.ts';
import { workerStats } from './pglite-stats.ts';
import { countDeclaredWrites } from './declared-writes.ts';
import { SharedWriteCounts } from './read-cache.ts';
import * as sandboxSchema from './schema/sandbox.ts';

/**
 * The embedded database's own thread. PGlite runs PostgreSQL as
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
 * waits long behind one. Each thread counts the writes it makes, as the code
 * declares them, in memory both share (db/declared-writes.ts,
 * db/read-cache.ts's SharedWriteCounts): this thread only runs statements.
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
    foreground: ForegroundPages,
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

/**
 * PGlite's parsers in this thread: its defaults for the base types, none for
 * arrays. PGlite copies its whole parser table into a new object for every
 * query given parsers of its own, as drizzle's always are: with the 318
 * entries it has once it has added one for each array type, that copy cost
 * about half of a point query's time (1.6 against 1.1 ms, in process under
 * load). The simulator here reads no array column (drizzle parses an array's
 * text itself); the request thread parses arrays with PGlite's own parsers
 * (RemotePglite, from `arrayTypes`).
 */
function baseParsersOnly(client: PGlite): void {
  (client as { parsers: Record<number, unknown> }).parsers = { ...types.parsers };
}

/**
 * Every type this thread's PGlite would parse, answered as its text instead:
 * the request thread parses them (RemotePglite, with the parsers its caller
 * asked for), and text crosses between threads for less than the objects
 * parsed from it, JSON columns above all.
 */
const UNPARSED: Record<number, (value: string) => string> = Object.fromEntries(
  Object.keys(types.parsers).map((oid) => [Number(oid), (value: string) => value]),
);

/** The array types PGlite parses, as it finds them when it opens (its _initArrayTypes). */
async function arrayTypes(client: PGlite): Promise<Array<{ oid: number; typarray: number }>> {
  const { rows } = await client.query<{ oid: number; typarray: number }>(`
    select b.oid, b.typarray
    from pg_catalog.pg_type a
    left join pg_catalog.pg_type b on b.oid = a.typelem
    where a.typcategory = 'A'
    group by b.oid, b.typarray
    order by b.oid`);
  return rows;
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
  // The simulator's writes are counted here as it makes them; the request thread counts its own
  // (db/declared-writes.ts). Its reads here are versioned by the same counts (threadWriteVersion).
  countDeclaredWrites(db, new SharedWriteCounts(start.tables, start.writeCounts));
  const answered = new Int32Array(start.answered);
  const foreground = new ForegroundPages(start.foreground);
  const arrays = await arrayTypes(client);
  baseParsersOnly(client);
  const stats = workerStats();

  /** Transactions the request thread holds, by the id it gave them: open, or opening. */
  const open = new Map<number, Promise<OpenTransaction>>();
  let simulator: { stop(): Promise<void> } | undefined;

  const begin = (id: number) => {
    const opening = new Promise<OpenTransaction>((resolve, reject) => {
      let finish: (commit: boolean) => void = () => undefined;
      const decided = new Promise<void>((commit, rollback) => {
        finish = (yes) => (yes ? commit() : rollback(new Rollback()));
      });
      let began = false;
      const settled: Promise<unknown> = client.transaction(async (tx) => {
        began = true;
        stats?.began(id);
        resolve({ tx, finish, settled });
        await decided;
      });
      settled.catch((error: unknown) => {
        if (!began) reject(error as Error);
      });
    });
    open.set(id, opening);
    // A transaction that never began is not open: its end finds nothing to settle.
    opening.catch(() => open.delete(id));
    return opening;
  };

  const end = async (id: number, commit: boolean) => {
    const opening = open.get(id);
    if (!opening) {
      // Its first statement failed to begin it: nothing to roll back.
      if (!commit) return;
      throw new Error(`no open transaction ${id}`);
    }
    stats?.ended(id);
    const entry = await opening;
    entry.finish(commit);
    try {
      await entry.settled;
    } catch (error) {
      if (!(error instanceof Rollback)) throw error;
    } finally {
      open.delete(id);
    }
  };

  const runner = async (message: { tx?: number; begin?: true }) => {
    if (message.tx === undefined) return client;
    const opening = message.begin ? begin(message.tx) : open.get(message.tx);
    if (!opening) throw new Error(`no open transaction ${message.tx}`);
    return (await opening).tx;
  };

  const handle = async (message: ToWorker): Promise<unknown> => {
    switch (message.op) {
      case 'query':
        return (await runner(message)).query(message.text, message.params, {
          rowMode: 'array',
          parsers: UNPARSED,
        });
      case 'exec':
        return (await runner(message)).exec(message.text);
      case 'end':
        return end(message.tx, message.commit);
      case 'simulate':
        await simulator?.stop();
        simulator = work.simulate(
          db,
          message.timeScale,
          {
            error: (fields, msg) =>
              post({
                op: 'log',
                level: 'error',
                msg: msg ?? '',
                ...(fields.err !== undefined ? { err: toWire(fields.err) } : {}),
                ...(fields.transactionId ? { transactionId: fields.transactionId } : {}),
              }),
          },
          foreground,
        );
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

  const answer = (message: ToWorker, reply: FromWorker) => {
    if ((message.op === 'query' || message.op === 'exec') && message.sync) {
      start.answerPort.postMessage(reply);
      Atomics.add(answered, 0, 1);
      Atomics.notify(answered, 0);
    } else post(reply);
  };

  port.on('message', (message: ToWorker) => {
    const done = stats?.received(message);
    handle(message).then(
      (result) => {
        done?.();
        answer(message, { id: message.id, ok: true, result });
      },
      (error: unknown) => {
        done?.();
        answer(message, { id: message.id, ok: false, error: toWire(error) });
      },
    );
  });
  post({ op: 'ready', arrayTypes: arrays });
}

/** Opens the database and answers the request thread until closed: a worker thread's whole job. */
export function servePglite(work: DatabaseThreadWork): void {
  serve(work).catch((error: unknown) => post({ op: 'failed', error: toWire(error) }));
}
