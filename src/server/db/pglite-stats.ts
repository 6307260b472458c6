import { appendFileSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { ToWorker } from './pglite-protocol.ts';

/**
 * Where the PGlite worker thread's time goes, for profiling under load
 * (bench/embedded-db): with PGLITE_WORKER_STATS set to a file, one JSON line
 * each 5 s with the thread's event-loop utilization, the messages it got,
 * how long the request thread's transactions held it (first statement to
 * end) against the time their statements ran, the statements outside a
 * transaction (queue wait included) and the simulator's batches. Off
 * (undefined) unless asked for: nothing is counted.
 */

export interface WorkerStats {
  /** A message arrived; the function returned is called when it is answered. */
  received(message: ToWorker): () => void;
  began(tx: number): void;
  ended(tx: number): void;
  simulated(steps: number, ms: number): void;
}

const WINDOW_MS = 5_000;

/** This thread's CPU time (user and system), in ms: what the machine's other load moves least. */
function threadCpuMs(): number {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, the 14th and 15th fields, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

let shared: WorkerStats | undefined | null = null;

export function workerStats(file = process.env.PGLITE_WORKER_STATS): WorkerStats | undefined {
  if (shared !== null) return shared;
  if (!file) return (shared = undefined);
  const fresh = () => ({
    messages: {} as Record<string, number>,
    transactions: 0,
    heldMs: 0,
    statementsInTransactions: 0,
    statementsInTransactionsMs: 0,
    statementsOutside: 0,
    statementsOutsideMs: 0,
    simulatorBatches: 0,
    simulatorSteps: 0,
    simulatorMs: 0,
  });
  let window = fresh();
  let elu = performance.eventLoopUtilization();
  let cpu = threadCpuMs();
  const held = new Map<number, number>();
  setInterval(() => {
    const used = performance.eventLoopUtilization(elu);
    elu = performance.eventLoopUtilization();
    const cpuNow = threadCpuMs();
    const line = {
      at: Date.now(),
      elu: Number(used.utilization.toFixed(3)),
      cpuMs: cpuNow - cpu,
      ...window,
    };
    cpu = cpuNow;
    appendFileSync(file, `${JSON.stringify(line)}\n`);
    window = fresh();
  }, WINDOW_MS).unref();
  return (shared = {
    received(message) {
      const inTransaction = 'tx' in message && message.tx !== undefined;
      const key = `${message.op}${inTransaction ? ' in transaction' : ''}`;
      window.messages[key] = (window.messages[key] ?? 0) + 1;
      const from = performance.now();
      return () => {
        if (message.op !== 'query' && message.op !== 'exec') return;
        const ms = performance.now() - from;
        if (inTransaction && !('begin' in message && message.begin)) {
          window.statementsInTransactions += 1;
          window.statementsInTransactionsMs += ms;
        } else if (!inTransaction) {
          window.statementsOutside += 1;
          window.statementsOutsideMs += ms;
        }
      };
    },
    began(tx) {
      held.set(tx, performance.now());
    },
    ended(tx) {
      const from = held.get(tx);
      held.delete(tx);
      if (from === undefined) return;
      window.transactions += 1;
      window.heldMs += performance.now() - from;
    },
    simulated(steps, ms) {
      window.simulatorBatches += 1;
      window.simulatorSteps += steps;
      window.simulatorMs += ms;
    },
  });
}
