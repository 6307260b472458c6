import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { postgresForBench } from '../compare/processes.ts';
import { send } from '../load.ts';
import type { BenchSection, SectionOptions } from '../section.ts';
import { scratchPostgres } from '../compare/processes.ts';
import { startStore, type Store, type StoreConsole } from './store.ts';
import {
  approve,
  createTransfer,
  poll,
  readLag,
  signInMembers,
  sleep,
  summarize,
  TERMINAL,
  type LatencySummary,
  type SimulatorLag,
} from './traffic.ts';

/**
 * The embedded database's figures, PGlite beside PostgreSQL in one run, each on the built
 * console (`npm run build`; --no-build reuses dist/), a fresh seeded sandbox
 * and SANDBOX_TIME_SCALE 60.
 */

/**
 * For iterating on one store (not the figures the bench reports):
 * EMBEDDED_BENCH_SECONDS shortens the measured time, EMBEDDED_BENCH_STORES
 * picks the stores (`pglite`, `postgres`), EMBEDDED_BENCH_NODE_ARGS adds node
 * flags to the console (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */
const MEASURE_MS = Number(process.env.EMBEDDED_BENCH_SECONDS ?? 60) * 1000;
const STORES = (process.env.EMBEDDED_BENCH_STORES ?? 'pglite,postgres')
  .split(',')
  .map((s) => s.trim()) as Store[];

/** Runs `measure` on a console over each store in turn; PostgreSQL is skipped when none can be started. */
async function onEachStore<T>(
  options: SectionOptions,
  name: string,
  measure: (console: StoreConsole) => Promise<T>,
): Promise<{ results: Partial<Record<Store, T>>; unavailable?: string }> {
  if (options.build) {
    options.progress('building (npm run build)…');
    execFileSync('npm', ['run', '-s', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const work = await mkdtemp(path.join(tmpdir(), `bench-${name}-`));
  await mkdir(path.join(work, 'no-spa'));
  const results: Partial<Record<Store, T>> = {};
  const postgres = STORES.includes('postgres')
    ? await postgresForBench()
    : { unavailable: 'not asked for (EMBEDDED_BENCH_STORES)' };
  try {
    for (const store of STORES) {
      let scratch: { url: string; drop(): Promise<void> } | undefined;
      if (store === 'postgres') {
        if ('unavailable' in postgres) break;
        scratch = await scratchPostgres(postgres.url);
      }
      options.progress(`${name}: console on ${store}…`);
      const console = await startStore(store, work, scratch?.url);
      try {
        results[store] = await measure(console);
      } finally {
        await console.stop();
        await scratch?.drop();
      }
    }
  } finally {
    if (!('unavailable' in postgres)) await postgres.stop();
    await rm(work, { recursive: true, force: true });
  }
  return 'unavailable' in postgres ? { results, unavailable: postgres.unavailable } : { results };
}

const PAGES = 200;
/** Transactions kept moving at once; each is watched by PAGES / IN_FLIGHT pages. */
const IN_FLIGHT = 50;
const POLL_FIRST_MS = 2_000;
const POLL_MAX_MS = 15_000;
const POLL_BACK_OFF = 1.6;

export interface PollingFigures {
  polls: LatencySummary;
  failures: number;
  answered304: number;
  /** Worst event-loop delay of each 5 s window while measured. */
  stallWindowsMs: number[];
  windowsOver100Ms: number;
  worstStallMs: number;
  /**
   * The longest gap between the probe's ticks, and of it what the main thread
   * ran (its own synchronous work: what the target is about) and what it
   * waited for a core (the machine's load); `longestRunMs` is the most any
   * window's longest gap ran.
   */
  worstGap: { gapMs: number; runMs: number; waitMs: number };
  longestRunMs: number;
  transfersStarted: number;
  serverRssMb: number;
  loadAverage: number[];
}

async function pollingPages(
  console: StoreConsole,
  progress: (l: string) => void,
): Promise<PollingFigures> {
  const m = await signInMembers(console.url, PAGES + 20);
  const inFlight: string[] = [];
  let stopped = false;
  let started = 0;
  const mover = (async () => {
    while (!stopped) {
      if (inFlight.length >= IN_FLIGHT) {
        await sleep(100);
        continue;
      }
      const { value: id } = await createTransfer(m, started);
      await approve(m, id);
      started += 1;
      inFlight.push(id);
    }
  })();
  while (inFlight.length < IN_FLIGHT) await sleep(200);
  progress(`  ${IN_FLIGHT} transfers moving; ${PAGES} pages polling…`);

  let measuring = false;
  const latencies: number[] = [];
  let failures = 0;
  let answered304 = 0;
  const page = async (i: number) => {
    await sleep(Math.random() * POLL_FIRST_MS);
    while (!stopped) {
      const id = inFlight[i % Math.max(1, inFlight.length)];
      if (!id) {
        await sleep(200);
        continue;
      }
      let etag: string | undefined;
      let unchanged = 0;
      while (!stopped) {
        const answer = await poll(m.agent, m.viewer, id, etag);
        if (measuring) {
          latencies.push(Number(answer.latencyNs) / 1e6);
          if (answer.status === 304) answered304 += 1;
          else if (answer.status !== 200) failures += 1;
        }
        if (answer.status === 200) {
          etag = typeof answer.headers.etag === 'string' ? answer.headers.etag : undefined;
          unchanged = 0;
          const { status } = JSON.parse(answer.body) as { status: string };
          if (TERMINAL.has(status)) {
            const at = inFlight.indexOf(id);
            if (at >= 0) inFlight.splice(at, 1);
            break;
          }
        } else if (answer.status === 304) unchanged += 1;
        await sleep(Math.min(POLL_MAX_MS, POLL_FIRST_MS * POLL_BACK_OFF ** unchanged));
      }
    }
  };
  const pages = Array.from({ length: PAGES }, (_, i) => page(i));
  await sleep(10_000);
  const from = Date.now();
  measuring = true;
  await sleep(MEASURE_MS);
  measuring = false;
  const to = Date.now();
  const serverRssMb = await console.rssMb();
  stopped = true;
  await Promise.all([mover, ...pages]);
  m.agent.destroy();
  const stallWindowsMs = await console.stalls(from, to);
  const gaps = await console.gaps(from, to);
  const worstGap = gaps.reduce((a, b) => (b.gapMs > a.gapMs ? b : a), {
    gapMs: 0,
    runMs: 0,
    waitMs: 0,
  });
  return {
    polls: summarize(latencies),
    failures,
    answered304,
    stallWindowsMs,
    windowsOver100Ms: stallWindowsMs.filter((ms) => ms > 100).length,
    worstStallMs: Math.max(0, ...stallWindowsMs),
    worstGap,
    longestRunMs: Math.max(0, ...gaps.map((g) => g.runMs)),
    transfersStarted: started,
    serverRssMb,
    loadAverage: os.loadavg(),
  };
}

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '—');

export const pollingPagesSection: BenchSection = {
  name: 'polling-pages',
  about: `${PAGES} transaction pages polling moving transfers, PGlite beside PostgreSQL: poll p50/p99, worst event-loop stall`,
  async run(options) {
    const { results, unavailable } = await onEachStore(options, 'polling-pages', (c) =>
      pollingPages(c, options.progress),
    );
    const lines = [
      `${PAGES} pages polling ${IN_FLIGHT} moving transfers (detail GET, If-None-Match, 2 s backing off ×1.6 to 15 s), ${MEASURE_MS / 1000} s measured:`,
      ...Object.entries(results).map(
        ([store, f]) =>
          `  ${store.padEnd(8)} polls ${f.polls.count}: p50 ${fmt(f.polls.p50Ms)} ms, p99 ${fmt(f.polls.p99Ms)} ms, max ${fmt(f.polls.maxMs)} ms, ` +
          `${f.answered304} answered 304, ${f.failures} failed; event loop: worst ${fmt(f.worstStallMs)} ms, ` +
          `${f.windowsOver100Ms} of ${f.stallWindowsMs.length} 5-s windows over 100 ms; the longest gap ${fmt(f.worstGap.gapMs)} ms: ran ${fmt(f.worstGap.runMs)}, waited for a core ${fmt(f.worstGap.waitMs)}; most run in a window's longest gap ${fmt(f.longestRunMs)} ms; ${f.transfersStarted} transfers; RSS ${f.serverRssMb} MB; load ${f.loadAverage.map((l) => l.toFixed(1)).join(' ')}`,
      ),
      '  goal: PGlite p99 ≤ 150 ms, no stall over 100 ms',
      ...(unavailable ? [`  PostgreSQL: ${unavailable}`] : []),
    ];
    return {
      text: lines.join('\n'),
      data: { pages: PAGES, inFlight: IN_FLIGHT, results, unavailable },
    };
  },
};

const CLIENTS = 30;
const MIX = [
  ['create', 25],
  ['approve', 20],
  ['list', 25],
  ['get', 20],
  ['balances', 10],
] as const;
type Operation = (typeof MIX)[number][0];

export interface MixFigures {
  operations: Partial<Record<Operation, LatencySummary>>;
  requestsPerSecond: number;
  failures: number;
  firstFailure?: string;
  /** /readyz's simulator lag, sampled each second while the mix ran. */
  lagDuring: { maxDue: number; maxOldestDueSeconds: number; samples: number };
  /** Seconds after the mix until nothing was overdue by more than 1 s (null: not within 60 s). */
  clearedAfterSeconds: number | null;
  serverRssMb: number;
  /**
   * The console's CPU time per operation while the mix ran, on its main
   * thread and its others (the database's, PGlite's thread): what the
   * machine's other load moves least.
   */
  serverCpuMsPerOperation: { main: number; other: number };
  loadAverage: number[];
}

function pick(): Operation {
  let r = Math.random() * 100;
  for (const [op, weight] of MIX) {
    r -= weight;
    if (r < 0) return op;
  }
  return 'list';
}

async function operationMix(console: StoreConsole): Promise<MixFigures> {
  const m = await signInMembers(console.url, CLIENTS + 5);
  const pending: string[] = [];
  const recent: string[] = [];
  const latencies = new Map<Operation, number[]>();
  let failures = 0;
  let firstFailure: string | undefined;
  let operations = 0;
  let stopped = false;
  let n = 0;
  const run = async (op: Operation): Promise<number> => {
    switch (op) {
      case 'create': {
        const { value, ms } = await createTransfer(m, n++);
        pending.push(value);
        recent.push(value);
        if (recent.length > 500) recent.shift();
        return ms;
      }
      case 'approve': {
        const id = pending.shift();
        if (!id) return run('list');
        return approve(m, id);
      }
      case 'get': {
        const id = recent[Math.floor(Math.random() * recent.length)];
        if (!id) return run('list');
        const answer = await poll(m.agent, m.viewer, id, undefined);
        if (answer.status !== 200) throw new Error(`GET ${id}: ${answer.status}`);
        return Number(answer.latencyNs) / 1e6;
      }
      case 'balances': {
        const res = await send(m.agent, console.url, m.viewer.headers, {
          method: 'GET',
          path: `/api/external/vaults/${m.vaults[n % 2]}/balances/`,
        });
        if (res.status !== 200) throw new Error(`balances: ${res.status}`);
        return Number(res.latencyNs) / 1e6;
      }
      case 'list': {
        const res = await send(m.agent, console.url, m.viewer.headers, {
          method: 'GET',
          path: '/api/external/transactions/?limit=20',
        });
        if (res.status !== 200) throw new Error(`list: ${res.status}`);
        return Number(res.latencyNs) / 1e6;
      }
    }
  };
  const lags: SimulatorLag[] = [];
  const sampler = (async () => {
    while (!stopped) {
      const lag = await readLag(console.url);
      if (lag) lags.push(lag);
      await sleep(1_000);
    }
  })();
  const started = performance.now();
  const cpuBefore = await console.cpuMs();
  const clients = Array.from({ length: CLIENTS }, async () => {
    while (!stopped) {
      const op = pick();
      try {
        const ms = await run(op);
        const list = latencies.get(op) ?? [];
        list.push(ms);
        latencies.set(op, list);
      } catch (error) {
        failures += 1;
        firstFailure ??= error instanceof Error ? error.message : String(error);
      }
      operations += 1;
    }
  });
  await sleep(MEASURE_MS);
  stopped = true;
  await Promise.all(clients);
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = await console.cpuMs();
  const serverCpuMsPerOperation = {
    main: (cpuAfter.main - cpuBefore.main) / Math.max(1, operations),
    other: (cpuAfter.other - cpuBefore.other) / Math.max(1, operations),
  };
  await sampler;
  const serverRssMb = await console.rssMb();
  const loadAverage = os.loadavg();
  // After the mix: how long until the simulator has caught up.
  let clearedAfterSeconds: number | null = null;
  const after = performance.now();
  while (performance.now() - after < 60_000) {
    const lag = await readLag(console.url);
    if (lag && lag.oldestDueSeconds <= 1) {
      clearedAfterSeconds = (performance.now() - after) / 1000;
      break;
    }
    await sleep(500);
  }
  m.agent.destroy();
  return {
    operations: Object.fromEntries(
      [...latencies.entries()].map(([op, list]) => [op, summarize(list)]),
    ),
    requestsPerSecond: operations / seconds,
    failures,
    ...(firstFailure ? { firstFailure } : {}),
    lagDuring: {
      maxDue: Math.max(0, ...lags.map((l) => l.due)),
      maxOldestDueSeconds: Math.max(0, ...lags.map((l) => l.oldestDueSeconds)),
      samples: lags.length,
    },
    clearedAfterSeconds,
    serverRssMb,
    serverCpuMsPerOperation,
    loadAverage,
  };
}

export const operationMixSection: BenchSection = {
  name: 'operation-mix',
  about: `${CLIENTS} clients of creates, approvals, lists, gets and balances, PGlite beside PostgreSQL: create p99, simulator lag`,
  async run(options) {
    const { results, unavailable } = await onEachStore(options, 'operation-mix', operationMix);
    const lines = [
      `${CLIENTS} clients, ${MEASURE_MS / 1000} s, mix ${MIX.map(([op, w]) => `${op} ${w}%`).join(', ')} (an approval is two requests):`,
      ...Object.entries(results).flatMap(([store, f]) => [
        `  ${store.padEnd(8)} ${f.requestsPerSecond.toFixed(0)} operations/s, server CPU ${f.serverCpuMsPerOperation.main.toFixed(1)} + ${f.serverCpuMsPerOperation.other.toFixed(1)} ms each (main + other threads), ${f.failures} failed${f.firstFailure ? ` (${f.firstFailure.slice(0, 120)})` : ''}; RSS ${f.serverRssMb} MB; load ${f.loadAverage.map((l) => l.toFixed(1)).join(' ')}`,
        ...Object.entries(f.operations).map(
          ([op, s]) =>
            `    ${op.padEnd(9)} ${String(s.count).padStart(5)}: p50 ${fmt(s.p50Ms)} ms, p99 ${fmt(s.p99Ms)} ms, max ${fmt(s.maxMs)} ms`,
        ),
        `    simulator lag (/readyz, ${f.lagDuring.samples} samples): up to ${f.lagDuring.maxDue} due, the oldest ${f.lagDuring.maxOldestDueSeconds.toFixed(1)} s overdue; caught up ${f.clearedAfterSeconds === null ? 'not within 60 s' : `${f.clearedAfterSeconds.toFixed(1)} s`} after`,
      ]),
      '  goal: PGlite create p99 within 2× PostgreSQL’s; lag ≤ 5 s',
      ...(unavailable ? [`  PostgreSQL: ${unavailable}`] : []),
    ];
    return { text: lines.join('\n'), data: { clients: CLIENTS, mix: MIX, results, unavailable } };
  },
};
