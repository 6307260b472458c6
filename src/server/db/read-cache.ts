import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './database.ts';

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
 * version is a count of this process's writes instead, kept where the writes
 * are made (db/declared-writes.ts: each write counts the tables the code
 * declares it changes): no query at all. The
 * server's PGlite runs in a worker thread (db/pglite-worker.ts), which
 * counts in memory it shares with the request thread (SharedWriteCounts),
 * the simulator's writes in that thread included. There the count is also kept per
 * table, and a read that names the tables it reads (`cachedRead`'s `tables`)
 * is versioned by those alone: the lifecycle simulator's steps, a commit or
 * two a second while transactions move, then no longer drop the session and
 * reference data every page reads (bench/README.md, "What each figure rests on").
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
  /** A request that writes (PGlite only): versions are read at each read, not once. */
  eachRead?: boolean;
}

const scope = new AsyncLocalStorage<RequestReads>();
const localVersions = new WeakMap<Database, WriteCounts>();

const tableNames = new WeakMap<PgTable, string>();

/**
 * A table's name as the write counts know it: `schema.name`. Kept per table:
 * getTableConfig builds the table's whole configuration, too much for every
 * request (it made a cached list answer cost 70% more CPU).
 */
export function tableName(table: PgTable): string {
  let name = tableNames.get(table);
  if (name === undefined) {
    const config = getTableConfig(table);
    name = `${config.schema ?? 'public'}.${config.name}`;
    tableNames.set(table, name);
  }
  return name;
}

/** The write counts of one PGlite database, kept by the code that writes (db/declared-writes.ts). */
export interface WriteCounts {
  /** Counts a settled write that changed `tables` (`'*'`: possibly any). */
  note(tables: Iterable<string>): void;
  /** The version of a read of `tables` (of anything, when not given). */
  version(tables?: readonly string[]): string;
}

/**
 * Write counts shared between threads: the request thread and the PGlite
 * worker thread (db/pglite-worker.ts, its simulator) each count the writes
 * they make, and each reads the other's, with no message between them. A
 * write is counted when it is sent and again when it has settled, before
 * its caller goes on (db/declared-writes.ts). One slot per table of `tables` (the
 * schema's, known to both threads); a write to any other table counts as a
 * write to anything.
 */
export class SharedWriteCounts implements WriteCounts {
  private readonly counts: Int32Array;
  private readonly slots: Map<string, number>;

  static buffer(tables: readonly string[]): SharedArrayBuffer {
    return new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * (tables.length + 2));
  }

  constructor(tables: readonly string[], buffer: SharedArrayBuffer) {
    this.counts = new Int32Array(buffer);
    this.slots = new Map(tables.map((t, i) => [t, i + 2]));
  }

  note(tables: Iterable<string>): void {
    for (const table of tables) Atomics.add(this.counts, this.slots.get(table) ?? 1, 1);
    Atomics.add(this.counts, 0, 1);
  }

  version(tables?: readonly string[]): string {
    if (!tables) return `local:${Atomics.load(this.counts, 0)}`;
    const anything = Atomics.load(this.counts, 1);
    return `local:${anything}:${tables
      .map((t) => {
        const slot = this.slots.get(t);
        return slot === undefined ? 0 : Atomics.load(this.counts, slot);
      })
      .join(':')}`;
  }
}

/**
 * Makes reads cached over `db` versioned by `counts` instead of a snapshot
 * query: `db` is a PGlite whose writes are counted where they run.
 */
export function versionByWriteCounts(db: Database, counts: WriteCounts): void {
  localVersions.set(db, counts);
  openHere.add(counts);
  if (!openedAs.has(counts)) openedAs.set(counts, (opened += 1));
}

/**
 * Which opening in this thread a database's counts belong to: the counts of
 * a database opened after another (a server reopening its data directory, a
 * test file after another in the same worker) start again from zero, so a
 * value kept under threadWriteVersion for the first must not pass for the
 * second's at the same counts.
 */
const openedAs = new WeakMap<WriteCounts, number>();
let opened = 0;

/** The write counts of the PGlite databases open in this thread (none on PostgreSQL). */
const openHere = new Set<WriteCounts>();

/**
 * How many PGlite databases are open in this thread. A test file must leave
 * it as it found it (test/left-open.ts): the next file in the same worker
 * would otherwise find two, and threadWriteVersion would stop answering.
 */
export function openPgliteDatabases(): number {
  return openHere.size;
}

/** `db` is closed: its counts no longer version anything read in this thread (threadWriteVersion). */
export function forgetWriteCounts(db: Database): void {
  const counts = localVersions.get(db);
  if (counts) openHere.delete(counts);
}

/**
 * The write count of `tables` on the one PGlite database of this thread, for
 * code that runs inside a database transaction and so has no Database to ask
 * (writeVersion): a value kept under it is current while it is unchanged. On
 * PGlite a transaction runs alone (one connection), so the count it reads
 * counts everything committed before it began; its own writes are counted
 * as they are sent and again when it ends, so nothing it kept of what it
 * read after them outlives it, committed or not.
 * Undefined on PostgreSQL, whose writes other servers make too, and when
 * this thread has more than one PGlite (which one a transaction runs on
 * cannot be told): the caller then reads.
 */
export function threadWriteVersion(tables: readonly string[]): string | undefined {
  if (openHere.size !== 1) return undefined;
  const [counts] = openHere;
  return counts ? `${openedAs.get(counts)}/${counts.version(tables)}` : undefined;
}

/**
 * The write count of `tables` on a PGlite `db` (changes whenever one of them
 * is written, in this thread or the database's worker), or undefined on
 * PostgreSQL, whose writes other servers make too. What the event stream's
 * tail checks before it queries (console/live/hub.ts).
 */
export function writeVersion(db: Database, tables: readonly string[]): string | undefined {
  return localVersions.get(db)?.version(tables);
}

/** The write counts of one PGlite database opened in this thread (db/declared-writes.ts counts them). */
export class LocalWrites implements WriteCounts {
  /** Every write: the version of a read that names no tables. */
  private total = 0;
  /** Writes that may have changed any table. */
  private anything = 0;
  private readonly perTable = new Map<string, number>();

  /** Counts a settled write that changed `tables` (`'*'`: possibly any). */
  note(tables: Iterable<string>): void {
    this.total += 1;
    for (const table of tables) {
      if (table === '*') this.anything += 1;
      else this.perTable.set(table, (this.perTable.get(table) ?? 0) + 1);
    }
  }

  version(tables?: readonly string[]): string {
    if (!tables) return `local:${this.total}`;
    return `local:${this.anything}:${tables.map((t) => this.perTable.get(t) ?? 0).join(':')}`;
  }
}

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
 * Marks `value`, made from shared answers alone and kept beside them, as
 * shared too: from now on nothing may mutate it.
 */
export function shareAnswer(value: object): void {
  sharedAnswers.add(value);
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
    if (local) return Promise.resolve(local.version());
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

  /**
   * The version a read of `tables` is stored and found under: on PGlite, when
   * the read names its tables, their write counts; otherwise the request's
   * one snapshot, read before its first cached read.
   */
  versionFor(reads: RequestReads, tables?: readonly PgTable[]): Promise<string> | string {
    const local = localVersions.get(this.db);
    if (local && tables) return local.version(tables.map(tableName));
    if (local && reads.eachRead) return local.version();
    reads.version ??= this.snapshot();
    return reads.version;
  }

  /** How many answers are kept now. */
  get size(): number {
    return this.entries.size;
  }

  /** Runs `fn` with its cached reads in one scope, as a GET's handlers are (middleware). */
  run<T>(fn: () => T): T {
    return scope.run({ cache: this }, fn);
  }

  get(key: string, version: string): unknown {
    const entry = this.entries.get(key);
    return entry?.version === version ? entry.value : undefined;
  }

  /** Loads in flight, by key, each with the version it will be stored under. */
  private readonly loads = new Map<string, { version: string; value: Promise<unknown> }>();

  /** The load of `key` at `version` in flight, if one is. */
  loading(key: string, version: string): Promise<unknown> | undefined {
    const load = this.loads.get(key);
    return load?.version === version ? load.value : undefined;
  }

  /** Lets requests that miss `key` at `version` while `value` loads share it. */
  startedLoading(key: string, version: string, value: Promise<unknown>): void {
    this.loads.set(key, { version, value });
    const done = () => {
      if (this.loads.get(key)?.value === value) this.loads.delete(key);
    };
    value.then(done, done);
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
    return (c, next) => {
      if (c.req.method === 'GET' || c.req.method === 'HEAD')
        return scope.run({ cache: this }, next);
      // A request that writes, on PGlite: each read is versioned by the counts as they stand
      // when it runs, this request's own earlier writes included (they are counted before they
      // are answered), so it never finds an answer older than what it wrote. On PostgreSQL a
      // request's one snapshot, read before its writes, would: it reads the database.
      return localVersions.has(this.db) ? scope.run({ cache: this, eachRead: true }, next) : next();
    };
  }
}

// ---------------------------------------------------------------------------
// The switch, and the check of each read's tables
// ---------------------------------------------------------------------------

let cacheOn = true;

/**
 * Turns the cache on or off for this process (READ_CACHE, env.ts; set at
 * boot by server.ts, in tests by test/read-cache-setup.ts). Off, every
 * `cachedRead` loads: the answers must be the same, only slower, which is
 * what the storage suite's run with READ_CACHE=off proves (scripts/test.sh).
 */
export function useReadCache(on: boolean): void {
  cacheOn = on;
}

let checking = false;
/** The tables named by the statements of the cached read running now (checkReadTables). */
const recording = new AsyncLocalStorage<Set<string>>();
const undeclared: string[] = [];

/**
 * From now on, every `cachedRead` that names its tables records the tables
 * its load's statements name (through `readRecorder`, the drizzle logger
 * db/client.ts installs while this is on) and throws, naming the read and the
 * table, when one is not among them: such a read would serve stale answers
 * after a write to that table. On for the whole test suite
 * (test/read-cache-setup.ts), never in production (the logger costs a parse
 * of every statement). A nested `cachedRead` lends its tables to the one
 * around it, found in the cache or not.
 */
export function checkReadTables(): void {
  checking = true;
}

/** The drizzle logger that records statements for the check, while checkReadTables is on. */
export function readRecorder(): { logQuery(query: string): void } | undefined {
  if (!checking) return undefined;
  return {
    logQuery(query) {
      counted.getStore()?.push(query);
      const touched = recording.getStore();
      if (touched) for (const table of tablesNamed(query)) touched.add(table);
    },
  };
}

const counted = new AsyncLocalStorage<string[]>();

/**
 * Runs `fn` and answers the statements it sent through the query builder
 * (what a read costs in round trips: a test's measure, since the recorder
 * is the test suite's, checkReadTables). Throws when nothing is recorded.
 */
export async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
  if (!checking)
    throw new Error('statementsOf: statements are recorded only under checkReadTables');
  const statements: string[] = [];
  await counted.run(statements, fn);
  return statements;
}

/**
 * Every undeclared table a cached read touched since the last call, as
 * messages; the test set-up fails the test that caused one, even where the
 * thrown error was caught and answered as a 500.
 */
export function takeUndeclaredReads(): string[] {
  return undeclared.splice(0);
}

const IDENT = String.raw`(?:"([^"]+)"|([a-z_][a-z0-9_]*))`;
// A table of the console's or the sandbox's schema, as drizzle writes it
// (`"sandbox"."transactions"`) or by hand (`sandbox.transactions`); not a function call.
const QUALIFIED_TABLE = new RegExp(
  String.raw`(?:"(console|sandbox)"|\b(console|sandbox))\s*\.\s*${IDENT}(?![\w"]|\s*\()`,
  'gi',
);

/** The schema-qualified tables a statement names (`schema.name`), whatever it does with them. */
export function tablesNamed(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(QUALIFIED_TABLE)) {
    const schema = match[1] ?? match[2]?.toLowerCase();
    const name = match[3] ?? match[4]?.toLowerCase();
    found.add(`${schema}.${name}`);
  }
  return [...found];
}

/** `load()`, checked against the tables it declares (checkReadTables). */
async function checkedLoad<T>(key: string, load: () => Promise<T>, declared: readonly string[]) {
  const touched = new Set<string>();
  // Awaited inside: a query builder is a thenable that runs only when awaited, and must run in here.
  const value = await recording.run(touched, async () => await load());
  const missing = [...touched].filter((table) => !declared.includes(table));
  if (missing.length > 0) {
    // The key's first part names the read (`session`, `transactions`, `vaults`…), not who asked.
    const read = key.split(':')[0];
    const message =
      `cachedRead "${read}" read ${missing.join(', ')} but declared only ` +
      `${declared.join(', ') || 'nothing'}: a write to ${missing.length > 1 ? 'those' : 'that'} ` +
      `would not end its cached answer (db/read-cache.ts)`;
    undeclared.push(message);
    throw new Error(message);
  }
  return value;
}

/**
 * `load()`'s answer, from the cache when nothing has committed since it was
 * stored, or from the load another request started at the same version. The
 * answer is shared between requests (kept or not): callers must not mutate it.
 * `key` must name everything the answer depends on (who asks, what filters).
 * `tables`, when given, must be every table `load` reads: on PGlite the
 * answer then outlives writes to other tables. On PostgreSQL any commit still
 * ends it (the snapshot has no tables).
 */
export async function cachedRead<T>(
  key: string,
  load: () => Promise<T>,
  tables?: readonly PgTable[],
  options: {
    /**
     * Whether an answer is worth a slot: a key a caller chooses freely (a
     * session token) must not let made-up ones push real answers out.
     */
    keep?: (value: T) => boolean;
  } = {},
): Promise<T> {
  if (checking) {
    const around = recording.getStore();
    if (around && !tables)
      throw new Error(`cachedRead "${key.split(':')[0]}" names no tables inside one that does`);
    const declared = tables?.map(tableName);
    if (declared) {
      const checked = () => checkedLoad(key, load, declared);
      for (const table of declared) around?.add(table);
      return cachedAnswer(key, checked, tables, options);
    }
  }
  return cachedAnswer(key, load, tables, options);
}

async function cachedAnswer<T>(
  key: string,
  load: () => Promise<T>,
  tables: readonly PgTable[] | undefined,
  options: { keep?: (value: T) => boolean },
): Promise<T> {
  const reads = scope.getStore();
  if (!reads || !cacheOn) return load();
  const version = await reads.cache.versionFor(reads, tables);
  const hit = reads.cache.get(key, version);
  if (hit !== undefined) return hit as T;
  // Requests that miss together at one version share one load: after a write, every request
  // in flight missed at once and each read the database again (a tenth of the list page's
  // answers under load on PGlite, where the lifecycle simulator writes about once a second).
  // A request whose version differs (a write since) never joins it.
  const inFlight = reads.cache.loading(key, version);
  if (inFlight) return inFlight as Promise<T>;
  const loaded = (async () => {
    const value = await load();
    if (options.keep && !options.keep(value)) return value;
    reads.cache.set(key, version, value);
    if (typeof value === 'object' && value !== null) sharedAnswers.add(value);
    return value;
  })();
  reads.cache.startedLoading(key, version, loaded);
  return loaded;
}
