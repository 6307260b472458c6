import { readFileSync } from 'node:fs';
import type { Page, Request } from '@playwright/test';
import { expect, test } from './auth.ts';
import { expectHydrated } from './keyboard.ts';
import { expectNoAxeViolations } from './axe.ts';
import { createTransfer, memberPage } from './transfers.ts';

// The seed's history is read here (pages of it, weeks old, of every status): only the seed has
// so much, and no story adds to the old end, so the story reads it as an admin of the whole
// organization; the worker's other members see only their own sub-organization.
test.use({ role: 'orgAdmin' });

/**
 * How the console's first screen loads, as the browser's network log shows it.
 *
 * Every signed-in page is rendered on the server (here /transactions, a
 * transaction's page and the approvals inbox; every page's hydration in
 * server-rendered-pages.spec.ts) (ARCHITECTURE.md, "Server-rendered
 * first screen"): its rows arrive in the HTML, and the browser takes the page
 * over without asking for the session or the list again and without a
 * hydration error. The home page (`/`, the overview) is rendered too; a page
 * left to the browser (none, with the render build) would name the session
 * and the list for preload instead (http/data-preload.test.ts). Reference data (vaults,
 * assets, sub-organizations) is asked for at most once. Order is proven by
 * holding answers back until the other request is seen, never by timing.
 */

const apiPath = (request: Request) => new URL(request.url()).pathname;
const LIST = '/api/external/transactions/?limit=20';

// What these stories count is the server render taken over without a second
// read. A tab's event stream would add reads of its own whenever another spec
// changes a transaction meanwhile (a change refetches the lists on screen):
// right for the product, noise here. Its own stories are live-updates.spec.ts.
test.beforeEach(async ({ context }) => {
  await context.addInitScript(() => {
    Reflect.deleteProperty(window, 'EventSource');
  });
});

/** Every API and auth request the page makes, by path and query, counted. */
function countRequests(page: Page): Map<string, number> {
  const asked = new Map<string, number>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/auth/'))
      asked.set(url.pathname + url.search, (asked.get(url.pathname + url.search) ?? 0) + 1);
  });
  return asked;
}

test('the rows arrive with the HTML, timestamped in the member’s zone, and the browser takes them over without asking again', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  const asked = countRequests(page);

  const response = await page.goto('/transactions');
  const html = (await response?.text()) ?? '';
  // Twenty transactions before any script has run.
  expect(html.match(/<tr [^>]*data-transaction-id="[^"]+"/g)?.length).toBe(20);
  expect(html).not.toContain('rel="preload" as="fetch"');

  const table = page.getByRole('table', { name: 'Transactions' });
  await expect(table.locator('tbody tr')).toHaveCount(20);
  // Live once the browser has taken the page over: the controls were held
  // disabled until then, so nothing chosen before is lost.
  const next = page.getByRole('button', { name: 'Next page' });
  await expect(next).toBeEnabled();
  await expectHydrated(page);
  expect(asked.get('/auth/session') ?? 0).toBe(0);
  expect(asked.get(LIST) ?? 0).toBe(0);
  expect(problems).toEqual([]);

  // Timestamps are in the member's zone, labelled, from the first byte, and the app keeps them
  // as they are. Signed in by the API, this member's browser named no zone: UTC, said so.
  const shown = await table.locator('tbody time').allTextContents();
  expect(shown.length).toBeGreaterThan(0);
  for (const text of shown) {
    expect(text).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2}:\d{2} UTC$/);
    expect(html).toContain(`>${text}</time>`);
  }

  // The taken-over page pages on, in the browser, with the rendered session.
  await next.click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(table.locator('tbody tr').first()).toBeVisible();
  expect(problems).toEqual([]);
});

test.describe('signing out', () => {
  // A session of its own: the one the worker's other stories reuse is not signed out.
  test.use({ freshSession: true });

  test('a server-rendered page signs out: its session and CSRF token came with the HTML', async ({
    page,
  }) => {
    await page.goto('/transactions');
    const signOut = page.getByRole('button', { name: 'Sign out' });
    await expect(signOut).toBeEnabled();
    await signOut.click();
    await expect(page).toHaveURL(/\/login/);
    // Signed out for the server too: the list is no longer rendered for this browser.
    const again = await page.request.get('/transactions', { headers: { Accept: 'text/html' } });
    expect(await again.text()).not.toContain('console-server-state');
  });
});

test('the page is sent head first, its app after the rows, and its date filters become date pickers', async ({
  page,
}) => {
  // The URL holds the day, read in the member's zone (lib/list-search.ts).
  const response = await page.goto('/transactions?createdAtGte=2026-01-02');
  const html = (await response?.text()) ?? '';
  const head = html.slice(0, html.indexOf('</head>'));
  // Painted once the results are parsed, not header-first (http/server-render.ts).
  expect(head).toContain('<link rel="expect" href="#transactions-results" blocking="render" />');
  expect(head).not.toContain('<script');
  // Started after the first screen is painted by the one inline script, after the state.
  expect(html).not.toContain('<script type="module"');
  expect(html.indexOf('<script>')).toBeGreaterThan(html.indexOf('console-server-state'));
  // A plain field holding the day until the app runs, then the browser's date field.
  expect(html).toMatch(
    /<input[^>]*type="text"[^>]*placeholder="YYYY-MM-DD"[^>]*value="2026-01-02"/,
  );
  const from = page.getByLabel('From', { exact: true });
  await expect(from).toHaveAttribute('type', 'date');
  await expect(from).toBeEnabled();
  await expect(from).toHaveValue('2026-01-02');
  await expectNoAxeViolations(page);
});

test('the home page arrives rendered: the overview in the first HTML, and the browser asks for neither the session nor its figures again', async ({
  page,
}) => {
  const asked = countRequests(page);
  const response = await page.goto('/');
  const html = (await response?.text()) ?? '';
  expect(html).toContain('<link rel="expect" href="#overview-page" blocking="render" />');
  expect(html).toContain('data-testid="total-usd"');
  expect(html).toContain('console-server-state');
  expect(html).not.toContain('rel="preload" as="fetch"');
  await expect(page.getByTestId('total-usd')).toBeVisible();
  await expectHydrated(page);
  expect(asked.get('/auth/session') ?? 0).toBe(0);
  expect([...asked.keys()].filter((url) => url.startsWith('/api/console/overview/'))).toEqual([]);
});

test('a signed-out visitor gets neither rows nor data preloads, and the home page sends them to sign in: no blank page, no refused reads', async ({
  page,
}) => {
  await page.context().clearCookies();
  // The refused reads counted are the home page's: a request the list's visit made is not.
  const before = new Set<Request>();
  let home = false;
  page.on('request', (request) => {
    if (!home) before.add(request);
  });
  const refused: string[] = [];
  page.on('response', (res) => {
    if (res.status() === 401 && !before.has(res.request()))
      refused.push(new URL(res.url()).pathname);
  });
  const list = await page.goto('/transactions');
  const listHtml = (await list?.text()) ?? '';
  expect(listHtml).not.toContain('rel="preload" as="fetch"');
  expect(listHtml).not.toContain('console-server-state');
  await expect(page).toHaveURL(/\/login/);

  home = true;
  const response = await page.goto('/');
  // The first document the browser shows is already the sign-in page's.
  expect(response?.url()).toMatch(/\/login$/);
  expect(response?.request().redirectedFrom()?.url()).toMatch(/\/$/);
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  // Taken over by the browser: the demo accounts are the page's own read, shown once answered.
  await expect(page.getByRole('heading', { name: 'Demo accounts', level: 2 })).toBeVisible();
  expect(refused).toEqual([]);
});

for (const start of ['/', '/transactions']) {
  test(`vaults, assets and sub-organizations are fetched at most once across pages, from ${start}`, async ({
    page,
  }) => {
    const asked = new Map<string, number>();
    page.on('request', (request) => {
      const path = apiPath(request);
      if (/^\/api\/external\/(vaults|assets|sub_orgs)\/$/.test(path))
        asked.set(path, (asked.get(path) ?? 0) + 1);
    });

    await page.goto(start);
    const rows = page.getByRole('table', { name: 'Transactions' }).locator('tbody tr');
    const nav = page.getByRole('navigation', { name: 'Main' });
    if (start === '/') {
      // The overview first, then its way to the list.
      await expect(page.getByTestId('total-usd')).toBeVisible();
      await expectHydrated(page);
      await nav.getByRole('link', { name: 'Transactions' }).click();
    }
    await expect(rows.first()).toBeVisible();
    await expectHydrated(page);

    await nav.getByRole('link', { name: 'Bank accounts' }).click();
    await expect(page.getByRole('heading', { name: 'Bank accounts', level: 1 })).toBeVisible();
    await nav.getByRole('link', { name: 'Transactions' }).click();
    await expect(rows.first()).toBeVisible();
    // A transaction's page and back to the list.
    await rows.first().getByRole('link').first().click();
    await expect(page).toHaveURL(/\/transactions\/[^/]+$/);
    await page.goBack();
    await expect(rows.first()).toBeVisible();
    await expectHydrated(page);

    // From `/` the list's vaults and assets are asked for once, when the list opens; the
    // sub-organizations came with the overview, as everything came with the server-rendered list.
    for (const path of [
      '/api/external/vaults/',
      '/api/external/assets/',
      '/api/external/sub_orgs/',
    ])
      expect(asked.get(path) ?? 0).toBeLessThanOrEqual(1);
    if (start === '/')
      expect(Object.fromEntries(asked)).toEqual({
        '/api/external/vaults/': 1,
        '/api/external/assets/': 1,
      });
  });
}

/** Console errors and uncaught errors: a hydration mismatch is reported as one. */
function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

/** The build's manifest (vite.config.ts, build.manifest): which file each module compiled to. */
interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}
function readManifest(): Record<string, ManifestChunk> {
  const file = new URL('../dist/web/.vite/manifest.json', import.meta.url);
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
}

/** Files of `keys` and of every chunk they import statically, transitively. */
function staticGraph(manifest: Record<string, ManifestChunk>, keys: string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  keys.forEach(visit);
  return files;
}

test("a transaction's page arrives with its facts, its timeline and its route's whole module graph, and the browser asks for none of them again", async ({
  members,
  page,
  baseURL,
}) => {
  const memo = `first screen ${Date.now()}`;
  const id = await createTransfer(page, baseURL ?? '', { memo });
  const detail = `/api/external/transactions/${id}/`;
  const history = `/api/console/transactions/${id}/history/`;

  // The HTML alone, as the member's browser is sent it: the page before any script.
  const first = await page.request.get(`/transactions/${id}`, { headers: { Accept: 'text/html' } });
  const html = await first.text();
  const root = html.slice(html.indexOf('<div id="root">'), html.indexOf('console-server-state'));
  expect(root).toContain(memo);
  expect(root).toContain('Status timeline');
  expect(root).toMatch(/aria-label="Lifecycle steps"/);
  // Who created it, named in the first HTML (its history came with the page).
  expect(root).toContain(members.admin.name);
  expect(root).not.toContain('Looking up…');
  expect(html).toContain('<link rel="expect" href="#transaction-page" blocking="render" />');

  // Every module the page runs is named at once, none waits for a second or third wave, and
  // nothing the route imports only on demand (import()) is named.
  const manifest = readManifest();
  const route = 'src/web/routes/_authenticated/transactions_.$transactionId.tsx?tsr-split=';
  // Its component and loader, split together (vite.config.ts).
  const parts = Object.keys(manifest).filter((k) => k.startsWith(route));
  expect(parts).toHaveLength(1);
  const entry = Object.entries(manifest).find(([, c]) => c.isEntry)?.[0] ?? '';
  const needed = staticGraph(manifest, [entry, ...parts]);
  const onDemand = new Set(
    [...staticGraph(manifest, parts)]
      .flatMap((file) => Object.values(manifest).filter((c) => c.file === file))
      .flatMap((c) => c.dynamicImports ?? [])
      .map((key) => manifest[key]?.file ?? '')
      .filter((file) => file && !needed.has(file)),
  );
  const named = namedModules(html);
  expect([...needed].filter((file) => !named.has(file))).toEqual([]);
  expect([...named].filter((file) => onDemand.has(file))).toEqual([]);
  expect(onDemand.size).toBeGreaterThan(0);

  const problems = watchProblems(page);
  const asked = countRequests(page);
  const fetched = fetchedScripts(page);
  await page.goto(`/transactions/${id}`);
  const refresh = page.getByRole('button', { name: 'Refresh' });
  await expect(refresh).toBeEnabled();
  await expect(page.getByRole('list', { name: 'Lifecycle steps' })).toBeVisible();
  await expectHydrated(page);
  // Taken over: nothing in the state is asked for again (the page's polls start 2 s later),
  // and no script the HTML did not name was fetched before the page was live.
  expect(asked.get('/auth/session') ?? 0).toBe(0);
  expect(asked.get(detail) ?? 0).toBe(0);
  expect(asked.get(history) ?? 0).toBe(0);
  expect(fetched.filter((file) => !named.has(file))).toEqual([]);

  // And the page works: Refresh asks the server for this transaction.
  const checked = page.waitForResponse((res) => new URL(res.url()).pathname === detail);
  await refresh.click();
  await checked;
  await expect(page.getByTestId('freshness')).toContainText('Updated');
  expect(problems).toEqual([]);
});

/**
 * The scripts the first HTML names (module preloads and the entry), by path: in its
 * loader, which asks for them once the first screen is painted (http/server-render.ts).
 */
function namedModules(html: string): Set<string> {
  const loader = /<script>(.*?)<\/script>/s.exec(html)?.[1] ?? '';
  return new Set([...loader.matchAll(/\[[01],"\/([^"]+\.js)"\]/g)].map((m) => m[1] ?? ''));
}

/** Every script the page fetches from now on, by path. */
function fetchedScripts(page: Page): string[] {
  const fetched: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname.slice(1);
    if (path.endsWith('.js')) fetched.push(path);
  });
  return fetched;
}

test.describe('the approvals inbox', () => {
  test.use({ role: 'approver' });

  test("arrives with its rows and its route's whole module graph, the browser takes them over without asking again, and fetches the bulk approval only when asked", async ({
    members,
    page,
    browser,
    baseURL,
  }) => {
    // Proposed by another member, in a sub-organization other specs' counts leave alone.
    const initiator = await memberPage(browser, 'initiator', baseURL ?? '');
    const id = await createTransfer(initiator, baseURL ?? '', {
      memo: 'inbox first',
      from: 'apart',
    });
    const { subOrgId } = (await (
      await initiator.request.get(`/api/external/transactions/${id}/`)
    ).json()) as { subOrgId: string };
    await initiator.context().close();
    const url = `/approvals?subOrg=${subOrgId}`;

    const html = await (await page.request.get(url, { headers: { Accept: 'text/html' } })).text();
    expect(html).toMatch(new RegExp(`<tr [^>]*data-approval-id="${id}"`));
    expect(html).toContain(members.initiator.name);
    expect(html).toContain('<link rel="expect" href="#approvals-results" blocking="render" />');
    // Every module the route runs is named at once, and nothing of the bulk approval.
    const manifest = readManifest();
    const route = 'src/web/routes/_authenticated/approvals.tsx?tsr-split=';
    const parts = Object.keys(manifest).filter((k) => k.startsWith(route));
    expect(parts).toHaveLength(1);
    const entry = Object.entries(manifest).find(([, c]) => c.isEntry)?.[0] ?? '';
    const needed = staticGraph(manifest, [entry, ...parts]);
    const bulk = manifest['src/web/features/approvals/components/bulk-approve-dialog.tsx']?.file;
    expect(bulk).toBeTruthy();
    const named = namedModules(html);
    expect([...needed].filter((file) => !named.has(file))).toEqual([]);
    expect(named.has(bulk ?? '')).toBe(false);

    const problems = watchProblems(page);
    const asked = countRequests(page);
    const fetched = fetchedScripts(page);
    await page.goto(url);
    const row = page.locator(`[data-approval-id="${id}"]`);
    const box = row.getByRole('checkbox');
    await expect(box).toBeEnabled();
    await expectHydrated(page);
    expect(asked.get('/auth/session') ?? 0).toBe(0);
    // The inbox's page is in the state; only the navigation badge's count is asked for.
    const lists = [...asked.keys()].filter(
      (key) =>
        key.startsWith('/api/console/approvals/') &&
        !key.startsWith('/api/console/approvals/count/'),
    );
    expect(lists).toEqual([]);
    // Live with what the HTML named.
    expect(fetched.filter((file) => !named.has(file))).toEqual([]);

    // And it works: choosing the row offers to approve it, and the bulk approval's code is
    // fetched once its button is wanted.
    await box.check();
    await expect(page.getByRole('group', { name: 'Approve several transactions' })).toContainText(
      '1 selected',
    );
    await page.getByRole('button', { name: 'Approve selected…' }).hover();
    await expect.poll(() => fetched.includes(bulk ?? '')).toBe(true);
    expect(problems).toEqual([]);
  });
});

test("a create form's idempotency key is made in the browser when the form is taken over", async ({
  page,
}) => {
  const keys: string[] = [];
  for (let load = 0; load < 2; load += 1) {
    const response = await page.goto('/transactions/new');
    const html = (await response?.text()) ?? '';
    expect(html).toContain('<link rel="expect" href="#new-transaction-page" blocking="render" />');
    // Never in the HTML: a reload of the same page would carry the same key.
    expect(html).not.toMatch(/console-[0-9a-f]{8}-/);
    const field = page.getByLabel('External ID');
    await expect(field).toBeEnabled();
    await expect(field).toHaveValue(/^console-[0-9a-f-]{36}$/);
    keys.push(await field.inputValue());
  }
  expect(new Set(keys).size).toBe(2);
});
