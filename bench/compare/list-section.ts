import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { paths } from '../../src/contract/paths.ts';
import type { BenchSection } from '../section.ts';
import { listRows } from './compare-section.ts';
import { cannon } from './load.ts';
import { startConsole, startJsonServer, type Child } from './processes.ts';
import { formatCompare, type CompareResult } from './report.ts';

/**
 * The list page's throughput on PGlite alone, beside json-server 0.17: the
 * same cells and rounds as `compare`'s first part, without its cold loads,
 * logging, page and PostgreSQL parts. About a minute and a half, so a change
 * to the server's code can be weighed before and after in one sitting.
 */

const LIST = `${paths.transactions()}?limit=20`;
const ROUNDS = 3;

export const listSection: BenchSection = {
  name: 'list-pglite',
  about:
    'autocannon on the list page of 20 on PGlite beside json-server 0.17 (compare’s first load cells, alone)',
  async run({ seconds, build, progress }) {
    const work = await mkdtemp(path.join(tmpdir(), 'custody-bench-list-'));
    const running: Child[] = [];
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
      const staticDir = path.join(work, 'web');
      await cp('dist/web', staticDir, { recursive: true });
      await cp('dist/ssr', path.join(work, 'ssr'), { recursive: true });
      progress('console on PGlite, LOG_LEVEL=info…');
      const pglite = await startConsole({
        dataDir: path.join(work, 'pglite'),
        logLevel: 'info',
        staticDir,
        logFile: path.join(work, 'console.log'),
      });
      running.push(pglite);
      const { cookie, rows } = await listRows(pglite.url);
      if (rows.length !== 20) throw new Error(`the list page held ${rows.length} rows, not 20`);
      const dbFile = path.join(work, 'json-server-db.json');
      await writeFile(dbFile, JSON.stringify({ transactions: rows }));
      const json = await startJsonServer(dbFile, path.join(work, 'json-server.log'));
      running.push(json);
      const headers = { cookie, accept: 'application/json' };
      // Each console cell followed by json-server's: the ratio meets the machine's drift once.
      for (let round = 1; round <= ROUNDS; round += 1)
        for (const conns of [10, 50]) {
          const ours = await cannon(
            'console PGlite',
            pglite.url + LIST,
            conns,
            seconds,
            headers,
            pglite.pid,
          );
          const theirs = await cannon(
            'json-server 0.17',
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
      result.rssMb['console PGlite (loaded)'] = await pglite.rssMb();
    } finally {
      for (const child of running.splice(0)) await child.stop();
      await rm(work, { recursive: true, force: true });
    }
    return { text: formatCompare(result), data: result };
  },
};
