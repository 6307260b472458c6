import type { MessagePort } from 'node:worker_threads';

/**
 * The messages between the request thread and the PGlite worker thread
 * (db/pglite-remote.ts, db/pglite-worker.ts). Every request carries an id
 * and gets one answer with it; statements inside a transaction name it.
 */

export interface WorkerStart {
  dataDir: string;
  sharedBuffers: string;
  /** The schema's tables, `schema.name`, in the order of their write-count slots. */
  tables: string[];
  writeCounts: SharedArrayBuffer;
  /**
   * Answers the request thread waits for without returning to its event loop
   * (a statement inside a transaction it holds open): posted on `answerPort`,
   * then slot 0 of `answered` is counted up and notified.
   */
  answerPort: MessagePort;
  answered: SharedArrayBuffer;
  /** The pages being rendered (db/foreground.ts): the simulator's batches let them go first. */
  foreground: SharedArrayBuffer;
}

export type ToWorker = { id: number } & (
  | {
      /** Answered as RawResult: every value as PostgreSQL's text, parsed by the request thread. */
      op: 'query';
      text: string;
      params: unknown[] | undefined;
      tx?: number;
      /** The transaction's first statement: the worker begins `tx` before running it. */
      begin?: true;
      /** Answer on the answer port (WorkerStart): the request thread is waiting for it. */
      sync?: true;
    }
  | { op: 'exec'; text: string; tx?: number; begin?: true; sync?: true }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'simulate'; timeScale: number }
  | { op: 'stop-simulator' }
  | { op: 'close' }
);

/** A query's answer as it crosses: rows of unparsed text (or null), one array per row. */
export interface RawResult {
  rows: Array<Array<string | null>>;
  fields: Array<{ name: string; dataTypeID: number }>;
  affectedRows?: number;
  [other: string]: unknown;
}

export interface WireError {
  name: string;
  message: string;
  stack?: string;
  /** code, severity, constraint, table, column, detail, query…: whatever plain fields it had. */
  fields: Record<string, string | number | boolean>;
  cause?: WireError;
}

export type FromWorker =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: WireError }
  | {
      op: 'ready';
      /** Each array type PGlite parses and its element's type, for the request thread's parsers. */
      arrayTypes: Array<{ oid: number; typarray: number }>;
    }
  | { op: 'failed'; error: WireError }
  | { op: 'log'; level: 'error'; msg: string; err?: WireError; transactionId?: string };
