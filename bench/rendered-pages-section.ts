import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathOf, toQueryString } from '../src/contract/endpoint.ts';
import { overview } from '../src/contract/endpoints/overview.ts';
import { cannon, type CannonRow } from './compare/load.ts';
import { startBuiltConsole, type Child } from './compare/processes.ts';
import { keepAliveAgent } from './load.ts';
import { table } from './report.ts';
import type { BenchSection } from './section.ts';
import { signInAsDemo } from './session.ts';

/**
 * Pages a second as a browser asks for them, signed in, at 10 connections
 * (autocannon, after its warm-up second): the rendered `/transactions` and
 * the rendered overview (`/`), HTML, brotli on the wire, and the overview's
 * API read (`GET /api/console/overview/`, JSON) alone. One built console on
 * a fresh seeded PGlite, as the approver (every sub-organization, and the
 * inbox is theirs, so the overview reads what waits on them too).
 *
 * RENDERED_PAGES_NODE_ARGS adds node flags to the console, e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where a page's time goes
 * (the profile is written when the bench stops the server).
 */

const CONNECTIONS = 10;
const ROUNDS = 2;
/** The overview's API read as the page asks for it (the member's zone). */
const OVERVIEW_API = `${pathOf(overview)}${toQueryString({ timeZone: 'Europe/Berlin' })}`;

interface RenderedPages {
  loadAverage: { start: number[]; end: number[] };
  rows: CannonRow[];
}

export const renderedPagesSection: BenchSection = {
  name: 'rendered-pages',
  about:
    'pages a second at 10 connections, signed in, brotli: the rendered /transactions and overview, and the overview API read',
  async run({ build, progress, seconds }) {
    const work = await mkdtemp(path.join(tmpdir(), 'custody-bench-rendered-'));
    let server: Child | undefined;
    try {
      const nodeArgs = process.env.RENDERED_PAGES_NODE_ARGS?.split(/\s+/).filter(Boolean);
      server = (await startBuiltConsole(work, { build, progress, nodeArgs })).server;
      const approver = await signInAsDemo(keepAliveAgent(1), server.url, 'approver');
      const cookie = approver.headers.cookie ?? '';
      const start = loadavg();
      const rows: CannonRow[] = [];
      const cells: Array<[string, string, Record<string, string>]> = [
        ['/transactions, rendered', '/transactions', { accept: 'text/html' }],
        ['/ (overview), rendered', '/', { accept: 'text/html' }],
        ['overview API read', OVERVIEW_API, { accept: 'application/json' }],
      ];
      // A server just started is still catching up (its simulator, its caches): every cell
      // runs in each of ROUNDS rounds, and the last round is the figure.
      for (let round = 1; round <= ROUNDS; round += 1)
        for (const [target, cellPath, headers] of cells) {
          const row = await cannon(
            target,
            server.url + cellPath,
            CONNECTIONS,
            seconds,
            { ...headers, cookie, 'accept-encoding': 'br' },
            server.pid,
          );
          rows.push({ ...row, round });
          progress(
            `  round ${round} ${target} ×${CONNECTIONS}: ${row.rps.toFixed(0)}/s, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms` +
              (row.failures ? `, ${row.failures} FAILED` : ''),
          );
        }
      const result: RenderedPages = { loadAverage: { start, end: loadavg() }, rows };
      return { text: format(result), data: result };
    } finally {
      await server?.stop();
      await rm(work, { recursive: true, force: true });
    }
  },
};

function format({ loadAverage, rows }: RenderedPages): string {
  const load = (l: number[]) => l.map((n) => n.toFixed(2)).join(', ');
  return [
    `${CONNECTIONS} connections each, signed in as the approver, brotli; load average ${load(loadAverage.start)} at the start, ${load(loadAverage.end)} at the end.`,
    table(
      ['round', 'cell', 'per second', 'p50', 'p99', 'server CPU / answer', 'failures'],
      rows.map((r) => [
        String(r.round ?? ''),
        r.target,
        r.rps.toFixed(0),
        `${r.p50Ms} ms`,
        `${r.p99Ms} ms`,
        r.cpuMsPerRequest === undefined ? '–' : `${r.cpuMsPerRequest.toFixed(2)} ms`,
        String(r.failures),
      ]),
    ),
    `Target: the rendered /transactions at ≥ 150 pages a second (round ${ROUNDS}, once the server has settled).`,
  ].join('\n');
}
