import { performance } from 'node:perf_hooks';
import {
  MessageChannel,
  receiveMessageOnPort,
  Worker,
  type MessagePort,
} from 'node:worker_threads';
import { types } from '@electric-sql/pglite';
import { is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import type { Logger } from 'pino';
import { threadScript } from '../thread-script.ts';
import { ForegroundPages } from './foreground.ts';
import type { FromWorker, RawResult, ToWorker, WireError, WorkerStart } from './pglite-protocol.ts';
import { SharedWriteCounts, tableName } from './read-cache.ts';
import * as consoleSchema from './schema/console.ts';
import * as sandboxSchema from './schema/sandbox.ts';

/**
 * The request thread's side of the PGlite worker (db/pglite-worker.ts): an
 * object with the part of PGlite's client that drizzle's PGlite driver and
 * its migrator use — `query`, `exec`, `transaction` — each a message to the
 * worker and its answer. Answers come back as PGlite gives them (rows,
 * fields, affected rows); errors with their SQLSTATE, constraint, table and
 * column, so the code that reads them (unique violations, data exceptions,
 * the log's allow-list) sees what it saw in process.
 */

/** An error of the database, rebuilt on this side with the fields it had. */
export class DatabaseError extends Error {
  constructor(wire: WireError) {
    super(wire.message, wire.cause ? { cause: fromWire(wire.cause) } : undefined);
    this.name = wire.name;
    Object.assign(this, wire.fields);
    if (wire.stack) this.stack = wire.stack;
  }
}

function fromWire(wire: WireError): Error {
  return new DatabaseError(wire);
}

/** The embedded database's thread stopped: every statement after is refused as a crash (503). */
function workerGone(detail: string): Error {
  return Object.assign(new Error(`the embedded database stopped: ${detail}`), { code: '57P02' });
}

/** Every table of the schema, `schema.name`: the slots of the shared write counts. */
export function schemaTables(): string[] {
  const values: unknown[] = [...Object.values(sandboxSchema), ...Object.values(consoleSchema)];
  const tables = values.filter((value): value is PgTable => is(value, PgTable));
  return [...new Set(tables.map((table) => tableName(table)))].sort();
}

/**
 * The worker's young generation: every statement's parameters and answer are
 * copied through it, short-lived. At V8's default the server stayed at
 * 244-256 MB resident after 15 s of 30 clients reading lists and details,
 * against 190-206 MB with PGlite in process; at 8 MB, 217-222 MB, as fast.
 */
const WORKER_YOUNG_GENERATION_MB = 8;

interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, unknown>;
}

/**
 * How long the request thread waits for a statement of a transaction it holds
 * open without returning to its event loop, at most, and a transaction's
 * statements in all. While a transaction is open nothing else runs in the
 * worker (one connection), so each return to a busy event loop between its
 * statements was the worker's time lost: 10-15 ms held per transaction for
 * 3-4 ms of statements, 15-20% of the worker's time under 30 clients. A
 * statement inside one takes about a millisecond; one slower than this, or a
 * transaction past its total, is awaited as any other answer.
 *
 * The server's total is its PGLITE_TRANSACTION_WAIT_MS setting (env.ts), given
 * to RemotePglite; this one is the default.
 */
export const WAIT_LIMITS = { statementMs: 10, transactionMs: 25 };

interface WaitBudget {
  leftMs: number;
}

type Parser = (value: string, typeId?: number) => unknown;
type Parsers = Record<number, Parser>;

/**
 * PGlite's parsers, as the worker's PGlite has them: its defaults and one for
 * each array type it found when it opened (`arrayTypes`, sent when ready).
 */
export function pgliteParsers(
  arrayTypes: ReadonlyArray<{ oid: number; typarray: number }>,
): Parsers {
  const parsers: Parsers = { ...(types.parsers as Parsers) };
  for (const { oid, typarray } of arrayTypes)
    parsers[typarray] = (value) => types.arrayParser(value, parsers[oid] as Parser, typarray);
  return parsers;
}

/**
 * A query's answer as PGlite gives it, parsed here from the text the worker
 * sent (db/pglite-worker.ts): each value by the caller's parser for its type,
 * else PGlite's own, else left as text, as PGlite does.
 */
export function parseRawResult(
  raw: RawResult,
  options: QueryOptions | undefined,
  parsers: Parsers,
): unknown {
  const { fields } = raw;
  const asked = options?.parsers as Parsers | undefined;
  const asArrays = options?.rowMode === 'array';
  const byColumn = fields.map(({ dataTypeID }) => asked?.[dataTypeID] ?? parsers[dataTypeID]);
  const rows = raw.rows.map((row) => {
    const values = row.map((value, i) => {
      const parse = byColumn[i];
      return value === null || !parse ? value : parse(value, fields[i]?.dataTypeID ?? 0);
    });
    if (asArrays) return values;
    const named: Record<string, unknown> = {};
    fields.forEach((field, i) => (named[field.name] = values[i]));
    return named;
  });
  return { ...raw, rows };
}

type Body<T extends ToWorker> = T extends unknown ? Omit<T, 'id'> : never;

/**
 * The entry of the server's worker threads, `src/server/database-thread.ts`
 * (the embedded database and the simulator beside it, or the simulator
 * alone over PostgreSQL).
 */
export function workerScript(): { script: string | URL; eval: boolean; file: string } {
  return threadScript('../database-thread', import.meta.url);
}

export class RemotePglite {
  readonly writeCounts: SharedWriteCounts;
  /** The pages being rendered, read by the simulator beside PGlite in its thread. */
  readonly foreground = new ForegroundPages();
  private readonly worker: Worker;
  private readonly pending = new Map<
    number,
    { resolve(value: unknown): void; reject(error: Error): void }
  >();
  private nextId = 1;
  private nextTx = 1;
  private gone: Error | undefined;
  /** Answers waited for without returning to the event loop (WorkerStart's answerPort). */
  private readonly answers: MessagePort;
  private readonly answered: Int32Array;
  private parsers: Parsers = { ...(types.parsers as Parsers) };
  closed = false;
  readonly waitReady: Promise<void>;

  /** WAIT_LIMITS.transactionMs, unless the server's setting says otherwise. */
  private readonly transactionWaitMs: number | undefined;

  constructor(
    options: { dataDir: string; sharedBuffers: string; transactionWaitMs?: number },
    private readonly log?: Pick<Logger, 'error'>,
  ) {
    this.transactionWaitMs = options.transactionWaitMs;
    const tables = schemaTables();
    const buffer = SharedWriteCounts.buffer(tables);
    this.writeCounts = new SharedWriteCounts(tables, buffer);
    const channel = new MessageChannel();
    this.answers = channel.port1;
    this.answered = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    const start: WorkerStart = {
      dataDir: options.dataDir,
      sharedBuffers: options.sharedBuffers,
      tables,
      writeCounts: buffer,
      answerPort: channel.port2,
      answered: this.answered.buffer as SharedArrayBuffer,
      foreground: this.foreground.buffer,
    };
    const entry = workerScript();
    this.worker = new Worker(entry.script, {
      eval: entry.eval,
      workerData: start,
      transferList: [channel.port2],
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    // An answer whose wait ran out arrives here, like any other.
    this.answers.on('message', (message: FromWorker) => this.receive(message));
    this.answers.unref();
    this.waitReady = new Promise((resolve, reject) => {
      const onMessage = (message: FromWorker) => {
        if ('op' in message && message.op === 'ready') {
          this.worker.off('message', onMessage);
          this.parsers = pgliteParsers(message.arrayTypes);
          resolve();
        } else if ('op' in message && message.op === 'failed') {
          this.worker.off('message', onMessage);
          reject(fromWire(message.error));
        }
      };
      this.worker.on('message', onMessage);
      this.worker.once('error', reject);
      this.worker.once('exit', (code) =>
        reject(new Error(`the embedded database's thread exited (${code}) before it was ready`)),
      );
    });
    this.worker.on('message', (message: FromWorker) => this.receive(message));
    this.worker.on('error', (error) => this.stop(workerGone(error.message)));
    this.worker.on('exit', (code) => this.stop(workerGone(`thread exited with ${code}`)));
  }

  private receive(message: FromWorker): void {
    if ('id' in message) {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (!waiting) return;
      if (message.ok) waiting.resolve(message.result);
      else waiting.reject(fromWire(message.error));
      return;
    }
    if (message.op === 'log')
      this.log?.error(
        {
          ...(message.err ? { err: fromWire(message.err) } : {}),
          ...(message.transactionId ? { transactionId: message.transactionId } : {}),
        },
        message.msg,
      );
  }

  private stop(error: Error): void {
    this.gone ??= error;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }

  /**
   * Sends `body` and answers with the worker's reply, through `parse` when
   * given. With `wait`, the reply is awaited here, blocking this thread, up to
   * WAIT_LIMITS.statementMs and what is left of `wait`: the promise is then already
   * settled when returned, and the caller's next statement goes out without a
   * turn of the event loop. Past that the reply is awaited as usual.
   */
  private call<T>(
    body: Body<ToWorker>,
    parse?: (result: unknown) => unknown,
    wait?: WaitBudget,
  ): Promise<T> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.nextId++;
    const answer = new Promise<T>((resolve, reject) => {
      this.pending.set(id, {
        resolve: (value) => {
          try {
            resolve((parse ? parse(value) : value) as T);
          } catch (error) {
            reject(error as Error);
          }
        },
        reject,
      });
    });
    if (!wait || wait.leftMs <= 0) {
      this.worker.postMessage({ ...body, id } as ToWorker);
      return answer;
    }
    let seen = Atomics.load(this.answered, 0);
    this.worker.postMessage({ ...body, id, sync: true } as ToWorker);
    const from = performance.now();
    const until = from + Math.min(WAIT_LIMITS.statementMs, wait.leftMs);
    while (this.pending.has(id)) {
      const left = until - performance.now();
      if (left <= 0) break;
      Atomics.wait(this.answered, 0, seen, left);
      seen = Atomics.load(this.answered, 0);
      for (
        let next = receiveMessageOnPort(this.answers);
        next;
        next = receiveMessageOnPort(this.answers)
      )
        this.receive(next.message as FromWorker);
    }
    wait.leftMs -= performance.now() - from;
    return answer;
  }

  private statement(tx?: { id: number; first(): boolean; wait(): WaitBudget | undefined }) {
    const inTx = () => {
      if (!tx) return {};
      return tx.first() ? { tx: tx.id, begin: true as const } : { tx: tx.id };
    };
    return {
      query: <T>(text: string, params?: unknown[], options?: QueryOptions) =>
        this.call<T>(
          { op: 'query', text, params, ...inTx() },
          (raw) => parseRawResult(raw as RawResult, options, this.parsers),
          tx?.wait(),
        ),
      exec: <T>(text: string) =>
        this.call<T>({ op: 'exec', text, ...inTx() }, undefined, tx?.wait()),
    };
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<T> {
    return this.statement().query<T>(text, params, options);
  }

  exec<T>(text: string): Promise<T> {
    return this.statement().exec<T>(text);
  }

  /**
   * Runs `callback` inside one database transaction: committed when it
   * resolves, rolled back when it throws. The worker begins it with its first
   * statement (a callback that runs none holds nothing) and runs no other
   * statement until it ends (PGlite has one connection). Once it has begun,
   * its statements are awaited without returning to the event loop, within
   * WAIT_LIMITS.transactionMs (or the server's setting) in all: the worker is not kept waiting for this
   * thread's next statement behind whatever else this thread has to do.
   */
  async transaction<T>(
    callback: (tx: ReturnType<RemotePglite['statement']> & { closed: boolean }) => Promise<T>,
  ): Promise<T> {
    const id = this.nextTx++;
    let state: 'new' | 'beginning' | 'open' = 'new';
    const budget: WaitBudget = { leftMs: this.transactionWaitMs ?? WAIT_LIMITS.transactionMs };
    const statements = this.statement({
      id,
      first: () => {
        if (state !== 'new') return false;
        state = 'beginning';
        return true;
      },
      // The first statement waits for the worker's connection: never blocking.
      wait: () => (state === 'open' ? budget : undefined),
    });
    const began = <R>(sent: Promise<R>): Promise<R> => {
      if (state === 'beginning')
        sent.then(
          () => (state = 'open'),
          () => (state = 'open'),
        );
      return sent;
    };
    const tx = {
      closed: false,
      query: <R>(...args: Parameters<typeof statements.query>) =>
        began(statements.query<R>(...args)),
      exec: <R>(text: string) => began(statements.exec<R>(text)),
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      tx.closed = true;
      if (state !== 'new')
        await this.call({ op: 'end', tx: id, commit: false }).catch(() => undefined);
      throw error;
    }
    tx.closed = true;
    if (state !== 'new') await this.call({ op: 'end', tx: id, commit: true });
    return result;
  }

  /** Runs the lifecycle simulator in the worker, beside the database. */
  simulate(timeScale: number): Promise<void> {
    return this.call({ op: 'simulate', timeScale });
  }

  stopSimulator(): Promise<void> {
    return this.call({ op: 'stop-simulator' });
  }

  /** Closes PGlite (flushing what it holds) and ends the thread. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      if (!this.gone) await this.call({ op: 'close' });
    } finally {
      await this.worker.terminate();
      this.answers.close();
    }
  }
}
