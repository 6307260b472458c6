import { mkdir, mkdtemp, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { paths } from '../src/contract/paths.ts';
import { startConsole, type Child } from './compare/processes.ts';
import { keepAliveAgent } from './load.ts';
import { signInAsDemoAdmin } from './session.ts';

/**
 * Server CPU time per answered list request, for builds side by side:
 *
 *   npx tsx bench/list-cpu.ts [--requests N] [--connections C] [--rounds R] [--gc]
 *     [--cpu-prof DIR] [--heap-prof DIR] [--node-arg FLAG]… [--path P | --page P] name=dir …
 *
 * Each `dir` is a checkout with a build in it (`npm run build`: dist/node, dist/web,
 * dist/ssr), e.g. a scratch `git worktree add --detach <dir> <commit>`. Every build runs as
 * `npm start` runs it (its own package.json's serve flags, LOG_LEVEL=info, logs to a file,
 * a fresh seeded PGlite), all up together; the demo admin signs in to each, then the
 * builds take turns (A/B/A/B…) on the same load: N requests for the list page of 20 with
 * the session cookie at C connections (autocannon, after a warm-up of N/4). The figure is
 * the server process's user + system time (/proc/<pid>/stat: every thread, PGlite's
 * included) over the run, divided by the answers; the machine's other load moves it far
 * less than req/s. Each build's idle CPU (the lifecycle simulator, timers) is measured
 * apart, over a few quiet seconds, to show what is background.
 *
 * `--gc` runs every build with V8's `--trace-gc-nvp` (one line per collection, in its log)
 * and adds, per cell, the collections per 10,000 answers, their pauses, and the bytes
 * allocated per answer (V8's own `allocated=` count since the previous collection, summed),
 * for the request thread alone (the isolate that allocated most; PGlite's worker is another).
 * `--cpu-prof DIR` and `--heap-prof DIR` write each build's CPU profile (`node --cpu-prof`)
 * or sampled allocations (`node --heap-prof`) under DIR/<name> when it stops; `--node-arg`
 * passes any other node flag to every build (an `--import` of a profiler, say). `--path P` asks
 * for another API read's JSON than the list's; `--page P` for a page as a browser does
 * (`text/html`, brotli), rendered by the server.
 */

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    requests: { type: 'string', default: '20000' },
    connections: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    idle: { type: 'string', default: '5' },
    gc: { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    'heap-prof': { type: 'string' },
    'node-arg': { type: 'string', multiple: true, default: [] },
    page: { type: 'string' },
    path: { type: 'string' },
  },
});

// `--page /transactions` asks for a rendered page as a browser does (HTML, brotli) instead.
const LIST = args.page ?? args.path ?? `${paths.transactions()}?limit=20`;
const ASKED: Record<string, string> = args.page
  ? { accept: 'text/html', 'accept-encoding': 'br' }
  : { accept: 'application/json' };

interface ThreadTimes {
  main: number;
  others: number;
}

/** User + system ms so far of the process's main thread and of its other live threads. */
async function threadCpu(pid: number): Promise<ThreadTimes> {
  const times: ThreadTimes = { main: 0, others: 0 };
  for (const tid of await readdir(`/proc/${pid}/task`)) {
    const line = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8').catch(() => '');
    if (!line) continue;
    const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
    const ms = (Number(fields[11]) + Number(fields[12])) * 10;
    if (tid === String(pid)) times.main += ms;
    else times.others += ms;
  }
  return times;
}

interface Build {
  name: string;
  dir: string;
  server?: Child;
  cookie?: string;
  logFile?: string;
}

interface GcFigures {
  collections: number;
  /** Of which full (mark-compact) collections. */
  full: number;
  pauseMs: number;
  allocatedBytes: number;
}

const GC_LINE = /^\[\d+:(0x[0-9a-f]+)\]\s.*?pause=([\d.]+) .*?gc=(\w+) .*?allocated=(\d+)/;

/** The collections of the request thread's isolate in `text` (--trace-gc-nvp lines). */
function gcOf(text: string): GcFigures {
  const byIsolate = new Map<string, GcFigures>();
  for (const line of text.split('\n')) {
    const m = GC_LINE.exec(line);
    if (!m) continue;
    const [, isolate = '', pause = '0', kind = '', allocated = '0'] = m;
    const figures = byIsolate.get(isolate) ?? {
      collections: 0,
      full: 0,
      pauseMs: 0,
      allocatedBytes: 0,
    };
    figures.collections += 1;
    if (kind === 'mc' || kind === 'ms') figures.full += 1;
    figures.pauseMs += Number(pause);
    figures.allocatedBytes += Number(allocated);
    byIsolate.set(isolate, figures);
  }
  const all = [...byIsolate.values()].sort((a, b) => b.allocatedBytes - a.allocatedBytes);
  return all[0] ?? { collections: 0, full: 0, pauseMs: 0, allocatedBytes: 0 };
}

/** What `file` gained after `offset` bytes. */
async function readFrom(file: string, offset: number): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.max(0, size - offset));
    await handle.read(buffer, 0, buffer.length, offset);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}

interface Cell {
  build: string;
  round: number;
  requests: number;
  failures: number;
  rps: number;
  p99Ms: number;
  mainMs: number;
  otherMs: number;
  gc?: GcFigures;
}

async function load(url: string, cookie: string, amount: number, connections: number) {
  const headers = { cookie, ...ASKED };
  return autocannon({ url, connections, amount, headers, timeout: 10 });
}

async function main(): Promise<void> {
  const builds: Build[] = positionals.map((arg) => {
    const [name, dir] = arg.split('=');
    if (!name || !dir) throw new Error(`expected name=dir, got ${arg}`);
    return { name, dir: path.resolve(dir) };
  });
  if (builds.length === 0) throw new Error('name at least one build: name=dir');
  const requests = Number.parseInt(args.requests, 10);
  const connections = Number.parseInt(args.connections, 10);
  const rounds = Number.parseInt(args.rounds, 10);
  const work = await mkdtemp(path.join(tmpdir(), 'custody-list-cpu-'));
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const cells: Cell[] = [];
  const loadAtStart = os.loadavg();
  try {
    for (const build of builds) {
      say(`starting ${build.name} (${build.dir})…`);
      build.logFile = path.join(work, `${build.name}.log`);
      const nodeArgs = [...(args.gc ? ['--trace-gc-nvp'] : []), ...args['node-arg']];
      for (const kind of ['cpu', 'heap'] as const) {
        const profDir = args[`${kind}-prof`];
        if (!profDir) continue;
        const dir = path.resolve(profDir, build.name);
        await mkdir(dir, { recursive: true });
        nodeArgs.push(`--${kind}-prof`, `--${kind}-prof-dir=${dir}`);
      }
      build.server = await startConsole({
        root: build.dir,
        dataDir: path.join(work, `${build.name}-pglite`),
        logLevel: 'info',
        staticDir: path.join(build.dir, 'dist/web'),
        logFile: build.logFile,
        nodeArgs,
        startTimeoutMs: 900_000,
      });
      const agent = keepAliveAgent(1);
      try {
        build.cookie = (await signInAsDemoAdmin(agent, build.server.url)).headers.cookie;
      } finally {
        agent.destroy();
      }
      await load(build.server.url + LIST, build.cookie ?? '', Math.ceil(requests / 4), connections);
    }
    const idleSeconds = Number(args.idle);
    for (const build of builds) {
      const pid = build.server?.pid ?? 0;
      const before = await threadCpu(pid);
      await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
      const after = await threadCpu(pid);
      say(
        `${build.name} idle: ${((after.main - before.main) / idleSeconds).toFixed(1)} + ${((after.others - before.others) / idleSeconds).toFixed(1)} ms CPU a second (main + other threads)`,
      );
    }
    for (let round = 1; round <= rounds; round += 1) {
      // Which build goes first alternates, so neither always meets the machine's drift first.
      const order = round % 2 === 1 ? builds : [...builds].reverse();
      for (const build of order) {
        const pid = build.server?.pid ?? 0;
        const logOffset = (await stat(build.logFile ?? '')).size;
        const before = await threadCpu(pid);
        const r = await load(
          (build.server?.url ?? '') + LIST,
          build.cookie ?? '',
          requests,
          connections,
        );
        const after = await threadCpu(pid);
        const gc = args.gc ? gcOf(await readFrom(build.logFile ?? '', logOffset)) : undefined;
        const cell: Cell = {
          build: build.name,
          round,
          requests: r.requests.total,
          failures: r.non2xx + r.errors + r.timeouts,
          rps: r.requests.average,
          p99Ms: r.latency.p99,
          mainMs: after.main - before.main,
          otherMs: after.others - before.others,
          ...(gc ? { gc } : {}),
        };
        cells.push(cell);
        const per = (ms: number) => (ms / Math.max(1, cell.requests)).toFixed(3);
        say(
          `round ${round} ${build.name}: ${per(cell.mainMs + cell.otherMs)} ms CPU a request (${per(cell.mainMs)} main + ${per(cell.otherMs)} others), ${cell.requests} answers, ${cell.failures} failed, ${cell.rps.toFixed(0)} req/s, p99 ${cell.p99Ms} ms, load ${os.loadavg()[0]?.toFixed(1)}${gc ? `; ${gcText(gc, cell.requests)}` : ''}`,
        );
      }
    }
  } finally {
    for (const build of builds) await build.server?.stop();
    await rm(work, { recursive: true, force: true, maxRetries: 5 });
  }
  const lines = builds.map((build) => {
    const mine = cells.filter((c) => c.build === build.name);
    const each = mine.map((c) => ((c.mainMs + c.otherMs) / Math.max(1, c.requests)).toFixed(3));
    const mainEach = mine.map((c) => (c.mainMs / Math.max(1, c.requests)).toFixed(3));
    const gcEach = mine.flatMap((c) => (c.gc ? [gcText(c.gc, c.requests)] : []));
    return `${build.name}: ${each.join(' / ')} ms CPU a request (main thread ${mainEach.join(' / ')})${gcEach.length > 0 ? `\n  ${gcEach.join('\n  ')}` : ''}`;
  });
  process.stdout.write(
    `${lines.join('\n')}\n${requests} requests at ${connections} connections a cell; load average at start ${loadAtStart.map((n) => n.toFixed(1)).join(' ')}, at end ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}\n`,
  );
}

/** A cell's collections per 10,000 answers, their pauses, and the bytes allocated per answer. */
function gcText(gc: GcFigures, answers: number): string {
  const per10k = (n: number) => ((n * 10_000) / Math.max(1, answers)).toFixed(1);
  const kb = gc.allocatedBytes / 1024 / Math.max(1, answers);
  return `${per10k(gc.collections)} collections (${per10k(gc.full)} full) and ${per10k(gc.pauseMs)} ms of pauses per 10,000 answers, ${kb.toFixed(1)} KB allocated an answer`;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `list-cpu failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
