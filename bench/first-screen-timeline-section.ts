import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { SESSION_COOKIE } from '../src/contract/auth.ts';
import { paths } from '../src/contract/paths.ts';
import { launchChromium, PAINTED_MESSAGE } from './compare/cold-load.ts';
import { startBuiltConsole, type Child } from './compare/processes.ts';
import { staticTable, type ListedRow } from './compare/static-page.ts';
import { keepAliveAgent } from './load.ts';
import { table } from './report.ts';
import type { BenchSection } from './section.ts';
import { callJson, signInAsDemo } from './session.ts';

/**
 * Where a cold load's time goes in the browser, from Chromium's own
 * timeline (the DevTools trace's `devtools.timeline` events, the same a
 * Performance panel recording shows): HTML parsing, script (compile and
 * run), style, layout and paint, summed over the main thread from
 * navigation to the page's first screen painted, median of a few cold
 * loads each. The static table of the same 20 rows is the yardstick, as in
 * `first-screens`.
 */

const RUNS = 5;
const STATIC_PAGE = 'bench-static-20.html';

interface Target {
  name: string;
  url: string;
  signedIn: boolean;
  ready: string;
}

/** Trace event names, grouped into what a reader of a profile calls them. */
const KINDS: Record<string, string> = {
  ParseHTML: 'parse HTML',
  ParseAuthorStyleSheet: 'parse CSS',
  'v8.compile': 'script',
  'v8.compileModule': 'script',
  'v8.produceModuleCache': 'script',
  EvaluateScript: 'script',
  'v8.evaluateModule': 'script',
  FunctionCall: 'script',
  TimerFire: 'script',
  EventDispatch: 'script',
  FireAnimationFrame: 'script',
  RunMicrotasks: 'script',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
};
const COLUMNS = ['parse HTML', 'parse CSS', 'script', 'style', 'layout', 'paint'] as const;

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
}

interface OneTimeline {
  painted: number;
  /** Milliseconds of main-thread work per kind, up to the first screen painted. */
  kinds: Record<string, number>;
}

async function loadOnce(
  browser: Browser,
  target: Target,
  cookie: { name: string; value: string },
): Promise<OneTimeline | undefined> {
  const context = await browser.newContext();
  try {
    if (target.signedIn) await context.addCookies([{ ...cookie, url: new URL(target.url).origin }]);
    const page = await context.newPage();
    await page.addInitScript(`(() => {
      const observer = new MutationObserver(() => {
        if (window.__benchPaintedAt === undefined && document.querySelector(${JSON.stringify(target.ready)})) {
          observer.disconnect();
          window.__benchPaintedAt = 0;
          requestAnimationFrame(() => { void document.body.offsetHeight; window.__benchPaintedAt = performance.now(); performance.mark('bench-painted'); console.debug(${JSON.stringify(PAINTED_MESSAGE)}); });
        }
      });
      observer.observe(document, { childList: true, subtree: true });
    })();`);
    await browser.startTracing(page, {
      categories: ['devtools.timeline', 'v8', 'blink.user_timing'],
    });
    // Told by the page, not polled: see cold-load.ts.
    const paintedMessage = page.waitForEvent('console', {
      predicate: (message) => message.text() === PAINTED_MESSAGE,
      timeout: 60_000,
    });
    await page.goto(target.url, { waitUntil: 'commit' });
    await paintedMessage;
    const painted = await page.evaluate(
      () => (window as { __benchPaintedAt?: number }).__benchPaintedAt ?? Number.NaN,
    );
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as {
      traceEvents: TraceEvent[];
    };
    // The page's main thread and the moment its first screen was painted, on the trace's own
    // clock: the user-timing mark made in that frame (a navigation may change renderer process).
    const mark = trace.traceEvents.find((e) => e.name === 'bench-painted');
    // Now and then (a loaded machine) the trace comes back without it: that load is not counted.
    if (!mark) return undefined;
    const until = mark.ts;
    const kinds: Record<string, number> = {};
    // Self time: a slice nested in another (a layout forced inside a script's call) counts for
    // its own kind, and is taken off the slice around it.
    const open: Array<{ end: number; kind: string }> = [];
    const events = trace.traceEvents
      .filter((e) => e.ph === 'X' && e.tid === mark.tid && e.pid === mark.pid && KINDS[e.name])
      .sort((a, b) => a.ts - b.ts);
    for (const e of events) {
      if (e.ts > until) break;
      while (open.length && (open.at(-1)?.end ?? 0) <= e.ts) open.pop();
      const end = e.ts + (e.dur ?? 0);
      const kind = KINDS[e.name] ?? 'other';
      const ms = (Math.min(end, until) - e.ts) / 1000;
      kinds[kind] = (kinds[kind] ?? 0) + ms;
      const around = open.at(-1);
      if (around) kinds[around.kind] = (kinds[around.kind] ?? 0) - ms;
      open.push({ end, kind });
    }
    return { painted, kinds };
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};

export const firstScreenTimelineSection: BenchSection = {
  name: 'first-screen-timeline',
  about:
    'where a cold load’s browser time goes (parse, script, style, layout, paint) on /transactions, a transaction and the overview',
  async run({ build, progress }) {
    const work = await mkdtemp(path.join(tmpdir(), 'custody-bench-timeline-'));
    let server: Child | undefined;
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
      agent.destroy();
      const newest = list.results[0];
      if (!newest) throw new Error('the list is empty');
      await writeFile(path.join(staticDir, STATIC_PAGE), staticTable(list.results));
      const header = approver.headers.cookie ?? '';
      const cookie = { name: SESSION_COOKIE, value: header.slice(`${SESSION_COOKIE}=`.length) };
      const rows = 'tbody tr:nth-child(20) a[href^="/transactions/"]';
      const targets: Target[] = [
        { name: 'static table', url: `${server.url}/${STATIC_PAGE}`, signedIn: false, ready: rows },
        { name: '/transactions', url: `${server.url}/transactions`, signedIn: true, ready: rows },
        {
          name: '/transactions/<id>',
          url: `${server.url}/transactions/${newest.id}`,
          signedIn: true,
          ready: '[aria-label="Lifecycle steps"] > li',
        },
        {
          name: '/ (overview)',
          url: `${server.url}/`,
          signedIn: true,
          ready: '[aria-label="Holdings by vault table"] tbody tr',
        },
      ];
      const loadAverage = loadavg();
      const browser = await launchChromium();
      const runs = targets.map(() => [] as OneTimeline[]);
      try {
        for (let run = 0; run < RUNS; run += 1)
          for (const [i, target] of targets.entries()) {
            const load = await loadOnce(browser, target, cookie);
            if (load) runs[i]?.push(load);
            else progress(`  ${target.name}: a load's trace had no first-screen mark, not counted`);
          }
      } finally {
        await browser.close();
      }
      const data = targets.map((target, i) => {
        const loads = runs[i] ?? [];
        return {
          page: target.name,
          loads: loads.length,
          painted: median(loads.map((l) => l.painted)),
          kinds: Object.fromEntries(
            COLUMNS.map((k) => [k, median(loads.map((l) => l.kinds[k] ?? 0))]),
          ),
        };
      });
      const text = [
        `${RUNS} cold loads of each, taking turns; main-thread milliseconds from navigation to the first screen painted (medians); load average at the start ${loadAverage.map((n) => n.toFixed(2)).join(', ')}.`,
        table(
          ['page', 'loads', 'painted', ...COLUMNS, 'busy', 'idle or waiting'],
          data.map((d) => {
            const busy = COLUMNS.reduce((a, k) => a + (d.kinds[k] ?? 0), 0);
            return [
              d.page,
              String(d.loads),
              `${d.painted.toFixed(0)} ms`,
              ...COLUMNS.map((k) => (d.kinds[k] ?? 0).toFixed(0)),
              busy.toFixed(0),
              Math.max(0, d.painted - busy).toFixed(0),
            ];
          }),
        ),
      ].join('\n');
      return { text, data: { loadAverage, pages: data } };
    } finally {
      await server?.stop();
      await rm(work, { recursive: true, force: true });
    }
  },
};
