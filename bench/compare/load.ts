import autocannon from 'autocannon';

/** One autocannon cell: a warm-up second (JIT, plan caches, sockets), then the measured run. */

export interface CannonRow {
  target: string;
  path: string;
  connections: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  requests: number;
  /** Answers outside 2xx plus socket errors and timeouts: a fast 401 must not pass for speed. */
  failures: number;
}

export async function cannon(
  target: string,
  url: string,
  connections: number,
  seconds: number,
  headers: Record<string, string> = {},
): Promise<CannonRow> {
  await autocannon({ url, connections, duration: 1, headers });
  const r = await autocannon({ url, connections, duration: seconds, headers, timeout: 10 });
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
  };
}
