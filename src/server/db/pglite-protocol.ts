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
}

export type ToWorker = { id: number } & (
  | {
      op: 'query';
      text: string;
      params: unknown[] | undefined;
      rowMode?: 'array' | 'object';
      /** Types (OIDs) answered as their text, unparsed: what drizzle's parsers ask for. */
      rawTypes?: number[];
      tx?: number;
    }
  | { op: 'exec'; text: string; tx?: number }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'simulate'; timeScale: number }
  | { op: 'stop-simulator' }
  | { op: 'close' }
);

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
  | { op: 'ready' }
  | { op: 'failed'; error: WireError }
  | { op: 'log'; level: 'error'; msg: string; err?: WireError; transactionId?: string };
