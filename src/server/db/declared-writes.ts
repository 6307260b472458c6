import { AsyncLocalStorage } from 'node:async_hooks';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './database.ts';
import { tableName, versionByWriteCounts, type WriteCounts } from './read-cache.ts';

/**
 * What a write changed, as the code that writes declares it, for the read
 * cache's write counts on PGlite (db/read-cache.ts).
 *
 * Every insert, update and delete goes through drizzle's query builder,
 * which names the table object it writes (`db.insert(transactions)`); that
 * object, not the statement's text, is what is counted. What else a write to
 * that table changes in the database (a cascading foreign key, a trigger
 * that writes another table) is declared beside the schema with `alsoWrites`
 * and counted with it. A statement the builder did not make (`db.execute`)
 * declares nothing; one that writes says so with `declaredWrite`.
 *
 * A wrong declaration fails the storage tests: there every table of the
 * console's and the sandbox's schemas carries a statement trigger that
 * reports its table with the statement's answer (`installWriteCheck`), and a
 * statement that changed a table it did not declare throws
 * (`checkWriteTables`, on for every storage test by
 * test/read-cache-setup.ts).
 */

// ---------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------

/** For each table, the other tables a write to it also changes (alsoWrites). */
const effects = new Map<string, Set<string>>();

/**
 * Declares that a write to `table` may also change `others`: a foreign key
 * that cascades or sets null from `table` into them, or a trigger on `table`
 * that writes them. The read cache then ends reads of `others` with every
 * write to `table`. Declared once, at module level, beside the tables.
 */
export function alsoWrites(table: PgTable, others: readonly PgTable[]): void {
  const name = tableName(table);
  const known = effects.get(name) ?? new Set<string>();
  for (const other of others) known.add(tableName(other));
  effects.set(name, known);
}

/**
 * Every table a write to `tables` may change: those, and what they cascade
 * or trigger into, transitively. Nothing named (a write drizzle could not
 * attribute to a table object) is a change to anything (`'*'`).
 */
export function changedBy(tables: readonly string[]): string[] {
  if (tables.length === 0) return ['*'];
  const found = new Set<string>();
  const visit = (table: string) => {
    if (found.has(table)) return;
    found.add(table);
    for (const next of effects.get(table) ?? []) visit(next);
  };
  tables.forEach(visit);
  return [...found];
}

// ---------------------------------------------------------------------------
// Counting
// ---------------------------------------------------------------------------

/** What drizzle's query builders tell the session about a statement (its cache's metadata). */
interface QueryMetadata {
  type: 'select' | 'insert' | 'update' | 'delete';
  tables: string[];
}

interface PreparedQuery {
  execute(...args: unknown[]): Promise<unknown>;
  all(...args: unknown[]): Promise<unknown>;
}

interface DrizzleTransaction {
  _: { session: Session };
}

/** The part of drizzle's PgSession this module wraps. */
interface Session {
  prepareQuery(...args: unknown[]): PreparedQuery;
  transaction(
    callback: (tx: DrizzleTransaction) => Promise<unknown>,
    config?: unknown,
  ): Promise<unknown>;
}

// prepareQuery(query, fields, name, arrayMode, mapper, metadata, cacheConfig): drizzle passes
// each builder's kind and tables there, for caches like this one (drizzle-orm/cache).
const METADATA_ARGUMENT = 5;

const countsOf = new WeakMap<Database, WriteCounts>();
const wrapped = new WeakSet<Session>();

/**
 * From now on, every write through `db`'s query builder, in or out of a
 * transaction, is counted in `counts` against the tables it declares
 * (changedBy), and reads cached over `db` are versioned by those counts
 * (db/read-cache.ts).
 *
 * A write is counted when it is sent and again once it has settled, before
 * its caller goes on; a transaction's writes once more when it ends,
 * committed or rolled back. So a read whose version was taken after the
 * first count runs after the write (one connection) or is stored under a
 * version the second count has already left behind; and nothing a
 * transaction read after its own writes outlives it.
 */
export function countDeclaredWrites(db: Database, counts: WriteCounts): void {
  countsOf.set(db, counts);
  versionByWriteCounts(db, counts);
  const session = db._.session as unknown as Session;
  countBuilderWrites(session, counts, undefined);
  const transaction = session.transaction.bind(session);
  session.transaction = async (callback, config) => {
    const written = new Set<string>();
    try {
      return await transaction((tx) => {
        countBuilderWrites(tx._.session, counts, written);
        return callback(tx);
      }, config);
    } finally {
      if (written.size > 0) counts.note(written);
    }
  };
}

function countBuilderWrites(
  session: Session,
  counts: WriteCounts,
  inTransaction: Set<string> | undefined,
): void {
  if (wrapped.has(session)) return;
  wrapped.add(session);
  const prepare = session.prepareQuery.bind(session);
  session.prepareQuery = (...args) => {
    const prepared = prepare(...args);
    const metadata = args[METADATA_ARGUMENT] as QueryMetadata | undefined;
    if (!metadata || metadata.type === 'select') return prepared;
    const tables = changedBy(metadata.tables);
    const execute = prepared.execute.bind(prepared);
    const all = prepared.all.bind(prepared);
    prepared.execute = (...a) => counted(counts, tables, inTransaction, () => execute(...a));
    prepared.all = (...a) => counted(counts, tables, inTransaction, () => all(...a));
    return prepared;
  };
}

async function counted<T>(
  counts: WriteCounts | undefined,
  tables: readonly string[],
  inTransaction: Set<string> | undefined,
  run: () => Promise<T>,
): Promise<T> {
  counts?.note(tables);
  for (const table of tables) inTransaction?.add(table);
  try {
    // Awaited inside: a query builder is a thenable that runs only when awaited, and must run in here.
    return await (checking ? declaring.run(tables, async () => await run()) : run());
  } finally {
    counts?.note(tables);
  }
}

/**
 * Runs `run`, statements drizzle's builder did not make (`db.execute`), as
 * writes to `tables` (and what they cascade or trigger into): counted as a
 * builder's write is, and allowed by the check.
 */
export function declaredWrite<T>(
  db: Database,
  tables: readonly PgTable[],
  run: () => Promise<T>,
): Promise<T> {
  return counted(countsOf.get(db), changedBy(tables.map(tableName)), undefined, run);
}

/** Counts a change to anything on `db` (migrations: their statements declare nothing). */
export function wroteAnything(db: Database): void {
  countsOf.get(db)?.note(['*']);
}

// ---------------------------------------------------------------------------
// The check (tests)
// ---------------------------------------------------------------------------

let checking = false;
/** The tables the statement being sent declared (counted, while checking). */
const declaring = new AsyncLocalStorage<readonly string[]>();
const undeclared: string[] = [];
const NOTICE = 'custody-wrote ';

/**
 * From now on, a PGlite opened in this thread (db/client.ts, wrapPglite) has
 * each statement checked against what it declared, and
 * `installWriteCheck` makes its database report what each statement wrote.
 * On for the whole storage suite (test/read-cache-setup.ts), never in
 * production: the triggers cost every write a notice.
 */
export function checkWriteTables(): void {
  checking = true;
}

/** Whether checkWriteTables is on (db/client.ts checks each PGlite it wraps then). */
export function checkingWrites(): boolean {
  return checking;
}

/**
 * Every write since the last call that changed a table it did not declare,
 * as messages: the test set-up fails the test that made one, even where the
 * thrown error was caught and answered as a 500.
 */
export function takeUndeclaredWrites(): string[] {
  return undeclared.splice(0);
}

/**
 * Gives every table of `schemas` a trigger that reports, as a notice with
 * the statement's answer, each statement that changed it: the database's own
 * word on what a write touched, cascades and triggers included (a cascade's
 * change fires the triggers of the table it changes).
 */
export async function installWriteCheck(
  client: Pick<PGlite, 'exec'>,
  schemas: readonly string[] = ['console', 'sandbox'],
): Promise<void> {
  const list = schemas.map((s) => `'${s.replaceAll("'", "''")}'`).join(', ');
  await client.exec(`
    create or replace function public.custody_wrote() returns trigger language plpgsql as $$
    begin
      raise notice '${NOTICE}%.%', tg_table_schema, tg_table_name;
      return null;
    end $$;
    do $$
    declare t record;
    begin
      for t in select schemaname, tablename from pg_tables where schemaname in (${list}) loop
        execute format(
          'create or replace trigger custody_wrote after insert or update or delete or truncate '
          'on %I.%I for each statement execute function public.custody_wrote()',
          t.schemaname, t.tablename);
      end loop;
    end $$;`);
}

interface Notice {
  message?: string;
}
interface QueryOptions {
  onNotice?: (notice: Notice) => void;
}
type Run = (text: string, params?: unknown[], options?: QueryOptions) => Promise<unknown>;
type Exec = (text: string, options?: QueryOptions) => Promise<unknown>;

/**
 * Checks every statement sent through `client`: the tables its database
 * reports it changed (installWriteCheck) must be among those declared for it
 * (`'*'` allows any). One that is not throws after it has run, naming the
 * table, and is kept for takeUndeclaredWrites.
 */
export function checkPgliteWrites(client: PGlite): void {
  const query = client.query.bind(client) as unknown as Run;
  const exec = client.exec.bind(client) as unknown as Exec;
  const transaction = client.transaction.bind(client);
  client.query = checkedQuery(query) as unknown as typeof client.query;
  client.exec = checkedExec(exec) as unknown as typeof client.exec;
  client.transaction = (<T>(callback: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => callback(checkedTransaction(tx)))) as typeof client.transaction;
}

function checkedTransaction(tx: Transaction): Transaction {
  const query = checkedQuery(tx.query.bind(tx) as unknown as Run);
  const exec = checkedExec(tx.exec.bind(tx) as unknown as Exec);
  return new Proxy(tx, {
    get(target, key) {
      if (key === 'query') return query;
      if (key === 'exec') return exec;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}

function checkedQuery(query: Run): Run {
  return (text, params, options) => {
    const watch = watching(options);
    return query(text, params, watch.options).then((result) => (watch.verify(text), result));
  };
}

function checkedExec(exec: Exec): Exec {
  return (text, options) => {
    const watch = watching(options);
    return exec(text, watch.options).then((result) => (watch.verify(text), result));
  };
}

/** Options that collect what the statement wrote, and its verdict against what it declared. */
function watching(options: QueryOptions | undefined) {
  const declared = declaring.getStore() ?? [];
  const wrote = new Set<string>();
  return {
    options: {
      ...options,
      onNotice(notice: Notice) {
        const message = notice.message ?? '';
        if (message.startsWith(NOTICE)) wrote.add(message.slice(NOTICE.length));
        else options?.onNotice?.(notice);
      },
    },
    verify(text: string) {
      if (declared.includes('*')) return;
      const missing = [...wrote].filter((table) => !declared.includes(table));
      if (missing.length === 0) return;
      const message =
        `a write changed ${missing.join(', ')} but declared only ` +
        `${declared.join(', ') || 'nothing'}: cached reads of ${missing.length > 1 ? 'those' : 'that'} ` +
        `would outlive it (db/declared-writes.ts; the statement: ${text.slice(0, 160)})`;
      undeclared.push(message);
      throw new Error(message);
    },
  };
}
