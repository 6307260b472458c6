import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { approvalInbox } from '../src/contract/endpoints/approvals.ts';
import { SESSION_COOKIE } from '../src/contract/auth.ts';
import { paths } from '../src/contract/paths.ts';
import {
  coldLoads,
  launchChromium,
  type ColdLoad,
  type ColdLoadTarget,
} from './compare/cold-load.ts';
import { startBuiltConsole, type Child } from './compare/processes.ts';
import { staticTable, type ListedRow } from './compare/static-page.ts';
import { keepAliveAgent } from './load.ts';
import { table } from './report.ts';
import type { BenchSection } from './section.ts';
import { callJson, signInAsDemo } from './session.ts';

/**
 * Every signed-in page's first screen is rendered on the server
 * through one path. Cold loads in Chromium, taking turns in one run, of the
 * static HTML table of the list's 20 rows, the signed-in `/transactions`,
 * a transaction's page (`/transactions/<id>`, the newest of that list) and
 * the overview (`/`) and the approvals inbox (`/approvals`), each ready when
 * its rows are laid out and painted: the list's 20 row links, the
 * transaction's lifecycle steps, the overview's first holding by vault, the
 * inbox's rows (up to 20). JS+CSS gzip is what the page's last load fetched,
 * weighed by the build's `.gz` beside each file. Each console page's time is also given as a
 * ratio to the static page's in the same run, which is what should stay
 * alike across pages: a shared machine's load moves every page together.
 *
 * As an approver (the inbox is theirs; they read every sub-organization).
 *
 * One more load, for reference and not the target: the same static table
 * from a plain server, without the console's headers. The console's
 * `Cross-Origin-Opener-Policy: same-origin` makes Chromium put the page in
 * a browsing context group of its own, so a cold tab's first page from the
 * console, static or rendered, waits for a renderer process to start; from
 * the plain server the tab's first renderer is kept. The gap between the
 * two static rows is that start, paid by every console page alike.
 */

const RUNS = 15;
const STATIC_PAGE = 'bench-static-20.html';

interface FirstScreens {
  loadAverage: number[];
  loads: ColdLoad[];
  inboxRows: number;
}

const PLAIN_STATIC = 'static HTML table, plain server (no console headers)';

/** Serves one page as it is, with no header but its type. */
async function plainServer(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/${STATIC_PAGE}`, server };
}

export const firstScreensSection: BenchSection = {
  name: 'first-screens',
  about:
    'cold loads of /transactions, /transactions/<id>, the overview and /approvals (server-rendered) against a static page, as ratios',
  async run({ build, progress }) {
    const work = await mkdtemp(path.join(tmpdir(), 'custody-bench-first-'));
    let server: Child | undefined;
    let plain: Server | undefined;
    try {
      const started = await startBuiltConsole(work, { build, progress });
      server = started.server;
      const { staticDir } = started;
      const agent = keepAliveAgent(1);
      const approver = await signInAsDemo(agent, server.url, 'approver');
      const { body: list } = await callJson<{ results: ListedRow[] }>(agent, approver, {
        method: 'GET',
        path: `${paths.transactions()}?limit=20`,
      });
      const { body: inbox } = await callJson<{ results: unknown[] }>(agent, approver, {
        method: 'GET',
        path: `${approvalInbox.path}?limit=20`,
      });
      agent.destroy();
      const newest = list.results[0];
      if (list.results.length !== 20 || !newest)
        throw new Error(`the list page held ${list.results.length} rows, not 20`);
      if (inbox.results.length === 0) throw new Error('the seeded inbox is empty');
      const table = staticTable(list.results);
      await writeFile(path.join(staticDir, STATIC_PAGE), table);
      const plainStatic = await plainServer(table);
      plain = plainStatic.server;

      const cookie = approver.headers.cookie ?? '';
      const signedIn = { name: SESSION_COOKIE, value: cookie.slice(`${SESSION_COOKIE}=`.length) };
      const targets: ColdLoadTarget[] = [
        { name: 'static HTML table of the 20 rows', url: `${server.url}/${STATIC_PAGE}` },
        { name: '/transactions', url: `${server.url}/transactions`, cookie: signedIn },
        {
          name: '/transactions/<id>',
          url: `${server.url}/transactions/${newest.id}`,
          cookie: signedIn,
          ready: { selector: '[aria-label="Lifecycle steps"] > li', count: 1 },
        },
        {
          // The overview: its holdings by vault, the table after the headline figures and a chart.
          name: '/ (overview)',
          url: `${server.url}/`,
          cookie: signedIn,
          ready: { selector: '[aria-label="Holdings by vault table"] tbody tr', count: 1 },
        },
        {
          name: '/approvals',
          url: `${server.url}/approvals`,
          cookie: signedIn,
          ready: { selector: 'tbody tr[data-approval-id]', count: inbox.results.length },
        },
        { name: PLAIN_STATIC, url: plainStatic.url },
      ];
      const loadAverage = loadavg();
      const browser = await launchChromium();
      let loads: ColdLoad[];
      try {
        loads = await coldLoads({ browser, targets, rows: 20, runs: RUNS, staticDir });
      } finally {
        await browser.close();
      }
      for (const load of loads)
        progress(`  ${load.page}: painted at ${load.paintedMedianMs.toFixed(0)} ms (median)`);
      const result: FirstScreens = { loadAverage, loads, inboxRows: inbox.results.length };
      return { text: format(result), data: result };
    } finally {
      plain?.close();
      await server?.stop();
      await rm(work, { recursive: true, force: true });
    }
  },
};

const TARGET_RATIO = 2;
const TARGET_REQUESTS = 10;

/** Each console page against the target: painted within 2× the static table, in 10 requests. */
function targetLine(base: ColdLoad, pages: readonly ColdLoad[]): string {
  const ratio = (load: ColdLoad) => load.paintedMedianMs / base.paintedMedianMs;
  const worst = pages.reduce<ColdLoad | undefined>(
    (w, load) => (!w || ratio(load) > ratio(w) ? load : w),
    undefined,
  );
  const met = pages.every(
    (load) => ratio(load) <= TARGET_RATIO && load.requests <= TARGET_REQUESTS,
  );
  return (
    `Target: every page painted within ${TARGET_RATIO}× the static table, in at most ${TARGET_REQUESTS} requests: ` +
    `${met ? 'met' : 'NOT met'}${worst ? ` (slowest ${worst.page}, ${ratio(worst).toFixed(2)}×)` : ''}`
  );
}

function format({ loadAverage, loads, inboxRows }: FirstScreens): string {
  const base = loads[0];
  const plain = loads.find((load) => load.page === PLAIN_STATIC);
  const ratio = (ms: number, of: number | undefined) => (of ? `${(ms / of).toFixed(2)}×` : '–');
  const rows = loads.map((load) => [
    load.page,
    `${load.paintedMedianMs.toFixed(0)} ms`,
    ratio(load.paintedMedianMs, base?.paintedMedianMs),
    `${load.medianMs.toFixed(0)} ms`,
    ratio(load.medianMs, base?.medianMs),
    `${load.htmlFirstByteMs.toFixed(0)} / ${load.htmlCompleteMs.toFixed(0)} ms`,
    String(load.requests),
    `${load.transferKb} KB`,
    `${load.jsCssGzipKb} KB`,
  ]);
  return [
    `${RUNS} cold loads of each, taking turns; load average at the start ${loadAverage.map((n) => n.toFixed(2)).join(', ')}; the inbox held ${inboxRows} rows.`,
    table(
      [
        'page',
        'painted (median)',
        '× static',
        'rows parsed (median)',
        '× static',
        'HTML first / last byte',
        'requests',
        'transfer',
        'JS+CSS gzip',
      ],
      rows,
    ),
    ...(base
      ? [
          targetLine(
            base,
            loads.slice(1).filter((load) => load !== plain),
          ),
        ]
      : []),
    ...(plain && base
      ? [
          `For reference, not the target: the static table without the console's headers painted at ${plain.paintedMedianMs.toFixed(0)} ms, ${(base.paintedMedianMs - plain.paintedMedianMs).toFixed(0)} ms sooner than from the console: the renderer process its opener policy has Chromium start for a cold tab's first page, which every console page waits for too.`,
        ]
      : []),
  ].join('\n');
}
