import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SESSION_COOKIE } from '../../src/contract/auth.ts';
import { paths } from '../../src/contract/paths.ts';
import { keepAliveAgent } from '../load.ts';
import type { BenchSection } from '../section.ts';
import { callJson, signInAsDemoAdmin } from '../session.ts';
import { coldLoads, launchChromium } from './cold-load.ts';
import { cannon, type CannonRow } from './load.ts';
import {
  postgresForBench,
  scratchPostgres,
  startConsole,
  startJsonServer,
  type Child,
} from './processes.ts';
import { formatCompare, JSON_BESIDE_POSTGRES, type CompareResult } from './report.ts';
import { staticTable, type ListedRow } from './static-page.ts';

/**
 * The console beside what people use instead, in one run on one machine:
 * json-server 0.17 serving the same 20 rows, a static HTML table of them
 * served by the console's own server, and the console itself as `npm start`
 * runs it (compiled, its own process, logs to a file) on PGlite and on
 * PostgreSQL. Load: autocannon with a signed-in staff cookie on the list
 * page of 20; cold loads: headless Chromium.
 */

const LIST = `${paths.transactions()}?limit=20`;
const COLD_RUNS = 15;
const LOGGING_ROUNDS = 5;
/**
 * Rounds of the list cells, each console cell followed by json-server's: p99
 * is decided by the slowest 1% of answers, and one stall of the shared
 * machine (a neighbour's burst, host steal) in a 5 s cell set it for both
 * servers alike (json-server's own p99 at 50 connections ranged 15-75 ms
 * between runs). The targets are read from the median round; every round is
 * printed.
 */
const LOAD_ROUNDS = 3;
const STATIC_PAGE = 'bench-static-20.html';
const SNAPSHOT_PAGE = 'bench-console-snapshot.html';

/**
 * The console's server-rendered /transactions as a static file without its
 * scripts (the app and its state): what that page's markup and stylesheet
 * cost the browser alone, with no server render and no JavaScript. Splits
 * the console's cold load into the page's own weight and the rest.
 */
async function snapshotPage(url: string, cookie: string): Promise<string> {
  const res = await fetch(`${url}/transactions`, { headers: { cookie, accept: 'text/html' } });
  const html = await res.text();
  if (!html.includes('data-transaction-id='))
    throw new Error('/transactions was not server-rendered');
  return html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '');
}

export async function listRows(url: string): Promise<{ cookie: string; rows: ListedRow[] }> {
  const agent = keepAliveAgent(1);
  try {
    const session = await signInAsDemoAdmin(agent, url);
    const { body } = await callJson<{ results: ListedRow[] }>(agent, session, {
      method: 'GET',
      path: LIST,
    });
    const cookie = session.headers.cookie ?? '';
    return { cookie, rows: body.results };
  } finally {
    agent.destroy();
  }
}

async function kbOfBuild(dir: string, pattern: RegExp): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir, { recursive: true })) {
    if (!pattern.test(name)) continue;
    const gz = await stat(path.join(dir, `${name}.gz`)).catch(() => undefined);
    total += gz?.size ?? (await stat(path.join(dir, name))).size;
  }
  return Math.round(total / 102.4) / 10;
}

export const compareSection: BenchSection = {
  name: 'compare',
  about:
    'the console vs json-server 0.17 and a static page: cold loads in Chromium, autocannon on the list page, logging cost, RSS',
  async run({ seconds, build, progress }) {
    const work = await mkdtemp(path.join(tmpdir(), 'custody-bench-'));
    const running: Child[] = [];
    // Up for the whole run, not stopped between phases.
    const lasting: Child[] = [];
    const stopAll = async () => {
      for (const child of running.splice(0)) await child.stop();
    };
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
      // A copy of the build, so the static page can sit beside the SPA without touching dist/.
      // The server render's build goes beside it, where the server looks for it (http/server-render.ts).
      const staticDir = path.join(work, 'web');
      await cp('dist/web', staticDir, { recursive: true });
      await cp('dist/ssr', path.join(work, 'ssr'), { recursive: true });
      result.wholeAppGzipKb = await kbOfBuild(path.join(staticDir, 'assets'), /\.(js|css)$/);
      const logFile = (name: string) => path.join(work, `${name}.log`);
      const authed = (cookie: string) => ({ cookie, accept: 'application/json' });

      // 1. PGlite, request logging at info (the default).
      progress('console on PGlite, LOG_LEVEL=info…');
      const pglite = await startConsole({
        dataDir: path.join(work, 'pglite-info'),
        logLevel: 'info',
        staticDir,
        logFile: logFile('console-pglite-info'),
      });
      running.push(pglite);
      const { cookie, rows } = await listRows(pglite.url);
      if (rows.length !== 20) throw new Error(`the list page held ${rows.length} rows, not 20`);
      await writeFile(path.join(staticDir, STATIC_PAGE), staticTable(rows));
      await writeFile(path.join(staticDir, SNAPSHOT_PAGE), await snapshotPage(pglite.url, cookie));
      const dbFile = path.join(work, 'json-server-db.json');
      await writeFile(dbFile, JSON.stringify({ transactions: rows }));

      const browser = await launchChromium();
      try {
        const cookieValue = cookie.slice(`${SESSION_COOKIE}=`.length);
        const signedIn = { name: SESSION_COOKIE, value: cookieValue };
        const loads = await coldLoads({
          browser,
          targets: [
            { name: 'static HTML table of the 20 rows', url: `${pglite.url}/${STATIC_PAGE}` },
            {
              name: 'console /transactions, signed in',
              url: `${pglite.url}/transactions`,
              cookie: signedIn,
            },
            { name: 'its rendered HTML, static, no script', url: `${pglite.url}/${SNAPSHOT_PAGE}` },
          ],
          rows: 20,
          runs: COLD_RUNS,
          staticDir,
        });
        for (const load of loads) {
          result.coldLoads.push(load);
          progress(
            `  ${load.page}: median ${load.medianMs.toFixed(0)} ms (its HTML complete at ${load.htmlCompleteMs.toFixed(0)} ms), ${load.requests} requests`,
          );
        }
      } finally {
        await browser.close();
      }

      const measure = async (
        target: string,
        server: Child,
        path: string,
        conns: number,
        headers = {},
        round?: number,
      ) => {
        const row: CannonRow = {
          ...(await cannon(target, server.url + path, conns, seconds, headers, server.pid)),
          ...(round === undefined ? {} : { round }),
        };
        result.load.push(row);
        progress(
          `  ${round === undefined ? '' : `round ${round} `}${target} ${row.path} ×${conns}: ${row.rps.toFixed(0)} req/s, p99 ${row.p99Ms} ms` +
            (row.failures ? `, ${row.failures} FAILED` : ''),
        );
        return row;
      };
      // json-server with the same rows, up beside the console, each cell of one
      // followed by the same cell of the other: the ratio between them meets
      // the machine's drift once.
      progress('json-server 0.17, taking turns with the console…');
      // Kept up to the end, for the PostgreSQL cells to take turns with too.
      const json = await startJsonServer(dbFile, logFile('json-server'));
      lasting.push(json);
      for (let round = 1; round <= LOAD_ROUNDS; round += 1)
        for (const conns of [10, 50]) {
          await measure('console PGlite', pglite, LIST, conns, authed(cookie), round);
          await measure('json-server 0.17', json, '/transactions', conns, {}, round);
        }
      result.rssMb['json-server 0.17 (loaded)'] = await json.rssMb();
      // The signed-in list as a browser asks for it: rendered on the server, brotli on the wire.
      // At 50 connections too: the memory a server needs while pages are in flight together.
      for (const conns of [10, 50])
        await measure('console PGlite, page', pglite, '/transactions', conns, {
          cookie,
          accept: 'text/html',
          'accept-encoding': 'br',
        });
      result.rssMb['console PGlite (loaded)'] = await pglite.rssMb();
      await stopAll();

      // 2. What request logging costs: two fresh servers of the same build, one
      // logging each request (info) and one not (warn), with the same history,
      // up together, their cells taking turns so the machine's drift falls on
      // both alike.
      progress('consoles on PGlite, LOG_LEVEL=info and warn, taking turns…');
      const loud = await startConsole({
        dataDir: path.join(work, 'pglite-log-info'),
        logLevel: 'info',
        staticDir,
        logFile: logFile('console-pglite-log-info'),
      });
      running.push(loud);
      const quiet = await startConsole({
        dataDir: path.join(work, 'pglite-log-warn'),
        logLevel: 'warn',
        staticDir,
        logFile: logFile('console-pglite-log-warn'),
      });
      running.push(quiet);
      const loudSession = await listRows(loud.url);
      const quietSession = await listRows(quiet.url);
      for (let round = 1; round <= LOGGING_ROUNDS; round += 1) {
        for (const [cell, onHeaders, offHeaders] of [
          ['/healthz', {}, {}],
          [LIST, authed(loudSession.cookie), authed(quietSession.cookie)],
        ] as const) {
          const runOn = () => cannon('log info', loud.url + cell, 50, seconds, onHeaders, loud.pid);
          const runOff = () =>
            cannon('log warn', quiet.url + cell, 50, seconds, offHeaders, quiet.pid);
          // Which goes first alternates, so a drift within a round falls on each side as often.
          let on: CannonRow;
          let off: CannonRow;
          if (round % 2 === 1) {
            on = await runOn();
            off = await runOff();
          } else {
            off = await runOff();
            on = await runOn();
          }
          result.logging.push({ round, path: on.path, on, off });
          progress(
            `  round ${round} ${on.path}: info ${on.rps.toFixed(0)} vs warn ${off.rps.toFixed(0)} req/s`,
          );
        }
      }
      await stopAll();

      // 3. PostgreSQL.
      const postgres = await postgresForBench();
      if ('unavailable' in postgres) {
        result.unavailable.push(`console PostgreSQL: ${postgres.unavailable}`);
        progress(postgres.unavailable);
      } else {
        const scratch = await scratchPostgres(postgres.url);
        try {
          progress('console on PostgreSQL, LOG_LEVEL=info…');
          const onPg = await startConsole({
            dataDir: path.join(work, 'pg-info'),
            databaseUrl: scratch.url,
            logLevel: 'info',
            staticDir,
            logFile: logFile('console-pg-info'),
          });
          running.push(onPg);
          const pgSession = await listRows(onPg.url);
          for (let round = 1; round <= LOAD_ROUNDS; round += 1)
            for (const conns of [10, 50]) {
              const headers = authed(pgSession.cookie);
              await measure('console PostgreSQL', onPg, LIST, conns, headers, round);
              await measure(JSON_BESIDE_POSTGRES, json, '/transactions', conns, {}, round);
            }
          result.rssMb['console PostgreSQL (loaded)'] = await onPg.rssMb();
          await stopAll();
        } finally {
          await stopAll();
          await scratch.drop().catch(() => undefined);
          await postgres.stop();
        }
      }
    } finally {
      await stopAll();
      for (const child of lasting.splice(0)) await child.stop();
      await rm(work, { recursive: true, force: true });
    }
    return { text: formatCompare(result), data: result };
  },
};
