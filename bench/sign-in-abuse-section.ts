import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { DEMO_STAFF } from '../src/server/auth/staff-demo.ts';
import { startConsole } from './compare/processes.ts';
import { keepAliveAgent, percentile, send, type Answer } from './load.ts';
import type { BenchSection } from './section.ts';
import { signInAsDemoAdmin, type BenchSession } from './session.ts';

/**
 * What sign-in abuse costs, against the built console (sandbox, PGlite,
 * TRUST_PROXY=1: the bench speaks as the proxy, so it chooses each
 * request's address in X-Forwarded-For):
 *
 * - a burst of 40 sign-ins at once for one account from one address, 39
 *   wrong and the right password among them: how many were checked (401)
 *   and how many refused (429), and whether the right one signed in;
 * - a burst of 300 sign-ins at once with unknown emails, each from an
 *   address of its own (so the per-address throttle lets each through):
 *   meanwhile a signed-in list read and a static asset, one request after
 *   another, against the same reads with no burst and during 300 requests
 *   to /healthz (what any 300 connections at once cost). Target: the list
 *   read under 200 ms. Three rounds: a shared machine's figures wander.
 */

const GUESSES = 40;
const FLOOD = 300;
/** Each round: 300 sign-ins, then 300 requests to /healthz (the floor). */
const ROUNDS = 3;
/** Reads of each kind with no burst. */
const QUIET_READS = 40;
const LIST_PATH = '/api/external/transactions/';

interface ReadFigures {
  requests: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** When the slowest read was sent, from the start of the reads. */
  slowestSentAtMs: number;
}

interface Read {
  sentAtMs: number;
  ms: number;
}

function figures(reads: Read[]): ReadFigures {
  const sorted = reads.map((r) => r.ms).sort((a, b) => a - b);
  const slowest = reads.reduce<Read | undefined>((s, r) => (s && s.ms >= r.ms ? s : r), undefined);
  return {
    requests: sorted.length,
    p50Ms: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
    maxMs: sorted.at(-1) ?? Number.NaN,
    slowestSentAtMs: slowest?.sentAtMs ?? Number.NaN,
  };
}

function tally(answers: Array<{ status: number | string }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}

/** One sign-in on a connection of its own, as `ip` behind the proxy. */
function signIn(baseUrl: string, email: string, password: string, ip: string): Promise<Answer> {
  const agent = new http.Agent({ keepAlive: false });
  return send(
    agent,
    baseUrl,
    { origin: new URL(baseUrl).origin, 'x-forwarded-for': ip },
    { method: 'POST', path: '/auth/login', body: JSON.stringify({ email, password }) },
  ).finally(() => agent.destroy());
}

export interface GuessBurstFigures {
  guesses: number;
  statuses: Record<string, number>;
  /** Answered 401 or 200: their password was checked. */
  checked: number;
  refused: number;
  rightPasswordStatus: number;
}

async function guessBurst(baseUrl: string): Promise<GuessBurstFigures> {
  const viewer = DEMO_STAFF.find((d) => d.role === 'viewer');
  if (!viewer) throw new Error('no demo viewer');
  const rightAt = GUESSES / 2;
  const answers = await Promise.all(
    Array.from({ length: GUESSES }, (_, i) =>
      signIn(
        baseUrl,
        viewer.email,
        i === rightAt ? viewer.password : `wrong guess ${i}!`,
        '203.0.113.40',
      ),
    ),
  );
  const statuses = tally(answers);
  return {
    guesses: GUESSES,
    statuses,
    checked: (statuses['401'] ?? 0) + (statuses['200'] ?? 0),
    refused: statuses['429'] ?? 0,
    rightPasswordStatus: answers[rightAt]?.status ?? 0,
  };
}

/** Reads `pathName` one after another on one keep-alive socket: `stop` times, or until `stop.done`. */
async function readLoop(
  session: BenchSession,
  pathName: string,
  stop: { done: boolean } | number,
): Promise<Read[]> {
  const agent = keepAliveAgent(1);
  const reads: Read[] = [];
  const started = performance.now();
  try {
    while (typeof stop === 'number' ? reads.length < stop : !stop.done) {
      const sentAtMs = performance.now() - started;
      const answer = await send(agent, session.baseUrl, session.headers, {
        method: 'GET',
        path: pathName,
      });
      if (answer.status !== 200)
        throw new Error(`GET ${pathName}: ${answer.status} ${answer.body.slice(0, 200)}`);
      reads.push({ sentAtMs, ms: Number(answer.latencyNs) / 1e6 });
    }
    return reads;
  } finally {
    agent.destroy();
  }
}

type FloodKind = 'sign-in' | 'healthz';

export interface FloodRound {
  kind: FloodKind;
  statuses: Record<string, number>;
  seconds: number;
  list: ReadFigures;
  asset: ReadFigures;
}

export interface FloodFigures {
  requests: number;
  quiet: { list: ReadFigures; asset: ReadFigures };
  rounds: FloodRound[];
}

/** 300 requests at once of `kind`, a list read and a static asset read meanwhile. */
async function floodRound(
  baseUrl: string,
  session: BenchSession,
  asset: string,
  kind: FloodKind,
): Promise<FloodRound> {
  const stop = { done: false };
  const started = performance.now();
  const burst = floodFromWorker(baseUrl, FLOOD, kind).finally(() => (stop.done = true));
  const [answers, list, assetReads] = await Promise.all([
    burst,
    readLoop(session, LIST_PATH, stop),
    readLoop(session, asset, stop),
  ]);
  return {
    kind,
    statuses: tally(answers.map((status) => ({ status }))),
    seconds: (performance.now() - started) / 1000,
    list: figures(list),
    asset: figures(assetReads),
  };
}

async function flood(baseUrl: string, session: BenchSession, asset: string): Promise<FloodFigures> {
  // Warm: plan caches, the read cache, JIT.
  await readLoop(session, LIST_PATH, 10);
  await readLoop(session, asset, 10);
  const quiet = {
    list: figures(await readLoop(session, LIST_PATH, QUIET_READS)),
    asset: figures(await readLoop(session, asset, QUIET_READS)),
  };
  const rounds: FloodRound[] = [];
  for (let round = 0; round < ROUNDS; round += 1)
    for (const kind of ['sign-in', 'healthz'] as const)
      rounds.push(await floodRound(baseUrl, session, asset, kind));
  return { requests: FLOOD, quiet, rounds };
}

/**
 * The 300 requests, sent from a worker thread: an attacker is another
 * machine, and 300 connections set up from this thread's event loop would
 * be counted in the reads' latency. `sign-in`: unknown emails, each from an
 * address of its own; `healthz`: requests that do nothing, the floor any
 * 300 connections at once cost.
 */
const FLOOD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { baseUrl, count, kind } = workerData;
const url = new URL(baseUrl);
const one = (i) => new Promise((resolve) => {
  const body = kind === 'sign-in'
    ? JSON.stringify({ email: 'nobody-' + i + '@flood.test', password: 'not anyone' })
    : undefined;
  const req = http.request({
    host: url.hostname, port: url.port,
    path: body ? '/auth/login' : '/healthz', method: body ? 'POST' : 'GET',
    agent: false,
    headers: Object.assign(
      { origin: url.origin, 'x-forwarded-for': '198.18.' + (i >> 8) + '.' + (i & 255) },
      body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {},
    ),
  }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode)); });
  req.on('error', (error) => resolve('error ' + error.code));
  req.end(body);
});
Promise.all(Array.from({ length: count }, (_, i) => one(i))).then((statuses) => parentPort.postMessage(statuses));
`;

function floodFromWorker(
  baseUrl: string,
  count: number,
  kind: FloodKind,
): Promise<Array<number | string>> {
  const worker = new Worker(FLOOD_WORKER, { eval: true, workerData: { baseUrl, count, kind } });
  return new Promise<Array<number | string>>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  }).finally(() => void worker.terminate());
}

/** A built script of the SPA, served as a static file. */
async function staticAsset(): Promise<string> {
  const files = await readdir(path.resolve('dist/web/assets'));
  const script = files.find((f) => f.endsWith('.js'));
  if (!script) throw new Error('no script in dist/web/assets: build first');
  return `/assets/${script}`;
}

const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} ms` : '—');
const reads = (f: ReadFigures) =>
  `p50 ${ms(f.p50Ms)}, p95 ${ms(f.p95Ms)}, max ${ms(f.maxMs)} (${f.requests} reads; ` +
  `the slowest sent at ${ms(f.slowestSentAtMs)})`;
const statusList = (s: Record<string, number>) =>
  Object.entries(s)
    .map(([status, count]) => `${count}× ${status}`)
    .join(', ');

export const signInAbuseSection: BenchSection = {
  name: 'sign-in-abuse',
  about:
    'a burst of 40 guesses at one account from one address (checked vs refused), and 300 anonymous sign-ins at once (list read and static asset latency meanwhile)',
  async run({ build, progress }) {
    if (build) {
      progress('building (npm run build)…');
      execFileSync('npm', ['run', '-s', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
    }
    const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-sign-in-abuse-'));
    progress(`starting the console on a new sandbox in ${dataDir}…`);
    const server = await startConsole({
      dataDir,
      logLevel: 'warn',
      staticDir: path.resolve('dist/web'),
      logFile: path.join(dataDir, 'console.log'),
      env: { TRUST_PROXY: '1' },
    });
    try {
      const asset = await staticAsset();
      const adminAgent = keepAliveAgent(1);
      const session = await signInAsDemoAdmin(adminAgent, server.url);
      adminAgent.destroy();
      progress(`${GUESSES} guesses at one account from one address…`);
      const guesses = await guessBurst(server.url);
      progress(`${FLOOD} anonymous sign-ins at once, reading meanwhile…`);
      const floodFigures = await flood(server.url, session, asset);

      const signInRounds = floodFigures.rounds.filter((r) => r.kind === 'sign-in');
      const floorRounds = floodFigures.rounds.filter((r) => r.kind === 'healthz');
      const maxes = (rounds: FloodRound[], read: 'list' | 'asset') =>
        rounds.map((r) => ms(r[read].maxMs)).join(', ');
      const readLines = (read: 'list' | 'asset', name: string) => [
        `  ${name}: quiet ${reads(floodFigures.quiet[read])}`,
        ...signInRounds.map((r, i) => `    during sign-ins, round ${i + 1}: ${reads(r[read])}`),
        `    during 300 GET /healthz (the floor), max per round: ${maxes(floorRounds, read)}`,
      ];
      const text = [
        `${GUESSES} sign-ins at once for one account from one address, the right password the ${GUESSES / 2 + 1}st sent:`,
        `  ${statusList(guesses.statuses)}: ${guesses.checked} checked, ${guesses.refused} refused; ` +
          `the right password answered ${guesses.rightPasswordStatus}` +
          (guesses.rightPasswordStatus === 200 ? ' (signed in)' : ' (not checked)'),
        `${FLOOD} sign-ins at once with unknown emails, each from its own address, ${ROUNDS} rounds: ` +
          signInRounds
            .map((r) => `${statusList(r.statuses)} in ${r.seconds.toFixed(2)} s`)
            .join('; '),
        ...readLines('list', `list read ${LIST_PATH}`),
        ...readLines('asset', `static asset ${asset}`),
        '  target: the list read under 200 ms during the sign-ins',
      ].join('\n');
      return { text, data: { guesses, flood: floodFigures, asset } };
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
};
