import { readFile } from 'node:fs/promises';
import autocannon from 'autocannon';

/** One autocannon cell: a warm-up second (JIT, plan caches, sockets), then the measured run. */

export interface CannonRow {
  target: string;
  path: string;
  connections: number;
  /** Which of the cell's rounds this was (compare-section.ts, LOAD_ROUNDS), when it has several. */
  round?: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  requests: number;
  /** Answers outside 2xx plus socket errors and timeouts: a fast 401 must not pass for speed. */
  failures: number;
  /**
   * CPU time the server's process spent per answer during the run (user + system, from
   * /proc): what the server itself costs, which other processes on a shared machine move
   * far less than req/s or latency. Background work (the lifecycle simulator) counts too.
   */
  cpuMsPerRequest?: number;
}

/** User + system CPU time of a process so far, in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export async function cannon(
  target: string,
  url: string,
  connections: number,
  seconds: number,
  headers: Record<string, string> = {},
  serverPid?: number,
): Promise<CannonRow> {
  await autocannon({ url, connections, duration: 1, headers });
  const cpuBefore = serverPid ? await cpuMs(serverPid) : undefined;
  const r = await autocannon({ url, connections, duration: seconds, headers, timeout: 10 });
  const cpuUsed =
    serverPid && cpuBefore !== undefined ? (await cpuMs(serverPid)) - cpuBefore : undefined;
  return {
    target,
    path: new URL(url).pathname + new URL(url).search,
    connections,
    rps: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    maxMs: r.latency.max,
    requests: r.requests.total,
    failures: r.non2xx + r.errors + r.timeouts,
    ...(cpuUsed !== undefined && r.requests.total > 0
      ? { cpuMsPerRequest: cpuUsed / r.requests.total }
      : {}),
  };
}
