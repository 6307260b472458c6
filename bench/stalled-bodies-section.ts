import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { paths } from '../src/contract/paths.ts';
import { MAX_API_BODY_BYTES } from '../src/server/http/body-limit.ts';
import { startConsole } from './compare/processes.ts';
import { keepAliveAgent } from './load.ts';
import type { BenchSection } from './section.ts';
import { callJson, signInAsDemoAdmin } from './session.ts';

/**
 * What stalled anonymous bodies cost in memory: 1,500 anonymous connections each send a
 * `POST /api/external/transactions/` declaring a body of the API's limit
 * (1 MiB), send all of it but the last byte, and stall. Before the fix the
 * audit read each body before anyone was identified: 487 MB resident became
 * 1.8 GB, and stayed there after the connections closed. The built console
 * (`dist/node/server/main.js`, as `npm start` runs it) in its own process, so
 * its RSS is its own; read before, every half second during, and after the
 * connections close. Target: within 100 MB of where it started.
 */

const CONNECTIONS = 1_500;
const SENT_BYTES = MAX_API_BODY_BYTES - 1;
/** Connections opened at once: more would overflow the listen backlog (511) and wait for SYN retries. */
const OPEN_BATCH = 100;
/** How long the stalled connections are held open (the server may close them sooner). */
const HOLD_MS = 15_000;
/** How long after they close the last reading is taken. */
const SETTLE_MS = 10_000;
const TARGET_MB = 100;

interface Stalled {
  socket: net.Socket;
  /** The status line the server answered with, if it answered. */
  status?: number;
  /** Milliseconds from the first byte sent to the answer's first byte. */
  answeredMs?: number;
  closedByServer: boolean;
}

export interface StalledBodiesResult {
  connections: number;
  sentBytesEach: number;
  rssMb: { start: number; peakDuring: number; afterClose: number };
  afterCloseDeltaMb: number;
  targetMb: number;
  met: boolean;
  answers: Record<string, number>;
  answeredMedianMs: number | null;
  closedByServer: number;
  healthyAfter: boolean;
  samplesDuring: number[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One connection sending the headers and all but the last byte of its body, then nothing. */
function openStalled(port: number, body: Buffer): Promise<Stalled> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const stalled: Stalled = { socket, closedByServer: false };
    let started = 0;
    socket.on('error', () => {}); // EPIPE / ECONNRESET once the server closes it
    socket.once('data', (chunk: Buffer) => {
      stalled.answeredMs = performance.now() - started;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1];
      if (status) stalled.status = Number(status);
    });
    socket.once('end', () => (stalled.closedByServer = true));
    socket.once('connect', () => {
      started = performance.now();
      socket.write(
        `POST ${paths.transactions()} HTTP/1.1\r\n` +
          `Host: 127.0.0.1:${port}\r\n` +
          'Content-Type: application/json\r\n' +
          `Content-Length: ${MAX_API_BODY_BYTES}\r\n\r\n`,
      );
      // One shared buffer: the load generator's memory is not the server's.
      socket.write(body);
      resolve(stalled);
    });
    socket.once('close', () => resolve(stalled));
  });
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? null;
}

export function formatStalledBodies(r: StalledBodiesResult): string {
  const answers = Object.entries(r.answers)
    .map(([status, n]) => `${n} × ${status}`)
    .join(', ');
  return [
    `${r.connections} anonymous POST ${paths.transactions()} connections, each ${r.sentBytesEach} bytes of a 1 MiB body, then stalled:`,
    `  RSS at start      ${r.rssMb.start.toFixed(1)} MB`,
    `  RSS peak during   ${r.rssMb.peakDuring.toFixed(1)} MB`,
    `  RSS after close   ${r.rssMb.afterClose.toFixed(1)} MB (${r.afterCloseDeltaMb >= 0 ? '+' : ''}${r.afterCloseDeltaMb.toFixed(1)} MB; target within ${r.targetMb} MB of the start) ${r.met ? '✓' : '✗'}`,
    `  answers: ${answers || 'none'}; median time to the answer ${r.answeredMedianMs === null ? '–' : `${r.answeredMedianMs.toFixed(0)} ms`}; closed by the server: ${r.closedByServer}`,
    `  /healthz after: ${r.healthyAfter ? 'ok' : 'FAILED'}`,
  ].join('\n');
}

export const stalledBodiesSection: BenchSection = {
  name: 'stalled-bodies',
  about: `${CONNECTIONS} anonymous 1 MiB − 1 byte POST bodies that stall: the server's RSS before, during and after`,
  async run({ build, progress }) {
    const work = await mkdtemp(path.join(tmpdir(), 'custody-bench-stalled-'));
    try {
      if (build) {
        progress('building (npm run build)…');
        execFileSync('npm', ['run', '-s', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
      }
      const server = await startConsole({
        dataDir: path.join(work, 'data'),
        logLevel: 'warn',
        staticDir: path.resolve('dist/web'),
        logFile: path.join(work, 'console.log'),
      });
      try {
        const port = Number(new URL(server.url).port);
        // A server that has answered a member first, as one in use has.
        const agent = keepAliveAgent(2);
        try {
          const session = await signInAsDemoAdmin(agent, server.url);
          for (let i = 0; i < 20; i += 1)
            await callJson(agent, session, {
              method: 'GET',
              path: `${paths.transactions()}?limit=20`,
            });
        } finally {
          agent.destroy();
        }
        await sleep(2_000);
        const start = await server.rssMb();
        progress(`RSS at start: ${start} MB`);

        const body = Buffer.alloc(SENT_BYTES, 'x');
        const samples: number[] = [];
        const sampling = setInterval(() => {
          void server.rssMb().then((mb) => samples.push(mb));
        }, 500);
        const stalled: Stalled[] = [];
        try {
          for (let opened = 0; opened < CONNECTIONS; opened += OPEN_BATCH) {
            const batch = Math.min(OPEN_BATCH, CONNECTIONS - opened);
            stalled.push(
              ...(await Promise.all(Array.from({ length: batch }, () => openStalled(port, body)))),
            );
          }
          progress(`${stalled.length} connections open, holding them ${HOLD_MS / 1000} s…`);
          await sleep(HOLD_MS);
        } finally {
          clearInterval(sampling);
        }
        const peakDuring = Math.max(start, ...samples, await server.rssMb());
        for (const { socket } of stalled) socket.destroy();
        progress(`closed; settling ${SETTLE_MS / 1000} s…`);
        await sleep(SETTLE_MS);
        const afterClose = await server.rssMb();
        const healthyAfter = await fetch(`${server.url}/healthz`).then(
          (r) => r.ok,
          () => false,
        );

        const answers: Record<string, number> = {};
        for (const s of stalled) {
          const key = s.status === undefined ? 'no answer' : String(s.status);
          answers[key] = (answers[key] ?? 0) + 1;
        }
        const delta = afterClose - start;
        const result: StalledBodiesResult = {
          connections: CONNECTIONS,
          sentBytesEach: SENT_BYTES,
          rssMb: { start, peakDuring, afterClose },
          afterCloseDeltaMb: Math.round(delta * 10) / 10,
          targetMb: TARGET_MB,
          met: delta <= TARGET_MB,
          answers,
          answeredMedianMs: median(
            stalled.flatMap((s) => (s.answeredMs === undefined ? [] : [s.answeredMs])),
          ),
          closedByServer: stalled.filter((s) => s.closedByServer).length,
          healthyAfter,
          samplesDuring: samples,
        };
        return { text: formatStalledBodies(result), data: result };
      } finally {
        await server.stop();
      }
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  },
};
