import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import type { PGlite } from '@electric-sql/pglite';
import type { Database } from './client.ts';

/**
 * Answers of hot reads (the session a cookie names, a page of transactions,
 * the reference data every page reads: vaults, assets, sub-organizations)
 * kept in memory and reused only while the database is provably unchanged.
 *
 * The version is PostgreSQL's own snapshot, `pg_current_snapshot()`: the
 * next transaction id and the ones still in flight. Two equal snapshots mean
 * no transaction committed in between — by this server, another server on
 * the same PostgreSQL, the lifecycle simulator, a CLI or psql — so an answer
 * read at one is the answer at the other. Any commit (any table, any
 * database of the cluster) changes it; invalidation needs no list of writes
 * to keep in step and no messages between servers.
 *
 * On PGlite one process owns the database (db/data-dir-lock.ts), so the
 * version is a counter of this process's writes instead, kept by
 * trackPgliteWrites below: no query at all.
 *
 * Each request reads the snapshot once, before its first cached read, and
 * a missed read stores its answer under that snapshot: the data it read is
 * the same or newer, never older, so a stored answer is never staler than
 * its key. A request thus costs one tiny query instead of a join and a page
 * of wide rows. Outside a request scope (tests calling stores directly, the
 * CLI, background work) every read goes to the database.
 */

interface Entry {
  version: string;
  value: unknown;
}

interface RequestReads {
  cache: ReadCache;
  version?: Promise<string>;
}

const scope = new AsyncLocalStorage<RequestReads>();
const localVersions = new WeakMap<Database, () => string>();

const READ_ONLY = /^\s*select\b/i;

// Every answer cachedRead has handed out: shared between requests, so never mutated.
const sharedAnswers = new WeakSet<object>();

/**
 * Whether `value` is an answer the read cache shares between requests: it is
 * never mutated, so what is derived from it alone (its JSON, its compressed
 * bytes: http/compress-json.ts) can be kept beside it.
 */
export function isSharedAnswer(value: unknown): boolean {
  return typeof value === 'object' && value !== null && sharedAnswers.has(value);
}

/**
 * Counts writes on a PGlite client that `db` is built over: one after every
 * statement that is not a plain SELECT and after every transaction, counted
 * once it has settled (committed or not). A request that read the count
 * before a write finished may store what it read under the old count; the
 * write's count makes that entry unreachable before the write is answered.
 */
export function trackPgliteWrites(client: PGlite, db: Database): void {
  let writes = 0;
  const counted = async <R>(run: Promise<R>, isWrite: boolean): Promise<R> => {
    try {
      return await run;
    } finally {
      if (isWrite) writes += 1;
    }
  };
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = ((text: string, ...rest: unknown[]) =>
    counted(
      (query as (text: string, ...rest: unknown[]) => Promise<unknown>)(text, ...rest),
      !READ_ONLY.test(text),
    )) as typeof client.query;
  client.exec = ((...args: Parameters<typeof exec>) =>
    counted(exec(...args), true)) as typeof client.exec;
  client.transaction = ((...args: Parameters<typeof transaction>) =>
    counted(transaction(...args), true)) as typeof client.transaction;
  localVersions.set(db, () => `local:${writes}`);
}

export class ReadCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly db: Database,
    private readonly maxEntries = 1000,
  ) {}

  /** The snapshot query in flight, if any. */
  private reading: Promise<string> | undefined;
  /** The query that starts once `reading` is done, shared by requests that arrived meanwhile. */
  private nextRead: Promise<string> | undefined;

  /**
   * The database's version now: a snapshot taken after this call began, so it
   * covers every commit that finished before it (another server's included).
   * On PostgreSQL concurrent requests share queries: one that arrives while a
   * query is in flight cannot use that query (it may have been taken before a
   * commit this request must see), so it waits for the next one, which all the
   * requests that arrived meanwhile share. At most one query is in flight, and
   * under load one answers many requests instead of one each.
   */
  snapshot(): Promise<string> {
    const local = localVersions.get(this.db);
    if (local) return Promise.resolve(local());
    if (!this.reading) return this.startRead();
    this.nextRead ??= this.reading.then(
      () => this.afterRead(),
      () => this.afterRead(),
    );
    return this.nextRead;
  }

  private afterRead(): Promise<string> {
    this.nextRead = undefined;
    return this.startRead();
  }

  private startRead(): Promise<string> {
    const read = this.querySnapshot();
    this.reading = read;
    const done = () => {
      if (this.reading === read) this.reading = undefined;
    };
    read.then(done, done);
    return read;
  }

  private async querySnapshot(): Promise<string> {
    const result = await this.db.execute<{ v: string }>(
      sql`select pg_current_snapshot()::text as v`,
    );
    const rows = Array.isArray(result) ? result : (result as { rows: Array<{ v: string }> }).rows;
    const version = rows[0]?.v;
    if (typeof version !== 'string') throw new Error('pg_current_snapshot() answered nothing');
    return version;
  }

  get(key: string, version: string): unknown {
    const entry = this.entries.get(key);
    return entry?.version === version ? entry.value : undefined;
  }

  set(key: string, version: string, value: unknown): void {
    // Re-inserted last, so the oldest entry is the first the map iterates.
    this.entries.delete(key);
    this.entries.set(key, { version, value });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  /**
   * Runs a GET's handlers with reads cached against one snapshot. Requests
   * that write read uncached: a read after their own write must see it.
   */
  middleware(): MiddlewareHandler {
    return (c, next) =>
      c.req.method === 'GET' || c.req.method === 'HEAD' ? scope.run({ cache: this }, next) : next();
  }
}

/**
 * `load()`'s answer, from the cache when nothing has committed since it was
 * stored. The answer is shared between requests: callers must not mutate it.
 * `key` must name everything the answer depends on (who asks, what filters).
 */
export async function cachedRead<T>(key: string, load: () => Promise<T>): Promise<T> {
  const reads = scope.getStore();
  if (!reads) return load();
  reads.version ??= reads.cache.snapshot();
  const version = await reads.version;
  const hit = reads.cache.get(key, version);
  if (hit !== undefined) return hit as T;
  const value = await load();
  reads.cache.set(key, version, value);
  if (typeof value === 'object' && value !== null) sharedAnswers.add(value);
  return value;
}
