import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { paths } from '../../src/contract/paths.ts';
import type { BenchSection, SectionOptions } from '../section.ts';
import { listRows } from './compare-section.ts';
import { cannon } from './load.ts';
import {
  postgresForBench,
  scratchPostgres,
  startConsole,
  startJsonServer,
  type Child,
} from './processes.ts';
import { formatCompare, JSON_BESIDE_POSTGRES, type CompareResult } from './report.ts';

/**
 * The list page's throughput on one database beside json-server 0.17: the
 * same cells and rounds as `compare`'s load cells, without its cold loads,
 * logging and page parts. About a minute and a half each (`list-pglite`,
 * `list-postgres`), so a change to the server's code can be weighed before
 * and after in one sitting.
 */

const LIST = `${paths.transactions()}?limit=20`;
const ROUNDS = 3;

type Target = 'console PGlite' | 'console PostgreSQL';

async function runList(target: Target, { seconds, build, progress }: SectionOptions) {
  const work = await mkdtemp(path.join(tmpdir(), 'custody-bench-list-'));
  const running: Child[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  const result: CompareResult = {
    seconds,
    coldLoads: [],
    load: [],
    logging: [],
    rssMb: {},
    unavailable: [],
  };
  try {
    if (build) {
      progress('building (npm run build)…');
      execFileSync('npm', ['run', '-s', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
    }
    let databaseUrl: string | undefined;
    if (target === 'console PostgreSQL') {
      const postgres = await postgresForBench();
      if ('unavailable' in postgres) {
        result.unavailable.push(`${target}: ${postgres.unavailable}`);
        progress(postgres.unavailable);
        return { text: formatCompare(result), data: result };
      }
      cleanups.push(() => postgres.stop());
      const scratch = await scratchPostgres(postgres.url);
      cleanups.unshift(() => scratch.drop().catch(() => undefined));
      databaseUrl = scratch.url;
    }
    const staticDir = path.join(work, 'web');
    await cp('dist/web', staticDir, { recursive: true });
    await cp('dist/ssr', path.join(work, 'ssr'), { recursive: true });
    progress(`${target}, LOG_LEVEL=info…`);
    const server = await startConsole({
      dataDir: path.join(work, 'pglite'),
      ...(databaseUrl ? { databaseUrl } : {}),
      logLevel: 'info',
      staticDir,
      logFile: path.join(work, 'console.log'),
    });
    running.push(server);
    const { cookie, rows } = await listRows(server.url);
    if (rows.length !== 20) throw new Error(`the list page held ${rows.length} rows, not 20`);
    const dbFile = path.join(work, 'json-server-db.json');
    await writeFile(dbFile, JSON.stringify({ transactions: rows }));
    const json = await startJsonServer(dbFile, path.join(work, 'json-server.log'));
    running.push(json);
    const theirName = target === 'console PostgreSQL' ? JSON_BESIDE_POSTGRES : 'json-server 0.17';
    const headers = { cookie, accept: 'application/json' };
    // Each console cell followed by json-server's: the ratio meets the machine's drift once.
    for (let round = 1; round <= ROUNDS; round += 1)
      for (const conns of [10, 50]) {
        const ours = await cannon(target, server.url + LIST, conns, seconds, headers, server.pid);
        const theirs = await cannon(
          theirName,
          `${json.url}/transactions`,
          conns,
          seconds,
          {},
          json.pid,
        );
        result.load.push({ ...ours, round }, { ...theirs, round });
        progress(
          `  round ${round} ×${conns}: console ${ours.rps.toFixed(0)} vs json-server ${theirs.rps.toFixed(0)} req/s`,
        );
      }
    result.rssMb[`${target} (loaded)`] = await server.rssMb();
  } finally {
    for (const child of running.splice(0)) await child.stop();
    for (const cleanup of cleanups) await cleanup();
    await rm(work, { recursive: true, force: true });
  }
  return { text: formatCompare(result), data: result };
}

export const listSection: BenchSection = {
  name: 'list-pglite',
  about:
    'autocannon on the list page of 20 on PGlite beside json-server 0.17 (compare’s first load cells, alone)',
  run: (options) => runList('console PGlite', options),
};

export const listPostgresSection: BenchSection = {
  name: 'list-postgres',
  about:
    'autocannon on the list page of 20 on PostgreSQL (DATABASE_URL or a private server) beside json-server 0.17, as list-pglite',
  run: (options) => runList('console PostgreSQL', options),
};
