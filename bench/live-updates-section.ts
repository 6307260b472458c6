import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { POLLING } from '../src/web/features/transactions/api/get-transaction.ts';
import { startConsole } from './compare/processes.ts';
import { approve, createTransfer, signInMembers, sleep, summarize } from './embedded-db/traffic.ts';
import type { BenchSection } from './section.ts';

/**
 * Live updates' figures: STREAMS event streams (`GET /api/console/events`) held
 * open on one built console (PGlite, SANDBOX_TIME_SCALE 60), then transfers
 * created and approved so their statuses move:
 *
 * - from an approval (its request answered: the change committed) to each
 *   subscribed client's APPROVED, over every (event, stream) delivery:
 *   p50/p99 (target p99 ≤ 1 s); and every status of the transfers from its
 *   `at` (the simulator stamps a step with its due time, so its own pick-up
 *   delay is included: an upper bound);
 * - the server's RSS before and with the streams open;
 * - how many deliveries a second the server fanned out during a burst of
 *   transfers (counted where they arrive: this process, which shares the
 *   machine's cores with the server, is part of the figure);
 * - beside it, today's polling for the same number of open pages, from the
 *   SPA's own intervals: the requests a second the stream saves.
 *
 * Every stream is the demo viewer's session (sessions are not what is
 * measured); the clients are plain sockets in this process, not browsers.
 */

const STREAMS = Number(process.env.LIVE_BENCH_STREAMS ?? 1000);
/** Transfers moved one after another: each change's latency alone. */
const PACED = 10;
/** Transfers created at once: the fan-out's rate. */
const BURST = 30;
const TERMINAL = new Set(['COMPLETED', 'FAILED', 'DECLINED']);

interface Delivery {
  transactionId: string;
  status: string;
  latencyMs: number;
  arrivedAt: number;
}

/** One stream read as a browser's EventSource would, its `change` events recorded. */
function openStream(
  agent: http.Agent,
  baseUrl: string,
  headers: Record<string, string>,
  onChange: (d: Delivery) => void,
): Promise<{ ready: Promise<void>; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      new URL('/api/console/events', baseUrl),
      { agent, headers: { cookie: headers.cookie ?? '', accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`stream answered ${res.statusCode}`));
          res.resume();
          return;
        }
        let buffer = '';
        let readyResolve: () => void = () => {};
        const ready = new Promise<void>((r) => (readyResolve = r));
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (block.includes('event: ready')) readyResolve();
            if (!block.includes('event: change')) continue;
            const data = block.split('\n').find((l) => l.startsWith('data: '));
            if (!data) continue;
            const event = JSON.parse(data.slice(6)) as {
              transactionId: string;
              status: string;
              at: string;
            };
            const now = Date.now();
            onChange({
              transactionId: event.transactionId,
              status: event.status,
              latencyMs: now - Date.parse(event.at),
              arrivedAt: now,
            });
          }
        });
        resolve({ ready, close: () => req.destroy() });
      },
    );
    req.on('error', reject);
  });
}

const rssOf = async (pid: number) => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 'NaN') / 1024);
};

async function waitTerminal(
  deliveries: Delivery[],
  ids: string[],
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const done = new Set(
      deliveries.filter((d) => TERMINAL.has(d.status)).map((d) => d.transactionId),
    );
    if (ids.every((id) => done.has(id))) return true;
    await sleep(250);
  }
  return false;
}

/** Today's polling for `pages` open pages, from the SPA's intervals (requests a second). */
function pollingToday(pages: number) {
  // The transaction page: 2 s, backing off ×1.6 to 15 s while nothing changes; over a minute.
  let t = 0;
  let polls = 0;
  for (let n = 0; t < 60_000; n++) {
    t += Math.min(POLLING.maxMs, POLLING.firstMs * POLLING.backOff ** n);
    polls += 1;
  }
  return {
    transactionPageFirstMinute: (pages * polls) / 60,
    transactionPageAtCap: pages / (POLLING.maxMs / 1000),
    // The list every 10 s while a row moves (transactions-page.tsx), the inbox badge every 30 s.
    listWithMovingRows: pages / 10,
    inboxBadge: pages / 30,
  };
}

export const liveUpdatesSection: BenchSection = {
  name: 'live-updates',
  about: `${STREAMS} event streams on one console: change-to-client p50/p99, RSS, fan-out rate; polling saved`,
  async run(options) {
    if (options.build) {
      options.progress('building (npm run build)…');
      execFileSync('npm', ['run', '-s', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
    }
    const work = await mkdtemp(path.join(tmpdir(), 'bench-live-'));
    await mkdir(path.join(work, 'no-spa'));
    const server = await startConsole({
      dataDir: path.join(work, 'data'),
      logLevel: 'warn',
      staticDir: path.join(work, 'no-spa'),
      logFile: path.join(work, 'console.log'),
      env: { SANDBOX_TIME_SCALE: '60' },
    });
    const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    const streams: Array<{ close(): void }> = [];
    try {
      const members = await signInMembers(server.url, 8);
      await sleep(2_000);
      const rssBefore = await rssOf(server.pid);
      options.progress(`opening ${STREAMS} streams…`);
      const deliveries: Delivery[] = [];
      const opened = [];
      for (let i = 0; i < STREAMS; i++) {
        const s = await openStream(agent, server.url, members.viewer.headers, (d) =>
          deliveries.push(d),
        );
        streams.push(s);
        opened.push(s.ready);
      }
      await Promise.all(opened);
      await sleep(2_000);
      const rssOpen = await rssOf(server.pid);

      options.progress(`${PACED} transfers, one at a time…`);
      const paced: string[] = [];
      const approvals = new Map<string, { sent: number; answered: number }>();
      for (let n = 0; n < PACED; n++) {
        const id = (await createTransfer(members, n)).value;
        paced.push(id);
        const sent = Date.now();
        await approve(members, id);
        approvals.set(id, { sent, answered: Date.now() });
        await waitTerminal(deliveries, [id], 60_000);
      }
      const pacedIds = new Set(paced);
      const pacedLatency = summarize(
        deliveries.filter((d) => pacedIds.has(d.transactionId)).map((d) => d.latencyMs),
      );
      // The approval commits before its answer: from the answer to each stream's APPROVED.
      const approvedLatency = summarize(
        deliveries
          .filter((d) => d.status === 'APPROVED' && approvals.has(d.transactionId))
          .map((d) => Math.max(0, d.arrivedAt - (approvals.get(d.transactionId)?.answered ?? 0))),
      );

      options.progress(`a burst of ${BURST} transfers…`);
      const burstStart = Date.now();
      const burst = await Promise.all(
        Array.from({ length: BURST }, async (_, n) => {
          const id = (await createTransfer(members, PACED + n)).value;
          await approve(members, id);
          return id;
        }),
      );
      await waitTerminal(deliveries, burst, 120_000);
      const burstIds = new Set(burst);
      const inBurst = deliveries.filter((d) => burstIds.has(d.transactionId));
      const lastArrival = inBurst.reduce((last, d) => Math.max(last, d.arrivedAt), burstStart);
      const burstSeconds = (lastArrival - burstStart) / 1000;
      const burstLatency = summarize(inBurst.map((d) => d.latencyMs));
      const perClient = inBurst.length / STREAMS;
      const saved = pollingToday(STREAMS);
      const load = os.loadavg();
      const data = {
        streams: STREAMS,
        rssBeforeMb: rssBefore,
        rssOpenMb: rssOpen,
        paced: { transfers: PACED, deliveries: pacedLatency, approved: approvedLatency },
        burst: {
          transfers: BURST,
          deliveries: inBurst.length,
          eventsPerClient: perClient,
          seconds: burstSeconds,
          deliveriesPerSecond: inBurst.length / burstSeconds,
          latency: burstLatency,
        },
        pollingToday: saved,
        loadAverage: load,
      };
      const f = (n: number) => n.toFixed(0);
      return {
        text: [
          `${STREAMS} streams on one console (PGlite, one session, clients in the bench's process):`,
          `  server RSS ${rssBefore} MB before, ${rssOpen} MB with the streams open (+${rssOpen - rssBefore} MB)`,
          `  approval → every client (from the approve request's answer to each stream's APPROVED), ${PACED} transfers one at a time: ${approvedLatency.count} deliveries, p50 ${f(approvedLatency.p50Ms)} ms, p99 ${f(approvedLatency.p99Ms)} ms, max ${f(approvedLatency.maxMs)} ms (target p99 ≤ 1000 ms)`,
          `  every status of those transfers, from its \`at\` (the step's due time: the simulator's pick-up, up to its 250 ms poll, is included): ${pacedLatency.count} deliveries, p50 ${f(pacedLatency.p50Ms)} ms, p99 ${f(pacedLatency.p99Ms)} ms, max ${f(pacedLatency.maxMs)} ms`,
          `  burst of ${BURST} transfers: ${inBurst.length} deliveries (${perClient.toFixed(0)} events a stream) in ${burstSeconds.toFixed(1)} s, ${f(inBurst.length / burstSeconds)} deliveries/s; p50 ${f(burstLatency.p50Ms)} ms, p99 ${f(burstLatency.p99Ms)} ms`,
          `  polling today for ${STREAMS} open pages (requests/s the stream saves): transaction pages ${f(saved.transactionPageFirstMinute)} in their first minute, ${f(saved.transactionPageAtCap)} at the 15 s cap; lists with moving rows ${f(saved.listWithMovingRows)}; inbox badges ${f(saved.inboxBadge)}. The streams: no requests, a heartbeat each 15 s`,
          `  load average ${load.map((l) => l.toFixed(1)).join(' ')} (a shared machine: figures are upper bounds)`,
        ].join('\n'),
        data,
      };
    } finally {
      for (const s of streams) s.close();
      agent.destroy();
      await server.stop();
      await rm(work, { recursive: true, force: true });
    }
  },
};
