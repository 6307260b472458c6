import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startConsole, type Child } from '../compare/processes.ts';

/**
 * The built console on one store, as `npm start` runs it, with the lifecycle
 * simulator at SANDBOX_TIME_SCALE 60 (a transfer's lifecycle takes about ten
 * seconds) and the main thread's event loop watched (event-loop-probe.mjs).
 */

export type Store = 'pglite' | 'postgres';

const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'event-loop-probe.mjs');

export interface StoreConsole extends Child {
  store: Store;
  /** CPU time the console's process has used, in ms: its main thread's and its other threads' (the database's). */
  cpuMs(): Promise<{ main: number; other: number }>;
  /** The worst event-loop delay of each 5 s window since `from` (ms since the epoch). */
  stalls(from: number, to: number): Promise<number[]>;
  /**
   * Each 5 s window's longest gap between the probe's 20 ms ticks since `from`,
   * split into what the main thread ran and what it waited for a core.
   */
  gaps(from: number, to: number): Promise<LoopGap[]>;
}

export interface LoopGap {
  gapMs: number;
  runMs: number;
  waitMs: number;
}

export async function startStore(
  store: Store,
  work: string,
  postgresUrl: string | undefined,
  /** Node flags for this console alone (e.g. `--cpu-prof` for one of several servers). */
  nodeArgs: string[] = [],
): Promise<StoreConsole> {
  const loopLog = path.join(work, `${store}-event-loop.jsonl`);
  const child = await startConsole({
    dataDir: path.join(work, `${store}-data`),
    ...(store === 'postgres' && postgresUrl ? { databaseUrl: postgresUrl } : {}),
    logLevel: 'warn',
    staticDir: path.join(work, 'no-spa'),
    logFile: path.join(work, `${store}.log`),
    // A fresh PGlite's first start (create, migrate, seed) took over 3 minutes at load 46.
    startTimeoutMs: 600_000,
    nodeArgs: [
      '--import',
      PROBE,
      ...(process.env.EMBEDDED_BENCH_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []),
      ...nodeArgs,
    ],
    env: {
      SANDBOX_TIME_SCALE: '60',
      EVENT_LOOP_LOG: loopLog,
      ...(process.env.PGLITE_TRANSACTION_WAIT_MS
        ? { PGLITE_TRANSACTION_WAIT_MS: process.env.PGLITE_TRANSACTION_WAIT_MS }
        : {}),
      // Where the PGlite thread's time went, each 5 s (db/pglite-stats.ts).
      ...(process.env.PGLITE_WORKER_STATS
        ? { PGLITE_WORKER_STATS: process.env.PGLITE_WORKER_STATS }
        : {}),
    },
  });
  return {
    ...child,
    store,
    async cpuMs() {
      const ticks = async (file: string) => {
        const stat = await readFile(file, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // utime and stime, in clock ticks (100 a second on Linux).
        return (Number(fields[11]) + Number(fields[12])) * 10;
      };
      const all = await ticks(`/proc/${child.pid}/stat`);
      const main = await ticks(`/proc/${child.pid}/task/${child.pid}/stat`);
      return { main, other: all - main };
    },
    async stalls(from, to) {
      return (await windows(loopLog, from, to)).map((w) => w.maxMs);
    },
    async gaps(from, to) {
      return (await windows(loopLog, from, to)).map((w) => ({
        gapMs: w.worstGapMs ?? 0,
        runMs: w.worstGapRunMs ?? 0,
        waitMs: w.worstGapWaitMs ?? 0,
      }));
    },
  };
}

interface LoopWindow {
  at: number;
  maxMs: number;
  worstGapMs?: number;
  worstGapRunMs?: number;
  worstGapWaitMs?: number;
}

/** The probe's windows that ended within [from, to + 5 s] (event-loop-probe.mjs). */
async function windows(loopLog: string, from: number, to: number): Promise<LoopWindow[]> {
  const text = await readFile(loopLog, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LoopWindow)
    .filter((w) => w.at > from && w.at <= to + 5_000);
}
