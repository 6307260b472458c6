import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './served.ts';

/**
 * A PostgreSQL server of a test's own, which the test may stop, restart and
 * whose backends it may terminate: what `scripts/with-postgres.sh` starts for
 * a whole run, here for one test file (initdb + pg_ctl in a temporary
 * directory, 127.0.0.1 on a free port). Debian's `postgresql` package provides
 * the binaries (`apt-get install -y postgresql`; with-postgres.sh installs it
 * when missing). As root, the server runs as the package's `postgres` user.
 */

const run = promisify(execFile);

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** `pg_ctl stop -m fast`: clients are disconnected, new connections refused. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** `pg_ctl restart -m fast`. */
  restart(): Promise<void>;
  /** `pg_terminate_backend` of every other client backend; how many it ended. */
  terminateBackends(): Promise<number>;
  /** Stops the server (immediately) and removes its directory. */
  cleanup(): Promise<void>;
}

function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(a) - Number(b))
    : [];
  const latest = versions.at(-1);
  if (!latest)
    throw new Error(
      'PostgreSQL is not installed: this test starts a server of its own. Install it with `apt-get install -y postgresql`',
    );
  return path.join(root, latest, 'bin');
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  const asRoot = process.getuid?.() === 0;
  // initdb and postgres refuse to run as root.
  const pgRun = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args])
      : run(path.join(bin, tool), args);
  const work = await mkdtemp(path.join(tmpdir(), 'private-postgres-'));
  await chmod(work, 0o755);
  const data = path.join(work, 'data');
  const socket = path.join(work, 'socket');
  await mkdir(data);
  await mkdir(socket);
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    for (const dir of [data, socket]) await chown(dir, Number(stdout), Number(group));
  }
  const port = await freePort();
  await pgRun('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '--no-locale',
    '-E',
    'UTF8',
  ]);
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${socket} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const ctl = (...args: string[]) =>
    pgRun('pg_ctl', ['-D', data, '-l', path.join(socket, 'server.log'), '-w', '-t', '60', ...args]);
  await ctl('-o', options, 'start');
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let running = true;
  return {
    url,
    port,
    async stop() {
      await ctl('-m', 'fast', 'stop');
      running = false;
    },
    async start() {
      await ctl('-o', options, 'start');
      running = true;
    },
    async restart() {
      await ctl('-m', 'fast', '-o', options, 'restart');
      running = true;
    },
    async terminateBackends() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ ended: boolean }>(
          `select pg_terminate_backend(pid) as ended from pg_stat_activity
            where pid <> pg_backend_pid() and backend_type = 'client backend'`,
        );
        return rows.filter((r) => r.ended).length;
      } finally {
        await client.end();
      }
    },
    async cleanup() {
      if (running) await ctl('-m', 'immediate', 'stop').catch(() => undefined);
      running = false;
      await rm(work, { recursive: true, force: true });
    },
  };
}
