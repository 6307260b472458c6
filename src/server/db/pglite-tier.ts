import { setFlagsFromString } from 'node:v8';

/**
 * PGlite is PostgreSQL compiled to WebAssembly. V8 compiles it lazily with its
 * baseline compiler (Liftoff) and, by default, recompiles the functions that
 * run often with its optimizing compiler (TurboFan) on background threads.
 * That second tier cost the server about 55 MB of resident memory (the
 * optimized code and what compiling it left in the allocator: 141-159 MB at
 * start instead of 199-241 MB, in paired runs of the same build), and bought
 * little: PostgreSQL's executor is branchy code, and a 20-row list query and
 * a 50,000-row scan ran within noise of each other at either tier (0.3-0.6
 * ms, 12-18 ms). Most answers never reach PGlite at all (db/read-cache.ts).
 * So WebAssembly here stays at the first tier. Set before the module is
 * compiled, which PGlite does when it opens (in the database's worker
 * thread, by that thread: db/pglite-worker.ts); V8's flags are the
 * process's, WebAssembly is only PGlite's in this process, and a PostgreSQL
 * server never calls this.
 */
export function compilePgliteAtBaselineTier(): void {
  setFlagsFromString('--liftoff-only');
}
