import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startConsole } from './compare/processes.ts';
import { createTransfer, signInMembers, sleep, summarize } from './embedded-db/traffic.ts';
import type { BenchSection } from './section.ts';

/**
 * Event streams reaching their life's end: STREAMS streams opened together
 * on one built console (PGlite, SANDBOX_TIME_SCALE 60), each reconnecting
 * as a browser's EventSource does (its `retry: 2000`, then `Last-Event-ID`),
 * while a transfer is created every 2 s so each reconnect has missed
 * something. Until every stream has ended once (a life is at most 5
 * minutes): the server's worst event-loop stall in that time
 * (`monitorEventLoopDelay`, the worst of each 5 s, bench/embedded-db/event-loop-probe.mjs),
 * how the ends spread, and each reconnect's time to its `ready`.
 */

const STREAMS = Number(process.env.STREAM_BENCH_STREAMS ?? 1000);
/** A stream's longest life (hub.ts) and what the run waits beyond it. */
const LIFE_MS = 5 * 60_000;
const SLACK_MS = 60_000;
const RETRY_MS = 2_000;

interface Client {
  lastId: string | undefined;
  ends: number[];
  reconnects: number[];
  resets: number;
  replayed: number;
  close(): void;
}

/** A stream that reconnects as EventSource does, noting when it ended and how long each reconnect took. */
function openClient(agent: http.Agent, baseUrl: string, cookie: string): Promise<Client> {
  const client: Client = {
    lastId: undefined,
    ends: [],
    reconnects: [],
    resets: 0,
    replayed: 0,
    close: () => {},
  };
  let closed = false;
  let current: http.ClientRequest | undefined;
  client.close = () => {
    closed = true;
    current?.destroy();
  };
  return new Promise((resolve, reject) => {
    const connect = (first: boolean) => {
      const started = Date.now();
      const headers: Record<string, string> = { cookie, accept: 'text/event-stream' };
      if (client.lastId) headers['last-event-id'] = client.lastId;
      let readySeen = false;
      const req = http.get(new URL('/api/console/events', baseUrl), { agent, headers }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          if (first) reject(new Error(`stream answered ${res.statusCode}`));
          else if (!closed) setTimeout(() => connect(false), RETRY_MS);
          return;
        }
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const id = /^id: (.*)$/m.exec(block)?.[1];
            if (id) client.lastId = id;
            if (block.includes('event: reset')) client.resets += 1;
            if (block.includes('event: change') && !readySeen && !first) client.replayed += 1;
            if (block.includes('event: ready') && !readySeen) {
              readySeen = true;
              if (first) resolve(client);
              else client.reconnects.push(Date.now() - started);
            }
          }
        });
        res.on('end', () => {
          if (closed) return;
          client.ends.push(Date.now());
          setTimeout(() => connect(false), RETRY_MS);
        });
        res.on('error', () => undefined);
      });
      current = req;
      req.on('error', (error) => {
        if (first) reject(error);
        else if (!closed) setTimeout(() => connect(false), RETRY_MS);
      });
    };
    connect(true);
  });
}

export const streamReconnectsSection: BenchSection = {
  name: 'stream-reconnects',
  about: `${STREAMS} event streams opened together reach their life's end: the server's worst event-loop stall`,
  async run(options) {
    if (options.build) {
      options.progress('building (npm run build)…');
      execFileSync('npm', ['run', '-s', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
    }
    const work = await mkdtemp(path.join(tmpdir(), 'bench-streams-'));
    await mkdir(path.join(work, 'no-spa'));
    const loopLog = path.join(work, 'event-loop.jsonl');
    const probe = fileURLToPath(new URL('./embedded-db/event-loop-probe.mjs', import.meta.url));
    const server = await startConsole({
      dataDir: path.join(work, 'data'),
      logLevel: 'warn',
      staticDir: path.join(work, 'no-spa'),
      logFile: path.join(work, 'console.log'),
      nodeArgs: ['--import', probe],
      env: { SANDBOX_TIME_SCALE: '60', EVENT_LOOP_LOG: loopLog },
    });
    const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    const clients: Client[] = [];
    let moving = true;
    try {
      const members = await signInMembers(server.url, 4);
      const cookie = members.viewer.headers.cookie ?? '';
      options.progress(`opening ${STREAMS} streams together…`);
      const opened = Date.now();
      for (let i = 0; i < STREAMS; i += 100)
        clients.push(
          ...(await Promise.all(
            Array.from({ length: Math.min(100, STREAMS - i) }, () =>
              openClient(agent, server.url, cookie),
            ),
          )),
        );
      // Changes meanwhile, so that reconnecting streams have missed something.
      const traffic = (async () => {
        for (let n = 0; moving; n += 1) {
          await createTransfer(members, n).catch(() => undefined);
          await sleep(2_000);
        }
      })();
      options.progress(`waiting for every stream to reach its life's end (at most 5 min)…`);
      const deadline = opened + LIFE_MS + SLACK_MS;
      while (Date.now() < deadline && clients.some((c) => c.reconnects.length === 0))
        await sleep(1_000);
      moving = false;
      await traffic;
      const ends = clients.flatMap((c) => c.ends.slice(0, 1));
      const firstEnd = Math.min(...ends);
      const lastEnd = Math.max(...ends);
      const reconnect = summarize(clients.flatMap((c) => c.reconnects.slice(0, 1)));
      const lines = (await readFile(loopLog, 'utf8'))
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { at: number; maxMs: number; p99Ms: number });
      // Every 5 s window that overlaps the ends and the reconnects after them.
      const during = lines.filter((l) => l.at >= firstEnd && l.at - 5_000 <= lastEnd + 10_000);
      const worstStallMs = Math.max(0, ...during.map((l) => l.maxMs));
      const beforeWorstMs = Math.max(
        0,
        ...lines.filter((l) => l.at < firstEnd && l.at > opened + 30_000).map((l) => l.maxMs),
      );
      const reconnected = clients.filter((c) => c.reconnects.length > 0).length;
      const replayed = clients.reduce((n, c) => n + c.replayed, 0);
      const resets = clients.reduce((n, c) => n + c.resets, 0);
      const load = os.loadavg();
      const data = {
        streams: STREAMS,
        reconnected,
        endsSpreadSeconds: (lastEnd - firstEnd) / 1000,
        firstEndAfterSeconds: (firstEnd - opened) / 1000,
        reconnectToReady: reconnect,
        replayedEvents: replayed,
        resets,
        worstStallMs,
        worstStallBeforeEndsMs: beforeWorstMs,
        loadAverage: load,
      };
      const f = (n: number) => n.toFixed(0);
      return {
        text: [
          `${STREAMS} streams opened together on one console (PGlite), reconnecting as EventSource does:`,
          `  ${reconnected} reached their life's end and reconnected; the ends spread over ${data.endsSpreadSeconds.toFixed(0)} s, the first ${data.firstEndAfterSeconds.toFixed(0)} s after opening`,
          `  reconnect (request → ready, what was missed replayed): p50 ${f(reconnect.p50Ms)} ms, p99 ${f(reconnect.p99Ms)} ms; ${replayed} events replayed, ${resets} resets`,
          `  worst event-loop stall while they ended and reconnected: ${f(worstStallMs)} ms (target ≤ 100 ms); before the ends, streams open and transfers moving: ${f(beforeWorstMs)} ms`,
          `  load average ${load.map((l) => l.toFixed(1)).join(' ')} (a shared machine: figures are upper bounds)`,
        ].join('\n'),
        data,
      };
    } finally {
      moving = false;
      for (const c of clients) c.close();
      agent.destroy();
      await server.stop();
      await rm(work, { recursive: true, force: true });
    }
  },
};
