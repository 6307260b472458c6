import { Worker } from 'node:worker_threads';
import { is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import type { Logger } from 'pino';
import type { FromWorker, ToWorker, WireError, WorkerStart } from './pglite-protocol.ts';
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

type Body<T extends ToWorker> = T extends unknown ? Omit<T, 'id'> : never;

/**
 * The worker's entry, `src/server/database-thread.ts` (the database and the
 * simulator beside it): compiled, the .js; under tsx (dev, tests, the CLI)
 * the .ts loaded through tsx, which a worker thread does not inherit.
 */
function workerScript(): { script: string | URL; eval: boolean; file: string } {
  const here = import.meta.url;
  if (here.endsWith('.js')) {
    const url = new URL('../database-thread.js', here);
    return { script: url, eval: false, file: url.href };
  }
  const file = new URL('../database-thread.ts', here).href;
  // Under tsx only (a dev dependency): the compiled server takes the branch above.
  const loader = 'tsx/esm/api';
  return {
    script: `import(${JSON.stringify(loader)}).then(({ tsImport }) => tsImport(${JSON.stringify(file)}, ${JSON.stringify(here)}));`,
    eval: true,
    file,
  };
}

export class RemotePglite {
  readonly writeCounts: SharedWriteCounts;
  private readonly worker: Worker;
  private readonly pending = new Map<
    number,
    { resolve(value: unknown): void; reject(error: Error): void }
  >();
  private nextId = 1;
  private gone: Error | undefined;
  closed = false;
  readonly waitReady: Promise<void>;

  constructor(
    options: { dataDir: string; sharedBuffers: string },
    private readonly log?: Pick<Logger, 'error'>,
  ) {
    const tables = schemaTables();
    const buffer = SharedWriteCounts.buffer(tables);
    this.writeCounts = new SharedWriteCounts(tables, buffer);
    const start: WorkerStart = {
      dataDir: options.dataDir,
      sharedBuffers: options.sharedBuffers,
      tables,
      writeCounts: buffer,
    };
    const entry = workerScript();
    this.worker = new Worker(entry.script, {
      eval: entry.eval,
      workerData: start,
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    this.waitReady = new Promise((resolve, reject) => {
      const onMessage = (message: FromWorker) => {
        if ('op' in message && message.op === 'ready') {
          this.worker.off('message', onMessage);
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

  private call<T>(body: Body<ToWorker>): Promise<T> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...body, id } as ToWorker);
    });
  }

  private statement(tx: number | undefined) {
    return {
      query: <T>(text: string, params?: unknown[], options?: QueryOptions) =>
        this.call<T>({
          op: 'query',
          text,
          params,
          ...(options?.rowMode ? { rowMode: options.rowMode } : {}),
          ...(options?.parsers ? { rawTypes: Object.keys(options.parsers).map(Number) } : {}),
          ...(tx === undefined ? {} : { tx }),
        }),
      exec: <T>(text: string) =>
        this.call<T>({ op: 'exec', text, ...(tx === undefined ? {} : { tx }) }),
    };
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<T> {
    return this.statement(undefined).query<T>(text, params, options);
  }

  exec<T>(text: string): Promise<T> {
    return this.statement(undefined).exec<T>(text);
  }

  /**
   * Runs `callback` inside one database transaction: committed when it
   * resolves, rolled back when it throws. Until then the worker runs no other
   * statement (PGlite has one connection).
   */
  async transaction<T>(
    callback: (tx: ReturnType<RemotePglite['statement']> & { closed: boolean }) => Promise<T>,
  ): Promise<T> {
    const id = await this.call<number>({ op: 'begin' });
    const tx = { ...this.statement(id), closed: false };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      tx.closed = true;
      await this.call({ op: 'end', tx: id, commit: false }).catch(() => undefined);
      throw error;
    }
    tx.closed = true;
    await this.call({ op: 'end', tx: id, commit: true });
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
    }
  }
}
