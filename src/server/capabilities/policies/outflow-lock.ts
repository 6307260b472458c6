import { sql } from 'drizzle-orm';
import type { Database, DatabaseHandle } from '../../db/client.ts';

/**
 * One source vault's creates judged one at a time while a rule caps its
 * 24-hour outflow: the outflow is read, the cap judged and the item created
 * (so the next read counts it) under one lock per vault, never two creates
 * judged on the same outflow.
 *
 * - In this process, a queue per vault: on PGlite (one process opens a data
 *   directory) that is the whole lock. A PGlite transaction held open would
 *   hold every other statement, the create's own included (ARCHITECTURE.md),
 *   so none is taken there.
 * - On PostgreSQL also a transaction-scoped advisory lock on the vault,
 *   which every console server on the database takes: held on a connection
 *   of its own from before the outflow is read until the created item is
 *   committed (the create writes on other connections), released when that
 *   transaction ends, whatever happens. It is the only lock taken first and
 *   nothing else waits for it, so no lock order (balance rows, the item's
 *   vote lock) can make a cycle with it.
 * - At most HELD_AT_ONCE such connections per server, so the work done under
 *   them always finds a free one in the pool (10; 5 for a test's second
 *   server).
 */

/** The advisory lock's first key (the second is a hash of the vault's id); any constant every server shares. */
const OUTFLOW_LOCK = 0x6f757466; // "outf"
export const HELD_AT_ONCE = 3;

/** One database's waiting in this process: its queue per vault and its pool's places. */
interface LockState {
  queues: Map<string, Promise<void>>;
  held: number;
  waiting: Array<() => void>;
}

/**
 * Per database handle, not per module: two servers' apps in one process (a
 * test's second server on PostgreSQL, with a pool of its own) wait on the
 * advisory lock as two processes would; on PGlite they share the handle and so
 * the queue, as they share the one connection.
 */
const states = new WeakMap<Database, LockState>();

function stateOf(db: Database): LockState {
  let state = states.get(db);
  if (!state) {
    state = { queues: new Map(), held: 0, waiting: [] };
    states.set(db, state);
  }
  return state;
}

/** Runs `fn` once every earlier caller with `key` in this process has finished. */
async function inTurn<T>(state: LockState, key: string, fn: () => Promise<T>): Promise<T> {
  const before = state.queues.get(key) ?? Promise.resolve();
  const run = before.then(fn);
  const done = run.then(
    () => undefined,
    () => undefined,
  );
  state.queues.set(key, done);
  try {
    return await run;
  } finally {
    if (state.queues.get(key) === done) state.queues.delete(key);
  }
}

/** Runs `fn` holding one of HELD_AT_ONCE places of the database's pool. */
async function withPlace<T>(state: LockState, fn: () => Promise<T>): Promise<T> {
  if (state.held >= HELD_AT_ONCE) await new Promise<void>((resolve) => state.waiting.push(resolve));
  else state.held += 1;
  try {
    return await fn();
  } finally {
    // The place passes straight to the next waiter, or is given back.
    const next = state.waiting.shift();
    if (next) next();
    else state.held -= 1;
  }
}

export type OutflowLock = <T>(vaultId: string, fn: () => Promise<T>) => Promise<T>;

/** The lock for `db`, as its driver allows (see above). */
export function outflowLock(db: Database, driver: DatabaseHandle['driver']): OutflowLock {
  const state = stateOf(db);
  return (vaultId, fn) =>
    inTurn(state, vaultId, () =>
      driver === 'postgres'
        ? withPlace(state, () =>
            db.transaction(async (tx) => {
              await tx.execute(
                sql`select pg_advisory_xact_lock(${OUTFLOW_LOCK}, hashtext(${vaultId}))`,
              );
              return fn();
            }),
          )
        : fn(),
    );
}

export type OutflowLocks = <T>(vaultIds: readonly string[], fn: () => Promise<T>) => Promise<T>;

/**
 * Several vaults' locks at once, for what pays from all of them (a payment
 * run's submit): taken in one order (sorted ids) by every caller, so two such
 * never wait on each other; on PostgreSQL all on one connection, one place.
 * A key may name something other than a vault that such callers also
 * serialize on (the submit's organization-wide references), taken in the
 * same order.
 */
export function outflowLocks(db: Database, driver: DatabaseHandle['driver']): OutflowLocks {
  const state = stateOf(db);
  return <T>(vaultIds: readonly string[], fn: () => Promise<T>): Promise<T> => {
    const keys = [...new Set(vaultIds)].sort();
    let run: () => Promise<T> =
      driver === 'postgres'
        ? () =>
            withPlace(state, () =>
              db.transaction(async (tx) => {
                for (const key of keys)
                  await tx.execute(
                    sql`select pg_advisory_xact_lock(${OUTFLOW_LOCK}, hashtext(${key}))`,
                  );
                return fn();
              }),
            )
        : fn;
    // The queues in the same order: the first key's turn, then the next's within it.
    for (const key of [...keys].reverse()) {
      const inner = run;
      run = () => inTurn(state, key, inner);
    }
    return run();
  };
}
