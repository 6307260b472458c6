import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { cp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createServer } from 'node:net';
import pg from 'pg';

/**
 * Child processes the comparison measures: the console as `npm start` runs
 * it (compiled, plain node), json-server, and a private PostgreSQL. Each one
 * is its own process, so its RSS is its own and the load generator in this
 * process does not share its event loop.
 */

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no free port')),
      );
    });
  });
}

export interface Child {
  url: string;
  pid: number;
  /** Resident set size of the process now, from /proc (the kernel's own count). */
  rssMb(): Promise<number>;
  stop(): Promise<void>;
}

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kb ? Math.round(Number(kb) / 102.4) / 10 : Number.NaN;
}

async function waitUntilAnswering(
  child: ChildProcess,
  url: string,
  logFile: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: string | undefined;
  child.once('exit', (code, signal) => (exited = `exited ${code ?? signal}`));
  while (Date.now() < deadline) {
    if (exited) break;
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  const tail = readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n');
  throw new Error(`${url} did not answer (${exited ?? 'timed out'}); its log ends:\n${tail}`);
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
}

function spawnLogged(
  args: string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
  cwd?: string,
): { child: ChildProcess; pid: number } {
  // Logs go to a file, as a deployed server's would: the cost of writing them is part of the figure.
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, args, { env, cwd, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`could not start ${args.join(' ')}`);
  return { child, pid: child.pid };
}

export interface ConsoleOptions {
  dataDir: string;
  databaseUrl?: string;
  logLevel: 'info' | 'warn';
  staticDir: string;
  logFile: string;
  /** Extra node flags, e.g. --cpu-prof to profile the server under the bench's load. */
  nodeArgs?: string[];
  /** Extra environment, e.g. SANDBOX_TIME_SCALE for a section that follows lifecycles. */
  env?: Record<string, string>;
  /** Another checkout's build to run (bench/list-cpu.ts); default: this one's. */
  root?: string;
  /** How long its first start may take (default 3 minutes; a loaded machine takes longer). */
  startTimeoutMs?: number;
}

/**
 * The node flags `npm run serve` (and so `npm start`) gives the server, read
 * from package.json: the bench measures the server as it is run.
 */
function serveNodeArgs(root = '.'): string[] {
  const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as {
    scripts: { serve: string };
  };
  const args = /^node (.*?)\s*dist\/node\/server\/main\.js$/.exec(pkg.scripts.serve)?.[1];
  if (args === undefined) throw new Error(`unexpected serve script: ${pkg.scripts.serve}`);
  return args.split(/\s+/).filter(Boolean);
}

/**
 * The console as built (built first when `build`), its SPA and server render
 * copied into `work` so a later build cannot change it mid-run, on a fresh
 * PGlite there, logging warnings only. Its static folder is answered beside
 * it, for a section that puts a page of its own there.
 */
export async function startBuiltConsole(
  work: string,
  {
    build,
    progress,
    nodeArgs,
  }: {
    build: boolean;
    progress: (line: string) => void;
    /** Extra node flags for the server (ConsoleOptions.nodeArgs). */
    nodeArgs?: string[] | undefined;
  },
): Promise<{ server: Child; staticDir: string }> {
  if (build) {
    progress('building (npm run build)…');
    execFileSync('npm', ['run', '-s', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const staticDir = path.join(work, 'web');
  await cp('dist/web', staticDir, { recursive: true });
  await cp('dist/ssr', path.join(work, 'ssr'), { recursive: true });
  const server = await startConsole({
    dataDir: path.join(work, 'pglite'),
    logLevel: 'warn',
    staticDir,
    logFile: path.join(work, 'console.log'),
    ...(nodeArgs ? { nodeArgs } : {}),
  });
  return { server, staticDir };
}

/** The built console (`dist/node/server/main.js`), seeded sandbox, on a port of its own. */
export async function startConsole(options: ConsoleOptions): Promise<Child> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    LOG_LEVEL: options.logLevel,
    STATIC_DIR: options.staticDir,
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  };
  const { child, pid } = spawnLogged(
    [...serveNodeArgs(options.root), ...(options.nodeArgs ?? []), 'dist/node/server/main.js'],
    env,
    options.logFile,
    options.root,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(
    child,
    `${url}/healthz`,
    options.logFile,
    options.startTimeoutMs ?? 180_000,
  );
  return { url, pid, rssMb: () => rssOf(pid), stop: stopper(child) };
}

/** json-server 0.17 (its own CLI, defaults as shipped) serving `dbFile`. */
export async function startJsonServer(dbFile: string, logFile: string): Promise<Child> {
  const port = await freePort();
  const bin = new URL('../../node_modules/json-server/lib/cli/bin.js', import.meta.url).pathname;
  const { child, pid } = spawnLogged(
    [bin, '--host', '127.0.0.1', '--port', String(port), dbFile],
    { PATH: process.env.PATH },
    logFile,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(child, `${url}/transactions`, logFile, 60_000);
  return { url, pid, rssMb: () => rssOf(pid), stop: stopper(child) };
}

/**
 * A PostgreSQL for the run: DATABASE_URL when given, else a private, throwaway
 * server started by scripts/with-postgres.sh (the one CI's storage tests
 * use), kept alive by a bounded `sleep` and stopped with it.
 */
export async function postgresForBench(
  /** Server options for the private one (`-c name=value …`); ignored with DATABASE_URL. */
  serverOptions?: string,
): Promise<{ url: string; stop(): Promise<void> } | { unavailable: string }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => {} };
  const helper = spawn('bash', ['scripts/with-postgres.sh', 'sleep', '3600'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
    ...(serverOptions ? { env: { ...process.env, WITH_POSTGRES_OPTIONS: serverOptions } } : {}),
  });
  let stderr = '';
  const url = await new Promise<string | undefined>((resolve) => {
    helper.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const found = / at (postgres:\/\/\S+)/.exec(stderr)?.[1];
      if (found) resolve(found);
    });
    helper.once('exit', () => resolve(undefined));
  });
  if (!url) return { unavailable: `no PostgreSQL: ${stderr.trim().split('\n').at(-1) ?? ''}` };
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        if (helper.exitCode !== null) return resolve();
        helper.once('exit', () => resolve());
        // The whole group: `sleep` ends, then the script's trap stops and removes the server.
        if (helper.pid) process.kill(-helper.pid, 'SIGTERM');
      }),
  };
}

/** A scratch database on `serverUrl`, dropped by `drop()`. */
export async function scratchPostgres(
  serverUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `custody_bench_${process.pid}_${Date.now()}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
