import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_PATH, quietFeatureArgs } from '../../scripts/chromium-features.ts';
import { median } from '../load.ts';

/**
 * Cold loads in headless Debian Chromium: each in a new browser context
 * (empty cache, no service worker, no open sockets), timed from navigation
 * start to the moment the page holds `rows` transaction rows — links to
 * /transactions/<id> inside a table body, in the console and the static page
 * alike — or, for a target that names its own `ready`, that many elements
 * matching its selector. The moment is taken inside the page by a
 * MutationObserver installed before any of the page's scripts, so the
 * harness's polling adds nothing. A second moment, `painted`, is the first
 * animation frame after it, once that frame's layout is done (forced inside
 * its requestAnimationFrame callback, and reused by the frame): the frame
 * that paints the rows. A render-blocked document runs no frame before the
 * block is lifted. Not a task queued after the frame, which would wait
 * behind the app's own scripts and count them as paint.
 *
 * The harness learns of that frame by a console message the page's own
 * observer writes, not by polling the page: Playwright's polling runs
 * through its injected script, whose first evaluation in a new document
 * took 10–45 ms of the page's main thread. It landed wherever the poll
 * began: after a static page had painted, but in the middle of a page
 * still arriving from the server, between its last bytes and their parsing.
 */

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface ColdLoad {
  page: string;
  runs: number;
  medianMs: number;
  /** Median of the moment the rows were laid out and painted (see above). */
  paintedMedianMs: number;
  /**
   * Medians of the document's own timing (Navigation Timing): its first byte
   * and its last. For a page rendered on the server, the gap between them is
   * the render as the browser waited for it.
   */
  htmlFirstByteMs: number;
  htmlCompleteMs: number;
  minMs: number;
  maxMs: number;
  /** Requests of the last load (document, scripts, styles, API calls). */
  requests: number;
  /** Bytes on the wire of the last load, as served (the browser asks for br). */
  transferKb: number;
  /** JS and CSS the last load fetched, and their size gzipped (the build's .gz beside each). */
  assets: string[];
  jsCssGzipKb: number;
}

declare global {
  interface Window {
    __benchRowsAt?: number;
    __benchPaintedAt?: number;
  }
}

// A string, not a function: tsx's transform would add helpers (__name) the page does not have.
export const PAINTED_MESSAGE = 'bench: first screen painted';
const ROWS_SELECTOR = 'tbody tr a[href^="/transactions/"]';
const watchRows = (selector: string, rows: number) => `(() => {
  const count = () => document.querySelectorAll(${JSON.stringify(selector)}).length;
  const observer = new MutationObserver(() => {
    if (window.__benchRowsAt === undefined && count() >= ${rows}) {
      window.__benchRowsAt = performance.now();
      observer.disconnect();
      requestAnimationFrame(() => {
        void document.body.offsetHeight;
        window.__benchPaintedAt = performance.now();
        console.debug(${JSON.stringify(PAINTED_MESSAGE)});
      });
    }
  });
  observer.observe(document, { childList: true, subtree: true });
})();`;

async function gzipSize(staticDir: string, asset: string): Promise<number> {
  const file = path.join(staticDir, asset);
  const gz = await stat(`${file}.gz`).catch(() => undefined);
  if (gz) return gz.size;
  // Too small to be worth precompressing: it travels as it is.
  return (await readFile(file)).length;
}

/** Headless Chromium, without its own omnibox popup (scripts/chromium-features.ts). */
export async function launchChromium(): Promise<Browser> {
  const features = await quietFeatureArgs(CHROMIUM_PATH, CHROMIUM_FLAGS);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS, features.arg],
    ignoreDefaultArgs: features.ignore,
  });
}

export interface ColdLoadTarget {
  name: string;
  url: string;
  cookie?: { name: string; value: string };
  /** What shows the page is ready; default `rows` transaction rows in a table body. */
  ready?: { selector: string; count: number };
}

interface OneLoad {
  ms: number;
  painted: number;
  firstByte: number;
  complete: number;
  requests: number;
  transfer: number;
  assets: string[];
}

async function loadOnce(browser: Browser, target: ColdLoadTarget, rows: number): Promise<OneLoad> {
  const context = await browser.newContext();
  try {
    if (target.cookie)
      await context.addCookies([{ ...target.cookie, url: new URL(target.url).origin }]);
    const page = await context.newPage();
    await page.addInitScript(
      watchRows(target.ready?.selector ?? ROWS_SELECTOR, target.ready?.count ?? rows),
    );
    const seen: Array<Promise<number>> = [];
    const urls: string[] = [];
    page.on('requestfinished', (request) => {
      urls.push(new URL(request.url()).pathname);
      seen.push(
        request.sizes().then(
          (s) => s.responseBodySize + s.responseHeadersSize,
          () => 0,
        ),
      );
    });
    const paintedMessage = page.waitForEvent('console', {
      predicate: (message) => message.text() === PAINTED_MESSAGE,
      timeout: 60_000,
    });
    await page.goto(target.url, { waitUntil: 'commit' });
    await paintedMessage;
    const [ms = Number.NaN, painted = Number.NaN] = await page.evaluate(() => [
      window.__benchRowsAt ?? Number.NaN,
      window.__benchPaintedAt ?? Number.NaN,
    ]);
    const [firstByte = Number.NaN, complete = Number.NaN] = await page.evaluate(() => {
      const [nav] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
      return nav ? [nav.responseStart, nav.responseEnd] : [];
    });
    // Let requests started before the rows showed finish, so the counts are whole.
    await page.waitForLoadState('networkidle');
    return {
      ms,
      painted,
      firstByte,
      complete,
      requests: urls.length,
      transfer: (await Promise.all(seen)).reduce((a, b) => a + b, 0),
      assets: urls.filter((u) => /\.(js|css)$/.test(u)),
    };
  } finally {
    await context.close();
  }
}

/**
 * `runs` cold loads of each target, interleaved: round after round, one load
 * of each in turn. On a shared machine whose load drifts over minutes, every
 * page then meets the same drift, and the ratios between them hold.
 */
export async function coldLoads(options: {
  browser: Browser;
  targets: readonly ColdLoadTarget[];
  rows: number;
  runs: number;
  staticDir: string;
}): Promise<ColdLoad[]> {
  const loads = options.targets.map(() => [] as OneLoad[]);
  for (let run = 0; run < options.runs; run += 1)
    for (const [i, target] of options.targets.entries())
      loads[i]?.push(await loadOnce(options.browser, target, options.rows));
  const kb = (n: number) => Math.round(n / 102.4) / 10;
  return Promise.all(
    options.targets.map(async (target, i) => {
      const runs = loads[i] ?? [];
      const times = runs.map((r) => r.ms);
      const last = runs.at(-1);
      const assets = last?.assets ?? [];
      const gzip = (await Promise.all(assets.map((a) => gzipSize(options.staticDir, a)))).reduce(
        (a, b) => a + b,
        0,
      );
      return {
        page: target.name,
        runs: times.length,
        medianMs: median(times),
        paintedMedianMs: median(runs.map((r) => r.painted)),
        htmlFirstByteMs: median(runs.map((r) => r.firstByte)),
        htmlCompleteMs: median(runs.map((r) => r.complete)),
        minMs: Math.min(...times),
        maxMs: Math.max(...times),
        requests: last?.requests ?? 0,
        transferKb: kb(last?.transfer ?? 0),
        assets,
        jsCssGzipKb: kb(gzip),
      };
    }),
  );
}
