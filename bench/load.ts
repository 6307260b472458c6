import http from 'node:http';

/**
 * A small closed-loop load generator: `connections` keep-alive sockets, each
 * sending its next request as soon as the last answer has been read, until
 * the request budget or the time budget runs out. Latency is measured per
 * request with process.hrtime.bigint(), from write to the last byte read.
 */

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: string;
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  latencyNs: bigint;
}

export interface LoadOptions {
  baseUrl: string;
  headers: Record<string, string>;
  connections: number;
  maxRequests: number;
  maxDurationMs: number;
  /** Requests sent first and not counted (JIT, plan caches, sockets). */
  warmupRequests: number;
  /** The i-th request (0-based, warm-up included). */
  next(i: number): RequestSpec;
}

export interface LoadResult {
  connections: number;
  requests: number;
  non2xx: number;
  firstFailure?: string;
  durationMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  rps: number;
}

export function keepAliveAgent(connections: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
}

/** One request on `agent`, its whole body read. */
export function send(
  agent: http.Agent,
  baseUrl: string,
  headers: Record<string, string>,
  spec: RequestSpec,
): Promise<Answer> {
  const url = new URL(spec.path, baseUrl);
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: spec.method,
        headers: spec.body
          ? {
              ...headers,
              'content-type': 'application/json',
              'content-length': String(Buffer.byteLength(spec.body)),
            }
          : headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            latencyNs: process.hrtime.bigint() - started,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(spec.body);
  });
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const agent = keepAliveAgent(options.connections);
  let issued = 0;
  const fire = () => send(agent, options.baseUrl, options.headers, options.next(issued++));

  // Warm-up on every connection, so the sockets are open before the clock starts.
  const warm = Math.max(options.warmupRequests, options.connections);
  const warmers = Array.from({ length: options.connections }, async () => {
    while (issued < warm) await fire();
  });
  await Promise.all(warmers);

  const latencies: number[] = [];
  let non2xx = 0;
  let firstFailure: string | undefined;
  const budgetEnd = issued + options.maxRequests;
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(options.maxDurationMs) * 1_000_000n;
  const loops = Array.from({ length: options.connections }, async () => {
    while (issued < budgetEnd && process.hrtime.bigint() < deadline) {
      const answer = await fire();
      latencies.push(Number(answer.latencyNs) / 1e6);
      if (answer.status < 200 || answer.status >= 300) {
        non2xx += 1;
        firstFailure ??= `${answer.status} ${answer.body.slice(0, 300)}`;
      }
    }
  });
  await Promise.all(loops);
  const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
  agent.destroy();

  latencies.sort((a, b) => a - b);
  return {
    connections: options.connections,
    requests: latencies.length,
    non2xx,
    ...(firstFailure ? { firstFailure } : {}),
    durationMs,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies.at(-1) ?? Number.NaN,
    rps: (latencies.length / durationMs) * 1000,
  };
}
