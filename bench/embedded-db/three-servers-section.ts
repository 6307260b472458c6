import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { postgresForBench, scratchPostgres } from '../compare/processes.ts';
import { send } from '../load.ts';
import type { BenchSection } from '../section.ts';
import { startStore, type StoreConsole } from './store.ts';
import {
  approve,
  createTransfer,
  poll,
  readLag,
  signInMembers,
  sleep,
  summarize,
  type LatencySummary,
  type Members,
  type SimulatorLag,
} from './traffic.ts';

/**
 * Several console servers on one PostgreSQL database, as behind a load
 * balancer with sticky sessions: 30 clients creating, approving and reading,
 * each pinned to one server. First one server alone on the database, then
 * three (the first and two more), in one run on one database, so the two
 * are compared at the same machine load. Beside the clients' figures:
 * each server's CPU, the simulator's lag, and PostgreSQL's own view — what
 * its active backends were waiting on (pg_stat_activity, sampled) and which
 * statements took its time (pg_stat_statements, loaded by the private
 * server's options).
 *
 * THREE_SERVERS_SECONDS sets each phase's length (default 60);
 * THREE_SERVERS_PROFILE=<dir> writes a CPU profile of the first server.
 */

const MEASURE_MS = Number(process.env.THREE_SERVERS_SECONDS ?? 60) * 1000;
const SERVERS = 3;
const CLIENTS = 30;
const MIX = [
  ['create', 25],
  ['approve', 20],
  ['list', 25],
  ['get', 20],
  ['balances', 10],
] as const;
type Operation = (typeof MIX)[number][0];

function pick(): Operation {
  let r = Math.random() * 100;
  for (const [op, weight] of MIX) {
    r -= weight;
    if (r < 0) return op;
  }
  return 'list';
}

export interface ServerCpu {
  /** Share of one core the server used while measured (main thread + its other threads). */
  mainPercent: number;
  otherPercent: number;
}

export interface PhaseFigures {
  servers: number;
  operations: Partial<Record<Operation | 'read', LatencySummary>>;
  operationsPerSecond: number;
  failures: number;
  firstFailure?: string;
  lagDuring: { maxDue: number; maxOldestDueSeconds: number; samples: number };
  serverCpu: ServerCpu[];
  /** Each server's CPU in the 10 s before the phase, no client sending: its background work. */
  idleCpu: ServerCpu[];
  /** Every server's CPU ms (all threads) per operation the clients completed. */
  serverCpuMsPerOperation: number;
  /** The PostgreSQL processes' CPU (every backend of the server), as a share of one core. */
  postgresCpuPercent: number;
  /** The whole machine's CPU busy, as a share of all its cores. */
  machineBusyPercent: number;
  /** What PostgreSQL's active backends on the database were doing, sampled every 100 ms. */
  waits: {
    samples: number;
    activeMean: number;
    byEvent: Record<string, number>;
    /** The statements waiting backends ran, by wait, as a mean number of backends. */
    waitingStatements: Record<string, number>;
    /** Sessions idle in a transaction: their mean number, and their last statements. */
    idleInTransactionMean: number;
    idleInTransactionLast: Record<string, number>;
  };
  /** Connections the database had at the end, by state. */
  connections: Record<string, number>;
  /** The statements that took most of PostgreSQL's time (pg_stat_statements). */
  statements: Array<{ query: string; calls: number; meanMs: number; totalMs: number }> | string;
  loadAverage: number[];
}

/**
 * The CPU ms (user + system) of the PostgreSQL server `postmaster` runs and
 * the backends it started (other PostgreSQL servers on the machine are not
 * counted); a backend that exited within the phase takes its time with it.
 */
async function postgresCpuMs(postmaster: number): Promise<number> {
  let total = 0;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(entry) !== postmaster && Number(fields[1]) !== postmaster) continue;
    total += (Number(fields[11]) + Number(fields[12])) * 10;
  }
  return total;
}

/** The postmaster's pid: the parent of this connection's backend. */
async function postmasterOf(admin: pg.Client): Promise<number> {
  const { rows } = await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const stat = await readFile(`/proc/${rows[0]?.pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** The machine's CPU counters (busy, total), in ticks. */
async function machineTicks(): Promise<{ busy: number; total: number }> {
  const line = (await readFile('/proc/stat', 'utf8')).split('\n')[0] ?? '';
  const n = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (n[3] ?? 0) + (n[4] ?? 0);
  const total = n.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** Each console's CPU over `ms` from now. */
async function cpuOver(consoles: StoreConsole[], ms: number): Promise<ServerCpu[]> {
  const before = await Promise.all(consoles.map((c) => c.cpuMs()));
  await sleep(ms);
  const after = await Promise.all(consoles.map((c) => c.cpuMs()));
  return before.map((b, i) => ({
    mainPercent: (((after[i]?.main ?? b.main) - b.main) / ms) * 100,
    otherPercent: (((after[i]?.other ?? b.other) - b.other) / ms) * 100,
  }));
}

async function measurePhase(
  consoles: StoreConsole[],
  targets: Members[],
  admin: pg.Client,
  postmaster: number,
  database: string,
  hasStatements: boolean,
  progress: (line: string) => void,
): Promise<PhaseFigures> {
  const pending: string[] = [];
  const recent: string[] = [];
  const latencies = new Map<Operation | 'read', number[]>();
  let failures = 0;
  let firstFailure: string | undefined;
  let operations = 0;
  let stopped = false;
  let n = 0;
  const record = (op: Operation | 'read', ms: number) => {
    const list = latencies.get(op) ?? [];
    list.push(ms);
    latencies.set(op, list);
  };
  const run = async (m: Members, op: Operation): Promise<[Operation, number]> => {
    switch (op) {
      case 'create': {
        const { value, ms } = await createTransfer(m, n++);
        pending.push(value);
        recent.push(value);
        if (recent.length > 500) recent.shift();
        return [op, ms];
      }
      case 'approve': {
        const id = pending.shift();
        if (!id) return run(m, 'list');
        return [op, await approve(m, id)];
      }
      case 'get': {
        const id = recent[Math.floor(Math.random() * recent.length)];
        if (!id) return run(m, 'list');
        const answer = await poll(m.agent, m.viewer, id, undefined);
        if (answer.status !== 200) throw new Error(`GET ${id}: ${answer.status}`);
        return [op, Number(answer.latencyNs) / 1e6];
      }
      case 'balances': {
        const res = await send(m.agent, m.viewer.baseUrl, m.viewer.headers, {
          method: 'GET',
          path: `/api/external/vaults/${m.vaults[n % 2]}/balances/`,
        });
        if (res.status !== 200) throw new Error(`balances: ${res.status}`);
        return [op, Number(res.latencyNs) / 1e6];
      }
      case 'list': {
        const res = await send(m.agent, m.viewer.baseUrl, m.viewer.headers, {
          method: 'GET',
          path: '/api/external/transactions/?limit=20',
        });
        if (res.status !== 200) throw new Error(`list: ${res.status}`);
        return [op, Number(res.latencyNs) / 1e6];
      }
    }
  };

  // Before anything of the phase runs: the servers' background work alone.
  const idleCpu = await cpuOver(consoles, 10_000);
  const lags: SimulatorLag[] = [];
  const lagSampler = (async () => {
    while (!stopped) {
      const lag = await readLag(targets[0]?.viewer.baseUrl ?? '');
      if (lag) lags.push(lag);
      await sleep(1_000);
    }
  })();
  const waitCounts: Record<string, number> = {};
  let waitSamples = 0;
  let activeTotal = 0;
  let idleTotal = 0;
  const waitingOn: Record<string, number> = {};
  const idleInTransaction: Record<string, number> = {};
  const waitSampler = (async () => {
    while (!stopped) {
      // Active backends by what they wait on (none: on CPU), and what each waiting one runs;
      // sessions idle inside a transaction by the statement they ran last (they hold its locks
      // while their server prepares the next one).
      const { rows } = await admin.query<{ wait: string; state: string; query: string }>(
        `SELECT coalesce(wait_event_type || ':' || wait_event, 'on CPU') AS wait, state,
                left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query
           FROM pg_stat_activity
          WHERE datname = $1 AND state IN ('active', 'idle in transaction') AND pid <> pg_backend_pid()`,
        [database],
      );
      waitSamples += 1;
      for (const { wait, state, query } of rows) {
        if (state === 'active') {
          waitCounts[wait] = (waitCounts[wait] ?? 0) + 1;
          activeTotal += 1;
          if (wait !== 'on CPU') {
            const key = `${wait} ${query}`;
            waitingOn[key] = (waitingOn[key] ?? 0) + 1;
          }
        } else {
          idleInTransaction[query] = (idleInTransaction[query] ?? 0) + 1;
          idleTotal += 1;
        }
      }
      await sleep(100);
    }
  })();

  if (hasStatements) await admin.query('SELECT pg_stat_statements_reset()');
  const cpuBefore = await Promise.all(consoles.map((c) => c.cpuMs()));
  const pgBefore = await postgresCpuMs(postmaster);
  const machineBefore = await machineTicks();
  const started = performance.now();
  progress(`  ${consoles.length} server(s), ${CLIENTS} clients for ${MEASURE_MS / 1000} s…`);
  const clients = Array.from({ length: CLIENTS }, async (_, i) => {
    // Pinned: client i always talks to server i mod n, as sticky sessions would.
    const m = targets[i % targets.length];
    if (!m) return;
    while (!stopped) {
      try {
        const [op, ms] = await run(m, pick());
        record(op, ms);
        if (op === 'list' || op === 'get' || op === 'balances') record('read', ms);
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
  const cpuAfter = await Promise.all(consoles.map((c) => c.cpuMs()));
  const pgAfter = await postgresCpuMs(postmaster);
  const machineAfter = await machineTicks();
  await Promise.all([lagSampler, waitSampler]);

  let statements: PhaseFigures['statements'] = 'pg_stat_statements not loaded';
  if (hasStatements) {
    const { rows } = await admin.query<{
      query: string;
      calls: string;
      mean: number;
      total: number;
    }>(
      `SELECT s.query, s.calls, s.mean_exec_time AS mean, s.total_exec_time AS total
         FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
        WHERE d.datname = $1
        ORDER BY s.total_exec_time DESC LIMIT 10`,
      [database],
    );
    statements = rows.map((r) => ({
      query: r.query.replace(/\s+/g, ' ').slice(0, 160),
      calls: Number(r.calls),
      meanMs: r.mean,
      totalMs: r.total,
    }));
  }
  const { rows: connectionRows } = await admin.query<{ state: string; n: number }>(
    `SELECT coalesce(state, 'none') AS state, count(*)::int AS n
       FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() GROUP BY 1`,
    [database],
  );
  const wallMs = seconds * 1000;
  return {
    servers: consoles.length,
    operations: Object.fromEntries(
      [...latencies.entries()].map(([op, list]) => [op, summarize(list)]),
    ),
    operationsPerSecond: operations / seconds,
    failures,
    ...(firstFailure ? { firstFailure } : {}),
    lagDuring: {
      maxDue: Math.max(0, ...lags.map((l) => l.due)),
      maxOldestDueSeconds: Math.max(0, ...lags.map((l) => l.oldestDueSeconds)),
      samples: lags.length,
    },
    serverCpu: cpuBefore.map((before, i) => {
      const after = cpuAfter[i] ?? before;
      return {
        mainPercent: ((after.main - before.main) / wallMs) * 100,
        otherPercent: ((after.other - before.other) / wallMs) * 100,
      };
    }),
    idleCpu,
    serverCpuMsPerOperation:
      cpuAfter.reduce(
        (sum, after, i) =>
          sum + after.main + after.other - (cpuBefore[i]?.main ?? 0) - (cpuBefore[i]?.other ?? 0),
        0,
      ) / Math.max(1, operations),
    postgresCpuPercent: ((pgAfter - pgBefore) / wallMs) * 100,
    machineBusyPercent:
      ((machineAfter.busy - machineBefore.busy) /
        Math.max(1, machineAfter.total - machineBefore.total)) *
      100,
    waits: {
      samples: waitSamples,
      activeMean: activeTotal / Math.max(1, waitSamples),
      byEvent: Object.fromEntries(
        Object.entries(waitCounts)
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => [k, v / Math.max(1, waitSamples)]),
      ),
      waitingStatements: top(waitingOn, waitSamples),
      idleInTransactionMean: idleTotal / Math.max(1, waitSamples),
      idleInTransactionLast: top(idleInTransaction, waitSamples),
    },
    connections: Object.fromEntries(connectionRows.map((r) => [r.state, r.n])),
    statements,
    loadAverage: os.loadavg(),
  };
}

/** The eight largest counts, as a mean per sample. */
function top(counts: Record<string, number>, samples: number): Record<string, number> {
  return Object.fromEntries(
    Object.entries(counts)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([k, v]) => [k, v / Math.max(1, samples)]),
  );
}

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '—');

function describe(f: PhaseFigures): string[] {
  const waits = Object.entries(f.waits.byEvent)
    .slice(0, 6)
    .map(([k, v]) => `${k} ${v.toFixed(2)}`)
    .join(', ');
  return [
    `  ${f.servers} server(s): ${f.operationsPerSecond.toFixed(0)} operations/s, ${f.failures} failed${f.firstFailure ? ` (${f.firstFailure.slice(0, 120)})` : ''}; load ${f.loadAverage.map((l) => l.toFixed(1)).join(' ')}; machine ${f.machineBusyPercent.toFixed(0)}% busy`,
    ...(['create', 'approve', 'read', 'list', 'get', 'balances'] as const).flatMap((op) => {
      const s = f.operations[op];
      return s
        ? [
            `    ${(op === 'approve' ? 'decide' : op).padEnd(9)} ${String(s.count).padStart(5)}: p50 ${fmt(s.p50Ms)} ms, p99 ${fmt(s.p99Ms)} ms, max ${fmt(s.maxMs)} ms`,
          ]
        : [];
    }),
    `    server CPU per operation, all servers: ${f.serverCpuMsPerOperation.toFixed(1)} ms; idle before the phase (no clients): ${f.idleCpu.map((c) => `${(c.mainPercent + c.otherPercent).toFixed(0)}%`).join(', ')} of a core`,
    `    CPU, % of a core: ${f.serverCpu.map((c, i) => `server ${i + 1} ${c.mainPercent.toFixed(0)} + ${c.otherPercent.toFixed(0)}`).join(', ')} (main + other threads); PostgreSQL ${f.postgresCpuPercent.toFixed(0)}`,
    `    simulator lag (/readyz, ${f.lagDuring.samples} samples): up to ${f.lagDuring.maxDue} due, the oldest ${f.lagDuring.maxOldestDueSeconds.toFixed(1)} s overdue`,
    `    PostgreSQL active backends ${f.waits.activeMean.toFixed(2)} on average (${f.waits.samples} samples): ${waits || 'none'}; connections ${Object.entries(
      f.connections,
    )
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    ...Object.entries(f.waits.waitingStatements)
      .slice(0, 4)
      .map(([k, v]) => `      waiting ${v.toFixed(2)}: ${k}`),
    `    sessions idle in a transaction ${f.waits.idleInTransactionMean.toFixed(2)} on average, their last statement:`,
    ...Object.entries(f.waits.idleInTransactionLast)
      .slice(0, 4)
      .map(([k, v]) => `      ${v.toFixed(2)}: ${k}`),
    ...(typeof f.statements === 'string'
      ? [`    statements: ${f.statements}`]
      : [
          '    statements by PostgreSQL time (calls, mean, total):',
          ...f.statements
            .slice(0, 6)
            .map(
              (s) =>
                `      ${String(s.calls).padStart(6)} × ${s.meanMs.toFixed(2)} ms = ${fmt(s.totalMs)} ms  ${s.query.slice(0, 110)}`,
            ),
        ]),
  ];
}

export const threeServersSection: BenchSection = {
  name: 'three-servers',
  about: `${CLIENTS} clients pinned to one, then ${SERVERS} servers on one PostgreSQL: create/decide/read p50/p99, operations/s, simulator lag, each server's CPU, PostgreSQL's waits and statements`,
  async run(options) {
    if (options.build) {
      options.progress('building (npm run build)…');
      execFileSync('npm', ['run', '-s', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
    }
    const postgres = await postgresForBench(
      '-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=top',
    );
    if ('unavailable' in postgres)
      return {
        text: `  PostgreSQL: ${postgres.unavailable}`,
        data: { unavailable: postgres.unavailable },
      };
    const work = await mkdtemp(path.join(tmpdir(), 'bench-three-servers-'));
    const scratch = await scratchPostgres(postgres.url);
    const database = new URL(scratch.url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: scratch.url });
    const consoles: StoreConsole[] = [];
    const members: Members[] = [];
    const phases: PhaseFigures[] = [];
    try {
      await admin.connect();
      const postmaster = await postmasterOf(admin);
      const hasStatements = await admin
        .query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements')
        .then(
          () => true,
          () => false,
        );
      const profile = process.env.THREE_SERVERS_PROFILE;
      const startOne = async (i: number) => {
        const dir = path.join(work, `server-${i}`);
        await mkdir(path.join(dir, 'no-spa'), { recursive: true });
        options.progress(`three-servers: server ${i} on PostgreSQL…`);
        const c = await startStore(
          'postgres',
          dir,
          scratch.url,
          i === 1 && profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [],
        );
        consoles.push(c);
        members.push(await signInMembers(c.url, CLIENTS + 5));
      };
      const measure = () =>
        measurePhase(
          consoles,
          members,
          admin,
          postmaster,
          database,
          hasStatements,
          options.progress,
        );
      // The first migrates and seeds the database; the others find it ready.
      await startOne(1);
      await sleep(5_000);
      phases.push(await measure());
      for (let i = 2; i <= SERVERS; i++) await startOne(i);
      await sleep(5_000);
      phases.push(await measure());
    } finally {
      for (const m of members) m.agent.destroy();
      await Promise.all(consoles.map((c) => c.stop()));
      await admin.end().catch(() => undefined);
      await scratch.drop().catch(() => undefined);
      await postgres.stop();
      await rm(work, { recursive: true, force: true });
    }
    const lines = [
      `${CLIENTS} clients on one PostgreSQL database, each pinned to a server, ${MEASURE_MS / 1000} s a phase, mix ${MIX.map(([op, w]) => `${op} ${w}%`).join(', ')} (a decision is two requests; read = list, get and balances):`,
      ...phases.flatMap(describe),
    ];
    return { text: lines.join('\n'), data: { clients: CLIENTS, mix: MIX, phases } };
  },
};
