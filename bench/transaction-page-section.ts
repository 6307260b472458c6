import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { DEMO_STAFF } from '../src/server/auth/staff-demo.ts';
import { seedSandbox } from '../src/server/custody/sandbox/seed.ts';
import { ALL_TRACKS, openDatabase } from '../src/server/db/client.ts';
// The same API setup the browser tests use: a transfer between two seeded
// ETH vaults, and an approval by another member.
import { approveByApi, createTransfer } from '../e2e/transfers.ts';
import { launchChromium } from './compare/cold-load.ts';
import { startConsole } from './compare/processes.ts';
import { insertBenchTransactions } from './million-rows.ts';
import type { BenchSection } from './section.ts';

/**
 * A transaction's page followed to the end, in Debian's Chromium against the built console
 * (sandbox, SANDBOX_TIME_SCALE 60: a lifecycle takes about ten seconds,
 * long enough for several polls):
 *
 * - the requests a transaction's detail page makes for that transaction
 *   over one whole lifecycle (approval to COMPLETED, then a quiet window),
 *   with the tab visible and with it hidden, and the share answered 304;
 * - a CSV export of 10,000 transactions from the list page: seconds from the
 *   click to the file, and the tab's JS heap at its peak (CDP
 *   Performance.getMetrics, sampled every 100 ms) against where it started.
 *
 * "Hidden" is what the browser tells a page whose tab is in the background:
 * document.visibilityState 'hidden' and a visibilitychange event. Headless
 * Chromium keeps every tab visible, so the page is told so directly.
 */

const TIME_SCALE = '60';
/** How long the transaction waits for its approval with the page open: unchanged polls, answered 304. */
const PENDING_WAIT_MS = 15_000;
const EXPORT_ROWS = 10_000;
// The bulk rows sit before the seeded history (which covers the last 60 days), so a
// createdAtLte filter selects exactly them.
const BULK_NEWEST = '2020-01-01T00:00:00.000Z';
const BULK_CUTOFF = '2020-01-01T00:00:01.000Z';
/** How long the page is watched once the transaction is terminal: it should ask nothing more. */
const QUIET_WINDOW_MS = 20_000;
const TERMINAL = new Set(['COMPLETED', 'FAILED', 'DECLINED']);

type Role = 'viewer' | 'initiator' | 'approver';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function memberPage(browser: Browser, baseUrl: string, role: Role): Promise<Page> {
  const demo = DEMO_STAFF.find((d) => d.role === role);
  if (!demo) throw new Error(`no demo ${role}`);
  const context = await browser.newContext({ baseURL: baseUrl, acceptDownloads: true });
  const page = await context.newPage();
  const res = await page.request.post('/auth/login', {
    data: { email: demo.email, password: demo.password },
    headers: { Origin: baseUrl },
  });
  if (res.status() !== 200) throw new Error(`sign-in as ${role}: ${res.status()}`);
  return page;
}

async function waitTerminal(page: Page, id: string): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const tx = (await (await page.request.get(`/api/external/transactions/${id}/`)).json()) as {
      status: string;
    };
    if (TERMINAL.has(tx.status)) return tx.status;
    await sleep(250);
  }
  throw new Error(`transaction ${id} did not finish`);
}

/** What the browser does when the tab goes to the background or comes back. */
async function setHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate(`(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => ${hidden ? "'hidden'" : "'visible'"} });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => ${hidden} });
    document.dispatchEvent(new Event('visibilitychange'));
  })()`);
}

export interface LifecycleFigures {
  tab: 'visible' | 'hidden';
  /** From the approval to the terminal status, as the API reports it (the page was open PENDING_WAIT_MS before). */
  lifecycleSeconds: number;
  finalStatus: string;
  /** Requests for it from the page being open (and hidden, for that run) until terminal: the pending wait and the lifecycle. */
  duringLifecycle: number;
  /** Requests in the quiet window after the page showed the terminal status. */
  afterTerminal: number;
  /** Every request the page made for it, from opening to the end of the quiet window. */
  total: number;
  answered304: number;
  share304: number;
  /** Shortest gap between two polls (the goal: never under the ~2 s first interval). */
  minGapSeconds: number | null;
}

async function followLifecycle(
  browser: Browser,
  baseUrl: string,
  tab: 'visible' | 'hidden',
): Promise<LifecycleFigures> {
  const initiator = await memberPage(browser, baseUrl, 'initiator');
  const approver = await memberPage(browser, baseUrl, 'approver');
  const watcher = await memberPage(browser, baseUrl, 'viewer');
  try {
    const id = await createTransfer(initiator, baseUrl);
    const hits: Array<{ at: number; status: number }> = [];
    const detailPath = `/api/external/transactions/${id}/`;
    watcher.on('response', (res) => {
      if (new URL(res.url()).pathname === detailPath)
        hits.push({ at: Date.now(), status: res.status() });
    });
    await watcher.goto(`/transactions/${id}`);
    await watcher.locator('[data-step="PENDING"][data-state="current"]').waitFor();
    if (tab === 'hidden') await setHidden(watcher, true);
    const openedAt = Date.now();
    await sleep(PENDING_WAIT_MS);

    const approvedAt = Date.now();
    await approveByApi(approver, baseUrl, id);
    const finalStatus = await waitTerminal(approver, id);
    const terminalAt = Date.now();
    const duringLifecycle = hits.filter((h) => h.at >= openedAt && h.at <= terminalAt).length;

    if (tab === 'hidden') {
      // Still hidden a while after the end: nothing; then shown, it catches up once.
      await sleep(QUIET_WINDOW_MS / 2);
      await setHidden(watcher, false);
    }
    await watcher
      .locator(`[data-step="${finalStatus}"]`)
      .and(watcher.locator('[data-state="current"], [data-state="failed"]'))
      .waitFor({ timeout: 60_000 });
    const shownAt = Date.now();
    await sleep(QUIET_WINDOW_MS);
    const afterTerminal = hits.filter((h) => h.at > shownAt).length;

    const gaps = hits.slice(1).map((h, i) => h.at - (hits[i]?.at ?? h.at));
    const answered304 = hits.filter((h) => h.status === 304).length;
    return {
      tab,
      lifecycleSeconds: (terminalAt - approvedAt) / 1000,
      finalStatus,
      duringLifecycle,
      afterTerminal,
      total: hits.length,
      answered304,
      share304: hits.length ? answered304 / hits.length : 0,
      minGapSeconds: gaps.length ? Math.min(...gaps) / 1000 : null,
    };
  } finally {
    for (const page of [initiator, approver, watcher]) await page.context().close();
  }
}

export interface ExportFigures {
  rows: number;
  seconds: number;
  heapBeforeMb: number;
  heapPeakMb: number;
  fileMb: number;
}

async function exportCsv(browser: Browser, baseUrl: string): Promise<ExportFigures> {
  const page = await memberPage(browser, baseUrl, 'viewer');
  try {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const heap = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
    };
    await page.goto(`/transactions?createdAtLte=${encodeURIComponent(BULK_CUTOFF)}`);
    const button = page.getByRole('button', { name: 'Export CSV' });
    await button.waitFor();
    await page.locator('tbody tr').first().waitFor();
    await cdp.send('HeapProfiler.collectGarbage');
    const before = await heap();
    let peak = before;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await heap());
        await sleep(100);
      }
    })();
    const started = performance.now();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 600_000 }),
      button.click(),
    ]);
    const file = await download.path();
    const seconds = (performance.now() - started) / 1000;
    sampling = false;
    await sampler;
    const text = await readFile(file, 'utf8');
    const rows = text.split('\n').filter((line) => line !== '').length - 1;
    return {
      rows,
      seconds,
      heapBeforeMb: before / 2 ** 20,
      heapPeakMb: peak / 2 ** 20,
      fileMb: Buffer.byteLength(text) / 2 ** 20,
    };
  } finally {
    await page.context().close();
  }
}

/** A seeded sandbox plus EXPORT_ROWS completed transfers from before the seed's history. */
async function prepareData(dataDir: string): Promise<void> {
  const database = await openDatabase({ dataDir, databaseUrl: undefined });
  try {
    await database.migrate([...ALL_TRACKS]);
    await seedSandbox(database.db, { now: new Date() });
    await insertBenchTransactions(database.db, {
      count: EXPORT_ROWS,
      batchSize: 5_000,
      newestAt: BULK_NEWEST,
      spacingMs: 60_000,
    });
  } finally {
    await database.close();
  }
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

export const transactionPageSection: BenchSection = {
  name: 'transaction-page',
  about:
    'detail-page requests over one lifecycle (tab visible / hidden, share of 304) and a 10,000-row CSV export (seconds, tab heap) in Chromium',
  async run({ build, progress }) {
    if (build) {
      progress('building (npm run build)…');
      execFileSync('npm', ['run', '-s', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
    }
    const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-transaction-page-'));
    progress(`seeding and adding ${EXPORT_ROWS} transactions in ${dataDir}…`);
    await prepareData(dataDir);
    const server = await startConsole({
      dataDir,
      logLevel: 'warn',
      staticDir: path.resolve('dist/web'),
      logFile: path.join(dataDir, 'console.log'),
      env: { SANDBOX_TIME_SCALE: TIME_SCALE },
    });
    const browser = await launchChromium();
    try {
      progress('following a lifecycle with the tab visible…');
      const visible = await followLifecycle(browser, server.url, 'visible');
      progress('following a lifecycle with the tab hidden…');
      const hidden = await followLifecycle(browser, server.url, 'hidden');
      progress(`exporting ${EXPORT_ROWS} transactions to CSV…`);
      const csv = await exportCsv(browser, server.url);

      const line = (f: LifecycleFigures) =>
        `  tab ${f.tab.padEnd(7)} lifecycle ${fmt(f.lifecycleSeconds)} s → ${f.finalStatus}: ` +
        `${f.duringLifecycle} requests during it, ${f.afterTerminal} in the ${QUIET_WINDOW_MS / 1000} s after, ` +
        `${f.total} in all, ${f.answered304} answered 304 (${fmt(f.share304 * 100, 0)}%), ` +
        `shortest gap ${f.minGapSeconds === null ? '—' : `${fmt(f.minGapSeconds)} s`}`;
      const text = [
        `Detail page of one transaction: ${PENDING_WAIT_MS / 1000} s pending, then approval to terminal (SANDBOX_TIME_SCALE ${TIME_SCALE}):`,
        line(visible),
        line(hidden),
        '  goal: at most one request per poll interval, none while hidden, none after terminal',
        `CSV export of ${csv.rows} transactions: ${fmt(csv.seconds)} s, ` +
          `tab JS heap ${fmt(csv.heapBeforeMb)} MB before → ${fmt(csv.heapPeakMb)} MB at peak, ` +
          `file ${fmt(csv.fileMb)} MB`,
      ].join('\n');
      return { text, data: { timeScale: Number(TIME_SCALE), visible, hidden, csv } };
    } finally {
      await browser.close();
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
};
