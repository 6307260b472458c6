import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { startConsole } from './compare/processes.ts';
import {
  approve,
  createTransfer,
  readLag,
  signInMembers,
  sleep,
  summarize,
  type Members,
} from './embedded-db/traffic.ts';
import type { BenchSection } from './section.ts';
import { callJson, signInAsDemoAdmin } from './session.ts';

/**
 * The sandbox's webhook delivery against a local receiver that answers at
 * once (one built console, PGlite, SANDBOX_TIME_SCALE 60, one endpoint
 * wanting every event):
 *
 * - **throughput**: the receiver holds its answers while BACKLOG transfers
 *   run to their end (their deliveries queue), then answers everything: the
 *   deliveries a second from its opening to the last delivery;
 * - **lag**: PACED_RATE transfers a second, created and approved, for
 *   PACED_SECONDS; each status's delivery from its `at` in the transaction's
 *   status history (the simulator stamps a step with its due time, so its
 *   pick-up delay is in the figure: an upper bound), p50/p99.
 *
 * WEBHOOK_BENCH_SECONDS, WEBHOOK_BENCH_RATE, WEBHOOK_BENCH_BACKLOG change the
 * run's size (for iterating; the figures in docs/bench.md use the defaults);
 * WEBHOOK_BENCH_NODE_ARGS adds node flags to the console (`--cpu-prof …`).
 * The simulator's worst backlog during the lag run is printed beside it, so
 * a late delivery can be told from a late step.
 */

const BACKLOG = Number(process.env.WEBHOOK_BENCH_BACKLOG ?? 60);
const PACED_RATE = Number(process.env.WEBHOOK_BENCH_RATE ?? 10);
const PACED_SECONDS = Number(process.env.WEBHOOK_BENCH_SECONDS ?? 20);
/** How long the run waits for every delivery before it reports what is still missing. */
const DRAIN_LIMIT_MS = 240_000;

interface Arrival {
  eventId: string;
  transactionId: string;
  status: string;
  arrivedAt: number;
  lagMs: number;
}

/** The receiver: records each body, answers 204 at once (or holds every answer while closed). */
async function fastReceiver() {
  const arrivals: Arrival[] = [];
  const held: http.ServerResponse[] = [];
  let open = true;
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const arrivedAt = Date.now();
      const json = JSON.parse(body) as {
        eventId: string;
        data: {
          transaction?: { id: string; status: string; statusHistory?: Array<{ at: string }> };
        };
      };
      const t = json.data.transaction;
      if (t) {
        const at = t.statusHistory?.at(-1)?.at;
        arrivals.push({
          eventId: json.eventId,
          transactionId: t.id,
          status: t.status,
          arrivedAt,
          lagMs: at ? arrivedAt - Date.parse(at) : Number.NaN,
        });
      }
      if (open) res.writeHead(204).end();
      else held.push(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    arrivals,
    hold: () => (open = false),
    release() {
      open = true;
      for (const res of held.splice(0)) res.writeHead(204).end();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Waits until `count` distinct events of `ids` have arrived; answers the last arrival's time. */
async function arrivedAll(
  arrivals: Arrival[],
  ids: ReadonlySet<string>,
  count: number,
  limitMs: number,
): Promise<{ complete: boolean; seen: number; last: number }> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const mine = arrivals.filter((a) => ids.has(a.transactionId));
    const seen = new Set(mine.map((a) => a.eventId)).size;
    const last = mine.reduce((m, a) => Math.max(m, a.arrivedAt), 0);
    if (seen >= count) return { complete: true, seen, last };
    if (Date.now() > deadline) return { complete: false, seen, last };
    await sleep(100);
  }
}

/** A transfer created and approved: it makes six status events (PENDING … COMPLETED). */
async function moveTransfer(members: Members, n: number): Promise<string> {
  const id = (await createTransfer(members, n)).value;
  await approve(members, id);
  return id;
}

const EVENTS_PER_TRANSFER = 6;

export const webhookDeliverySection: BenchSection = {
  name: 'webhook-delivery',
  about: `webhook deliveries/s to one fast receiver (a backlog of ${BACKLOG} transfers), lag p50/p99 at ${PACED_RATE} transfers/s`,
  async run(options) {
    if (options.build) {
      options.progress('building (npm run build)…');
      execFileSync('npm', ['run', '-s', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
    }
    const work = await mkdtemp(path.join(tmpdir(), 'bench-webhooks-'));
    await mkdir(path.join(work, 'no-spa'));
    const server = await startConsole({
      dataDir: path.join(work, 'data'),
      logLevel: 'warn',
      staticDir: path.join(work, 'no-spa'),
      logFile: path.join(work, 'console.log'),
      ...(process.env.WEBHOOK_BENCH_NODE_ARGS
        ? { nodeArgs: process.env.WEBHOOK_BENCH_NODE_ARGS.split(' ') }
        : {}),
      env: {
        SANDBOX_TIME_SCALE: '60',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
        // Held answers must not run out while the backlog builds.
        WEBHOOK_TIMEOUT_MS: '60000',
      },
    }).catch(async (error: unknown) => {
      await rm(work, { recursive: true, force: true });
      throw error;
    });
    // After the console: one that fails to start leaves no receiver holding the process open.
    const receiver = await fastReceiver();
    try {
      const members = await signInMembers(server.url, 16);
      const admin = await signInAsDemoAdmin(members.agent, server.url);
      await callJson(members.agent, admin, {
        method: 'POST',
        path: '/api/console/webhooks/',
        body: JSON.stringify({
          url: receiver.url,
          events: ['TRANSACTION_STATUS_CHANGED', 'TRANSACTION_OPERATION_STATUS_CHANGED'],
        }),
      });

      options.progress(`throughput: ${BACKLOG} transfers queued behind a held receiver…`);
      receiver.hold();
      const backlog: string[] = [];
      for (let n = 0; n < BACKLOG; n += 10)
        backlog.push(
          ...(await Promise.all(
            Array.from({ length: Math.min(10, BACKLOG - n) }, (_, i) =>
              moveTransfer(members, n + i),
            ),
          )),
        );
      // Every lifecycle at its end (the simulator caught up): the outbox holds them all.
      for (
        let lag = await readLag(server.url);
        (lag?.due ?? 0) > 0;
        lag = await readLag(server.url)
      )
        await sleep(500);
      await sleep(3_000);
      const backlogIds = new Set(backlog);
      const heldAtOpen = new Set(
        receiver.arrivals.filter((a) => backlogIds.has(a.transactionId)).map((a) => a.eventId),
      ).size;
      const opened = Date.now();
      receiver.release();
      const drained = await arrivedAll(
        receiver.arrivals,
        backlogIds,
        BACKLOG * EVENTS_PER_TRANSFER,
        DRAIN_LIMIT_MS,
      );
      const drainSeconds = (drained.last - opened) / 1000;
      const perSecond = (drained.seen - heldAtOpen) / drainSeconds;

      options.progress(`lag: ${PACED_RATE} transfers a second for ${PACED_SECONDS} s…`);
      const paced: Array<Promise<string>> = [];
      // The simulator's own backlog while the deliveries are timed: a status is stamped with
      // its step's due time, so a step picked up late is late at the receiver too.
      const behind = { due: 0, oldestDueSeconds: 0 };
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          const lag = await readLag(server.url);
          behind.due = Math.max(behind.due, lag?.due ?? 0);
          behind.oldestDueSeconds = Math.max(behind.oldestDueSeconds, lag?.oldestDueSeconds ?? 0);
          await sleep(500);
        }
      })();
      const pacedStart = Date.now();
      const total = PACED_RATE * PACED_SECONDS;
      for (let n = 0; n < total; n += 1) {
        const due = pacedStart + (n * 1000) / PACED_RATE;
        if (due > Date.now()) await sleep(due - Date.now());
        paced.push(moveTransfer(members, BACKLOG + n));
      }
      const pacedIds = await Promise.all(paced);
      const createdSeconds = (Date.now() - pacedStart) / 1000;
      const pacedSet = new Set(pacedIds);
      const pacedDone = await arrivedAll(
        receiver.arrivals,
        pacedSet,
        total * EVENTS_PER_TRANSFER,
        DRAIN_LIMIT_MS,
      );
      sampling = false;
      await sampler;
      const lag = summarize(
        receiver.arrivals.filter((a) => pacedSet.has(a.transactionId)).map((a) => a.lagMs),
      );
      const eventIds = receiver.arrivals.map((a) => a.eventId);
      const repeats = eventIds.length - new Set(eventIds).size;
      const outOfOrder = countOutOfOrder(receiver.arrivals);
      const load = os.loadavg();
      const data = {
        throughput: {
          transfers: BACKLOG,
          deliveries: drained.seen - heldAtOpen,
          complete: drained.complete,
          seconds: drainSeconds,
          deliveriesPerSecond: perSecond,
        },
        lag: {
          transfersPerSecondAsked: PACED_RATE,
          transfersPerSecondMade: total / createdSeconds,
          seconds: PACED_SECONDS,
          deliveries: pacedDone.seen,
          complete: pacedDone.complete,
          latency: lag,
          simulatorBehind: behind,
        },
        repeats,
        outOfOrder,
        loadAverage: load,
      };
      const f = (n: number) => n.toFixed(0);
      return {
        text: [
          `one endpoint, a local receiver answering at once (PGlite, SANDBOX_TIME_SCALE 60):`,
          `  throughput: ${drained.seen - heldAtOpen} deliveries of ${BACKLOG} transfers queued, sent in ${drainSeconds.toFixed(1)} s once the receiver answered: ${f(perSecond)} deliveries/s${drained.complete ? '' : ` (INCOMPLETE: ${drained.seen} of ${BACKLOG * EVENTS_PER_TRANSFER} within ${DRAIN_LIMIT_MS / 1000} s)`} (target ≥ 100/s)`,
          `  lag at ${PACED_RATE} transfers/s asked (${(total / createdSeconds).toFixed(1)} made) for ${PACED_SECONDS} s: ${lag.count} deliveries, from each status's \`at\` p50 ${f(lag.p50Ms)} ms, p99 ${f(lag.p99Ms)} ms, max ${f(lag.maxMs)} ms${pacedDone.complete ? '' : ` (INCOMPLETE: ${pacedDone.seen} of ${total * EVENTS_PER_TRANSFER} within ${DRAIN_LIMIT_MS / 1000} s)`} (target p99 ≤ 2000 ms)`,
          `  the simulator meanwhile, at its worst: ${behind.due} steps due, the oldest ${behind.oldestDueSeconds.toFixed(1)} s overdue`,
          `  repeated eventIds ${repeats}, transactions whose statuses arrived out of order ${outOfOrder}`,
          `  load average ${load.map((l) => l.toFixed(1)).join(' ')} (a shared machine: figures are upper bounds)`,
        ].join('\n'),
        data,
      };
    } finally {
      await receiver.close();
      await server.stop();
      await rm(work, { recursive: true, force: true });
    }
  },
};

const ORDER = ['PENDING', 'APPROVED', 'SIGNED', 'SUBMITTED', 'WAITING_CONFIRMATION', 'COMPLETED'];

/** Transactions one of whose statuses arrived before one that came earlier in its lifecycle. */
function countOutOfOrder(arrivals: readonly Arrival[]): number {
  const last = new Map<string, number>();
  const bad = new Set<string>();
  for (const a of arrivals) {
    const rank = ORDER.indexOf(a.status);
    if (rank < (last.get(a.transactionId) ?? -1)) bad.add(a.transactionId);
    last.set(a.transactionId, Math.max(rank, last.get(a.transactionId) ?? -1));
  }
  return bad.size;
}
