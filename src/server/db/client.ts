import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite, type PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Logger } from 'pino';
import { lockDataDir } from './data-dir-lock.ts';
import type { ForegroundPages } from './foreground.ts';
import { RemotePglite } from './pglite-remote.ts';
import { compilePgliteAtBaselineTier } from './pglite-tier.ts';
import {
  checkingWrites,
  checkPgliteWrites,
  countDeclaredWrites,
  wroteAnything,
} from './declared-writes.ts';
import { forgetWriteCounts, LocalWrites, readRecorder } from './read-cache.ts';
import type { Database } from './database.ts';
import * as sandboxSchema from './schema/sandbox.ts';

/**
 * One connection module for both drivers: PGlite in a directory (the
 * embedded default) or PostgreSQL through a `pg` pool when DATABASE_URL is
 * set. The rest of the server sees only `Database`, the query builder both
 * drivers share, so the same code and migrations run on either.
 */

const schema = { ...sandboxSchema };
export type { Database } from './database.ts';

/** Drizzle's options: the schema, and in tests the read cache's statement recorder (db/read-cache.ts). */
function drizzleOptions() {
  const logger = readRecorder();
  return logger ? { schema, logger } : { schema };
}

/**
 * Migrations come in two tracks so upstream mode can create the console's
 * tables without any of the sandbox's.
 */
export type MigrationTrack = 'console' | 'sandbox';
export const ALL_TRACKS: readonly MigrationTrack[] = ['console', 'sandbox'];

const MIGRATIONS_ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

function migrationConfig(track: MigrationTrack) {
  return {
    migrationsFolder: path.join(MIGRATIONS_ROOT, track),
    migrationsSchema: 'drizzle',
    migrationsTable: `__${track}_migrations`,
  };
}

export interface DatabaseHandle {
  db: Database;
  driver: 'pglite' | 'postgres';
  /** Applies the given migration tracks, in order; already-applied migrations are skipped. */
  migrate(tracks?: readonly MigrationTrack[]): Promise<void>;
  /**
   * Runs `fn` while holding a database-wide lock, so several servers starting
   * at once on one PostgreSQL migrate and seed one at a time. On PGlite one
   * process owns the directory, so there is nothing to lock.
   */
  withStartupLock<T>(fn: (db: Database) => Promise<T>): Promise<T>;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Starts the sandbox's lifecycle simulator in the embedded database's own
   * thread, beside PGlite (db/pglite-worker.ts); absent when the simulator
   * runs in the server's thread (PostgreSQL, a PGlite in this thread).
   */
  simulateInDatabaseThread?(timeScale: number): Promise<{ stop(): Promise<void> }>;
  /**
   * The pages being rendered, which that simulator lets go first
   * (db/foreground.ts); absent where it does not run beside the database.
   */
  foreground?: Pick<ForegroundPages, 'hold'>;
  /**
   * PostgreSQL: LISTENs on `channel` over a connection of its own, calling
   * `notify` for each notification and `lost` if that connection fails; the
   * answer UNLISTENs and gives the connection back. Absent on PGlite (one
   * process: its writes are counted instead, db/read-cache.ts).
   */
  listen?(channel: string, notify: () => void, lost: () => void): Promise<() => Promise<void>>;
}

export interface DatabaseConfig {
  dataDir: string;
  databaseUrl: string | undefined;
  /** PGLITE_TRANSACTION_WAIT_MS (env.ts): a PGlite worker's wait for a transaction's statements. */
  pgliteTransactionWaitMs?: number;
}

/**
 * Where a PostgreSQL pool reports a connection it lost, and the embedded
 * database's thread what its simulator logs (the server's logger).
 */
export type ConnectionErrorLog = Pick<Logger, 'warn'> & Partial<Pick<Logger, 'error'>>;

/**
 * How long a query waits for a PostgreSQL connection (a new one to open, or a
 * busy pool's to come free) before it fails; the answer is then 503
 * DATABASE_UNAVAILABLE (http/database-errors.ts). Without it, a database host
 * that drops packets holds every request for the TCP timeout (minutes).
 */
export const PG_CONNECT_TIMEOUT_MS = 10_000;

/**
 * PGlite's shared buffers. PostgreSQL's default (128 MB) is set up and touched
 * at start inside the WebAssembly heap, which never gives memory back: it was
 * most of the server's resident memory (about 500 MB measured with a
 * sandbox of a few hundred transactions, against a 350 MB target). Pages not in
 * these buffers are read from the data directory through the OS's file cache,
 * so a smaller pool costs little; durability is untouched (only the cache shrinks).
 */
export const PGLITE_SHARED_BUFFERS = '16MB';

export interface OpenOptions {
  /**
   * Where PGlite runs: in a worker thread of its own (`worker`: the server,
   * whose event loop must never wait on it) or in this thread
   * (`this`, the default: the CLI, the first-start child, tests; nothing
   * else waits on their event loop, and a worker thread costs its start).
   */
  pgliteThread?: 'worker' | 'this';
  /** Runs holding the directory's lock before PGlite opens it (first-start.ts). */
  beforeOpen?(dataDir: string): Promise<void>;
  /** Runs after PGlite closed it, still holding the lock. */
  afterClose?(dataDir: string): Promise<void>;
}

export async function openDatabase(
  config: DatabaseConfig,
  log?: ConnectionErrorLog,
  options: OpenOptions = {},
): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: 10,
      connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    });
    return wrapPgPool(pool, log);
  }
  await mkdir(config.dataDir, { recursive: true });
  // PGlite has no lock of its own; two processes on one directory corrupt it.
  const unlock = await lockDataDir(config.dataDir);
  let handle: DatabaseHandle;
  try {
    await options.beforeOpen?.(config.dataDir);
    handle =
      options.pgliteThread === 'worker'
        ? await openInWorker(config, log)
        : await openInThisThread(config.dataDir);
  } catch (error) {
    await unlock();
    throw error;
  }
  return {
    ...handle,
    async close() {
      try {
        await handle.close();
        await options.afterClose?.(config.dataDir);
      } finally {
        await unlock();
      }
    },
  };
}

async function openInThisThread(dataDir: string): Promise<DatabaseHandle> {
  // Baseline-tier WebAssembly only: about 55 MB less resident (db/pglite-tier.ts).
  compilePgliteAtBaselineTier();
  const client = new PGlite(dataDir, {
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
  await client.waitReady;
  return wrapPglite(client);
}

async function openInWorker(
  config: DatabaseConfig,
  log?: ConnectionErrorLog,
): Promise<DatabaseHandle> {
  const remote = new RemotePglite(
    {
      dataDir: config.dataDir,
      sharedBuffers: PGLITE_SHARED_BUFFERS,
      ...(config.pgliteTransactionWaitMs === undefined
        ? {}
        : { transactionWaitMs: config.pgliteTransactionWaitMs }),
    },
    log?.error ? { error: log.error.bind(log) } : undefined,
  );
  try {
    await remote.waitReady;
  } catch (error) {
    await remote.close().catch(() => undefined);
    throw error;
  }
  return wrapRemotePglite(remote);
}

/**
 * The PGlite of a worker thread (db/pglite-remote.ts) under drizzle's PGlite
 * driver: the same query builder and migrator as in process; reads cached
 * against the write counts the worker keeps (db/read-cache.ts).
 */
export function wrapRemotePglite(remote: RemotePglite): DatabaseHandle {
  const db = drizzlePglite({ client: remote as unknown as PGlite, ...drizzleOptions() });
  countDeclaredWrites(db, remote.writeCounts);
  return {
    ...pgliteHandle(db, () => remote.close()),
    async simulateInDatabaseThread(timeScale) {
      await remote.simulate(timeScale);
      return { stop: () => remote.stopSimulator().catch(() => undefined) };
    },
    foreground: remote.foreground,
  };
}

/** Wraps an open PGlite (a directory, in memory, or loaded from a dump). */
export function wrapPglite(client: PGlite): DatabaseHandle {
  if (checkingWrites()) checkPgliteWrites(client);
  const db = drizzlePglite({ client, ...drizzleOptions() });
  countDeclaredWrites(db, new LocalWrites());
  return pgliteHandle(db, async () => {
    if (!client.closed) await client.close();
  });
}

/** What a PGlite handle does the same in this thread or another: migrate, ping, close. */
function pgliteHandle(
  db: PgliteDatabase<typeof schema>,
  closeClient: () => Promise<void>,
): DatabaseHandle {
  return {
    db,
    driver: 'pglite',
    async migrate(tracks = ALL_TRACKS) {
      try {
        for (const track of tracks) await migratePglite(db, migrationConfig(track));
      } finally {
        // Migrations are statements of their own, declaring nothing: they may change anything.
        wroteAnything(db);
      }
    },
    withStartupLock: (fn) => fn(db),
    async ping() {
      await db.execute(sql`select 1`);
    },
    async close() {
      forgetWriteCounts(db);
      await closeClient();
    },
  };
}

// Any constant works; it only has to be the same for every console server.
const STARTUP_LOCK_KEY = 0x63757374; // "cust"

/**
 * A pool whose connections may be lost at any moment (a restart, a failover,
 * `pg_terminate_backend`) without taking the process with them. `pg` emits
 * `error` on a client whose connection fails; an EventEmitter's `error` with
 * no listener throws, and the pool listens only while a client is idle.
 * Inside a transaction (checked out between two statements), a terminated
 * backend's message ended the process (a 57P01 while ten clients created
 * and approved). Every client gets a listener of its own when it
 * connects; the statement that was running fails (503 DATABASE_UNAVAILABLE),
 * the client, no longer queryable, is dropped when released, and the next
 * query opens a new connection.
 */
export function wrapPgPool(pool: pg.Pool, log?: ConnectionErrorLog): DatabaseHandle {
  const lost = (error: unknown) =>
    log?.warn({ err: error }, 'database connection lost; the pool opens a new one');
  // An idle client losing its connection: the pool removes it.
  pool.on('error', lost);
  // A checked-out client losing its connection: its query fails, and release drops it.
  pool.on('connect', (client) => client.on('error', lost));
  const db = drizzlePg({ client: pool, ...drizzleOptions() });

  async function withLockedClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
      try {
        return await fn(client);
      } finally {
        await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]);
      }
    } finally {
      client.release();
    }
  }

  // Connections held by listen(): given back before the pool ends, or end() would wait for them.
  const listeners = new Set<() => Promise<void>>();

  return {
    db,
    driver: 'postgres',
    async listen(channel, notify, lost) {
      if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
      const client = await pool.connect();
      let broken = false;
      const onNotification = (message: pg.Notification) => {
        if (message.channel === channel) notify();
      };
      // A connection lost is given back at once (dropped), not held until the caller unlistens:
      // callers listen again on a new one, and each kept was one fewer for every request until
      // the pool had none left and every request answered 503.
      const onError = () => {
        if (broken) return;
        broken = true;
        if (listeners.delete(unlisten)) {
          client.off('notification', onNotification);
          client.release(true);
        }
        lost();
      };
      client.on('notification', onNotification);
      client.on('error', onError);
      const unlisten = async () => {
        if (!listeners.delete(unlisten)) return;
        client.off('notification', onNotification);
        client.off('error', onError);
        if (!broken) await client.query(`UNLISTEN ${channel}`).catch(() => (broken = true));
        client.release(broken);
      };
      listeners.add(unlisten);
      try {
        await client.query(`LISTEN ${channel}`);
      } catch (error) {
        broken = true;
        await unlisten();
        throw error;
      }
      return unlisten;
    },
    migrate: (tracks = ALL_TRACKS) =>
      withLockedClient(async (client) => {
        const locked = drizzlePg({ client, schema });
        for (const track of tracks) await migratePg(locked, migrationConfig(track));
      }),
    withStartupLock: (fn) => withLockedClient((client) => fn(drizzlePg({ client, schema }))),
    async ping() {
      await db.execute(sql`select 1`);
    },
    async close() {
      await Promise.all([...listeners].map((unlisten) => unlisten()));
      if (!pool.ended) await pool.end();
    },
  };
}
