import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { serve } from '@hono/node-server';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '#contract/auth.ts';
import {
  createBankAccount,
  createSubOrg,
  createTransaction,
  createVault,
} from '../test/fixtures.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import type { StaffSession } from '../test/staff-session.ts';

// The signed-in pages rendered on the server (http/server-render.ts), through
// the real app and database, with the SPA's render entry from source.
const INDEX =
  '<!doctype html><html><head><title>Custody Console</title></head><body><div id="root"></div><script type="module" src="/assets/index-abc.js"></script></body></html>';
const HOSTILE = '</script><script>alert(1)</script><!--';
const STATE = /<script type="application\/json" id="console-server-state">(.*?)<\/script>/s;

let dir: string;
let t: TestApp;
let ours: { id: string }[];
let theirs: { id: string };
let scoped: StaffSession;
let ourVault: { id: string };
let theirVault: { id: string };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'server-render-'));
  await writeFile(path.join(dir, 'index.html'), INDEX);
  t = await createTestApp({
    staticDir: dir,
    pageRenderer: () => import('../../web/entry-server.tsx'),
  });
  const mine = await createSubOrg(t.db, t.orgId, 'Treasury');
  const other = await createSubOrg(t.db, t.orgId, 'Payments');
  ours = [
    await createTransaction(t.db, { orgId: t.orgId, subOrgId: mine.id, memo: HOSTILE }),
    await createTransaction(t.db, { orgId: t.orgId, subOrgId: mine.id, externalId: 'ref-1' }),
  ];
  theirs = await createTransaction(t.db, { orgId: t.orgId, subOrgId: other.id });
  ourVault = await createVault(
    t.db,
    { orgId: t.orgId, subOrgId: mine.id, vaultName: 'Ours vault' },
    [{ asset: 'ETH', chain: 'ETHEREUM', amount: '3' }],
  );
  theirVault = await createVault(t.db, {
    orgId: t.orgId,
    subOrgId: other.id,
    vaultName: 'Theirs vault',
  });
  scoped = await t.signIn('viewer', { subOrgIds: [mine.id] });
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const page = (url: string, headers: Record<string, string> = {}) =>
  t.anonymous(url, { headers: { Accept: 'text/html', ...headers } });

/** A GET over real HTTP, addressed to the Host the test app answers as (PUBLIC_URL). */
function httpGet(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path, headers: { Host: 'localhost', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
}

function stateOf(html: string): {
  queries: { queryKey: unknown[]; state: { data: unknown } }[];
  renderedAt: number;
} {
  const json = STATE.exec(html)?.[1];
  if (json === undefined) throw new Error('the page holds no server state');
  return JSON.parse(json) as ReturnType<typeof stateOf>;
}

describe('the overview and the vaults pages, rendered in the member’s scope', () => {
  it('the home page holds the overview of their sub-organizations alone', async () => {
    const html = await (await page('/', { Cookie: scoped.cookie })).text();
    expect(html).toContain('<link rel="expect" href="#overview-page" blocking="render" />');
    expect(html).toContain('id="overview-page"');
    expect(html).toContain('Total holdings');
    expect(html).toContain(`href="/vaults/${ourVault.id}"`);
    expect(html).not.toContain(theirVault.id);
    const state = stateOf(html);
    const overview = state.queries.find((q) => q.queryKey[0] === 'overview');
    expect(JSON.stringify(overview?.state.data)).toContain(ourVault.id);
  });

  it('the vaults list and a vault’s page: balances, deposit addresses and transactions', async () => {
    const list = await (await page('/vaults', { Cookie: scoped.cookie })).text();
    expect(list).toContain('id="vaults-page"');
    expect(list).toContain(`data-vault-id="${ourVault.id}"`);
    expect(list).not.toContain(theirVault.id);
    const one = await (await page(`/vaults/${ourVault.id}`, { Cookie: scoped.cookie })).text();
    expect(one).toContain('<link rel="expect" href="#vault-page" blocking="render" />');
    expect(one).toContain('data-balance="ETH/ETHEREUM"');
    expect(one).toContain(`addr-ETHEREUM-${ourVault.id}`);
    expect(one).toContain('No transactions yet');
    expect(one).toContain(`href="/transactions?vaultId=${ourVault.id}"`);
  });
});

describe('the server-rendered transactions list', () => {
  it("holds the member's own rows, in their scope, and the state they were rendered from", async () => {
    const res = await page('/transactions', { Cookie: scoped.cookie });
    expect(res.status).toBe(200);
    // The member's rows and CSRF token: stored by no cache, the browser's own included (issue 24).
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(res.headers.get('Vary')).toMatch(/Cookie/);
    const html = await res.text();
    for (const tx of ours) expect(html).toContain(`data-transaction-id="${tx.id}"`);
    // The first paint waits until the results, which hold the rows, are parsed (spa.ts).
    expect(html).toContain(
      '<link rel="expect" href="#transactions-results" blocking="render" />\n  </head>',
    );
    // The brand mark is drawn in the page, not a separate SVG document to fetch and build.
    expect(html).not.toContain('<img');
    expect(html).not.toContain('as="image"');
    expect(html.indexOf('id="transactions-results"')).toBeLessThan(
      html.indexOf(`data-transaction-id="${ours[1]?.id}"`),
    );
    expect(html).toContain(`href="/transactions/${ours[0]?.id}"`);
    // Another sub-organization's transaction is in neither the markup nor the state.
    expect(html).not.toContain(theirs.id);

    const state = stateOf(html);
    const keys = state.queries.map((q) => q.queryKey[0]);
    expect(keys).toEqual(expect.arrayContaining(['session', 'transactions', 'reference']));
    const list = state.queries.find((q) => q.queryKey[0] === 'transactions')?.state.data as {
      results: { id: string; memo?: string }[];
    };
    expect(list.results.map((r) => r.id).sort()).toEqual(ours.map((r) => r.id).sort());
    expect(list.results.find((r) => r.id === ours[0]?.id)?.memo).toBe(HOSTILE);
  });

  it("keeps a transaction's text from ending the state's script or opening a comment", async () => {
    const html = await (await page('/transactions', { Cookie: scoped.cookie })).text();
    expect(html).not.toContain('<script>alert(1)');
    // The page's only script elements are the state and the app's own module.
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).not.toContain('<!--</');
  });

  it('a member of every sub-organization sees every row', async () => {
    const everyone = await t.signIn('viewer');
    const html = await (await page('/transactions', { Cookie: everyone.cookie })).text();
    for (const tx of [...ours, theirs]) expect(html).toContain(`data-transaction-id="${tx.id}"`);
  });

  it('is sent brotli-encoded to a browser that accepts it', async () => {
    const res = await page('/transactions', {
      Cookie: scoped.cookie,
      'Accept-Encoding': 'gzip, deflate, br',
    });
    expect(res.headers.get('Content-Encoding')).toBe('br');
    expect(res.headers.get('Vary')).toMatch(/Accept-Encoding/);
    const html = brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString('utf8');
    expect(html).toContain(`data-transaction-id="${ours[1]?.id}"`);
  });

  it('is served over HTTP to many visitors at once, compressed or not, and the server stays up', async () => {
    // Node 20's Readable.toWeb ended the process here: ten connections asking
    // for a full page (20 rows, about 150 KB) without compression (curl's
    // default), each answer whole.
    const desk = await createSubOrg(t.db, t.orgId, 'Desk');
    for (let i = 0; i < 20; i += 1)
      await createTransaction(t.db, { orgId: t.orgId, subOrgId: desk.id, memo: 'm'.repeat(4000) });
    const member = await t.signIn('viewer', { subOrgIds: [desk.id] });
    const server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    try {
      const ask = async (encoding: string) => {
        const { status, body } = await httpGet(port, '/transactions', {
          Accept: 'text/html',
          Cookie: member.cookie,
          'Accept-Encoding': encoding,
        });
        expect(status).toBe(200);
        const html =
          encoding === 'br' ? brotliDecompressSync(body).toString('utf8') : body.toString('utf8');
        expect(html.match(/data-transaction-id=/g)).toHaveLength(20);
        expect(html.trimEnd()).toMatch(/<\/html>$/);
      };
      for (let round = 0; round < 5; round += 1)
        await Promise.all(
          Array.from({ length: 10 }, (_, i) => ask(i % 3 === 0 ? 'br' : 'identity')),
        );
      expect((await httpGet(port, '/healthz', {})).status).toBe(200);
    } finally {
      server.close();
    }
  });

  it("logs the render's reads under the page request's own id, with the caller's id beside it", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logged = await createTestApp({
      staticDir: dir,
      pageRenderer: () => import('../../web/entry-server.tsx'),
      logger: pino(
        { level: 'info' },
        { write: (line: string) => void lines.push(JSON.parse(line)) },
      ),
    });
    try {
      const member = await logged.signIn('viewer');
      const res = await logged.anonymous('/transactions', {
        headers: { Accept: 'text/html', Cookie: member.cookie, 'X-Request-Id': 'from-the-proxy' },
      });
      expect(await res.text()).toContain('id="transactions-results"');
      const pageId = res.headers.get('X-Request-Id');
      expect(pageId).toMatch(/^[0-9a-f-]{36}$/);
      const reads = lines.filter((l) => l['msg'] === 'request' && l['path'] !== '/transactions');
      expect(reads.map((l) => l['path'])).toContain('/auth/session');
      for (const line of reads)
        expect(line).toMatchObject({ reqId: pageId, callerReqId: 'from-the-proxy' });
    } finally {
      await logged.close();
    }
  });

  it('filters the rows as the URL asks, as the browser would', async () => {
    const html = await (
      await page('/transactions?externalId=ref-1', { Cookie: scoped.cookie })
    ).text();
    expect(html).toContain(`data-transaction-id="${ours[1]?.id}"`);
    expect(html).not.toContain(`data-transaction-id="${ours[0]?.id}"`);
  });
});

describe("the member's time zone and colour scheme, from the first byte", () => {
  let pacific: StaffSession;
  let evening: { id: string };
  let utcMorning: { id: string };

  beforeAll(async () => {
    const desk = await createSubOrg(t.db, t.orgId, 'Los Angeles desk');
    // 19:00:05 PST on Nov 24, but already Nov 25 in UTC.
    evening = await createTransaction(t.db, {
      orgId: t.orgId,
      subOrgId: desk.id,
      createdAt: new Date('2026-11-25T03:00:05.000Z'),
    });
    // Nov 24 in UTC, but still the evening of Nov 23 in Los Angeles.
    utcMorning = await createTransaction(t.db, {
      orgId: t.orgId,
      subOrgId: desk.id,
      createdAt: new Date('2026-11-24T05:00:00.000Z'),
    });
    pacific = await t.signIn('viewer', { subOrgIds: [desk.id] });
    const res = await pacific.request('/api/console/account/display/', {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ timeZone: 'America/Los_Angeles', colorScheme: 'dark' }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it("renders every time in the member's zone, labelled, and their scheme on <html>", async () => {
    const html = await (await page('/transactions', { Cookie: pacific.cookie })).text();
    expect(html).toMatch(/^<!doctype html><html data-theme="dark">/);
    // The browser hydrates from the same session and writes the same text: no UTC first.
    expect(html).toContain('>Nov 24, 2026, 19:00:05 PST</time>');
    expect(html).toContain('>Nov 23, 2026, 21:00:00 PST</time>');
    expect(html).not.toContain(' UTC</time>');
    // The date filters say which zone their days are in.
    expect(html).toContain('Days in America/Los_Angeles, both included');
  });

  it("lists a day's rows by the member's day, not the UTC one", async () => {
    const html = await (
      await page('/transactions?createdAtGte=2026-11-24&createdAtLte=2026-11-24', {
        Cookie: pacific.cookie,
      })
    ).text();
    expect(html).toContain(`data-transaction-id="${evening.id}"`);
    expect(html).not.toContain(`data-transaction-id="${utcMorning.id}"`);
    const list = stateOf(html).queries.find((q) => q.queryKey[0] === 'transactions');
    expect(JSON.stringify(list?.queryKey)).toContain('2026-11-24T08:00:00.000Z');
  });

  it("leaves the system's scheme alone, and the shell of a page not rendered carries the member's", async () => {
    const plain = await (await page('/transactions', { Cookie: scoped.cookie })).text();
    expect(plain).toMatch(/^<!doctype html><html>/);
    const shell = await (
      await page('/transactions/not-a-transaction', { Cookie: pacific.cookie })
    ).text();
    expect(shell).not.toContain('console-server-state');
    expect(shell).toMatch(/^<!doctype html><html data-theme="dark">/);
    const signedOut = await (await page('/login')).text();
    expect(signedOut).not.toContain('data-theme');
  });
});

describe('pages left to the browser: the plain shell, never an error', () => {
  const shell = async (res: Response) => {
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('console-server-state');
  };

  it('a visitor with no session, or a cookie the server does not know, is sent to sign in', async () => {
    const cookies: Record<string, string>[] = [{}, { Cookie: `${SESSION_COOKIE}=not-a-session` }];
    for (const headers of cookies) {
      const res = await page('/transactions', headers);
      expect(res.status).toBe(302);
      expect(res.headers.get('Location')).toBe('/login?redirect=%2Ftransactions');
    }
    await shell(await page('/login'));
  });

  it('a vault outside the member’s scope: the browser says so', async () => {
    const res = await page(`/vaults/${theirVault.id}`, { Cookie: scoped.cookie });
    const html = await res.clone().text();
    await shell(res);
    expect(html).not.toContain('Theirs vault');
  });

  it("a transaction or bank account outside the member's scope: the browser says so", async () => {
    const res = await page(`/transactions/${theirs.id}`, { Cookie: scoped.cookie });
    const html = await res.clone().text();
    await shell(res);
    expect(html).not.toContain(theirs.id);
    await shell(await page('/bank-accounts/not-an-account', { Cookie: scoped.cookie }));
  });

  it('a list address the router refuses', async () => {
    await shell(await page('/transactions?status=NOT_A_STATUS', { Cookie: scoped.cookie }));
  });
});

describe("every signed-in page's first screen, through the same path", () => {
  let admin: StaffSession;
  let approver: StaffSession;
  let pending: { id: string };
  let account: { id: string };

  beforeAll(async () => {
    const desk = await createSubOrg(t.db, t.orgId, 'Approvals desk');
    pending = await createTransaction(t.db, {
      orgId: t.orgId,
      subOrgId: desk.id,
      status: 'PENDING',
      memo: HOSTILE,
    });
    account = await createBankAccount(t.db, {
      orgId: t.orgId,
      subOrgId: desk.id,
      accountName: 'Rendered Payee',
      accountNumber: '987654321',
    });
    admin = await t.signIn('admin');
    approver = await t.signIn('approver', { subOrgIds: [desk.id] });
  });

  /** The page as its member gets it: rendered, its first screen named in the head, its state. */
  async function rendered(url: string, member: StaffSession, firstScreen: string) {
    const res = await page(url, { Cookie: member.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain(`<link rel="expect" href="#${firstScreen}" blocking="render" />`);
    expect(html).toContain(`id="${firstScreen}"`);
    // Its text cannot end the state's script: still the state and the app's module only.
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).not.toContain('<script>alert(1)');
    const root = html.slice(html.indexOf('<div id="root">'), html.indexOf('console-server-state'));
    return { html, root, state: stateOf(html) };
  }

  it("a transaction's page: its facts and status timeline, counted from the render's instant", async () => {
    const { root, state } = await rendered(
      `/transactions/${ours[0]?.id}`,
      scoped,
      'transaction-page',
    );
    expect(root).toContain(ours[0]?.id);
    expect(root).toContain('Status timeline');
    // "Updated …" is counted from the instant the state carries (lib/use-now.ts).
    expect(root).toContain('Updated <!-- -->just now');
    expect(state.renderedAt).toBeGreaterThan(0);
    const detail = state.queries.find((q) =>
      JSON.stringify(q.queryKey).includes(ours[0]?.id ?? '-'),
    );
    expect((detail?.state.data as { transaction?: { memo?: string } }).transaction?.memo).toBe(
      HOSTILE,
    );
  });

  it("the approvals inbox: what waits in the approver's scope", async () => {
    const { root, state } = await rendered('/approvals', approver, 'approvals-results');
    expect(root).toContain(pending.id);
    expect(root).toContain(account.id);
    expect(root).not.toContain(ours[0]?.id);
    // Waiting times count from the render's instant: the same text in the browser's hydration.
    expect(root).toContain('just now');
    expect(state.queries.map((q) => q.queryKey[0])).toContain('approvals');
  });

  it('bank accounts and an account: masked, as the list and detail show them to staff', async () => {
    const list = await rendered('/bank-accounts', admin, 'bank-accounts-results');
    expect(list.root).toContain('Rendered Payee');
    const detail = await rendered(`/bank-accounts/${account.id}`, admin, 'bank-account-page');
    expect(detail.root).toContain('Rendered Payee');
    expect(detail.root).toContain('•••• 4321');
    for (const html of [list.html, detail.html]) expect(html).not.toContain('987654321');
  });

  it('the create forms: their fields, and no idempotency key made on the server', async () => {
    for (const [url, firstScreen] of [
      ['/transactions/new', 'new-transaction-page'],
      ['/transactions/new?category=CONTRACT_CALL', 'new-transaction-page'],
      ['/bank-accounts/new', 'propose-bank-account-page'],
      ['/convert', 'convert-page'],
    ] as const) {
      const { root } = await rendered(url, admin, firstScreen);
      // A kind no vault here can do says so instead of showing its form.
      expect(root).toMatch(url.includes('CONTRACT_CALL') ? /not offered|<form/ : /<form/);
      // The key is made in the browser when the form is hydrated (ARCHITECTURE.md).
      expect(root).not.toMatch(/console-[0-9a-f]{8}-/);
    }
  });

  it("staff, the audit log and the member's own account", async () => {
    expect((await rendered('/staff', admin, 'staff-page')).root).toContain('Test viewer');
    expect((await rendered('/audit', admin, 'audit-results')).root).toContain('Audit log');
    expect((await rendered('/account', admin, 'account-page')).root).toContain('Your account');
  });

  it('the webhook settings: the endpoints and the register form', async () => {
    const { root } = await rendered('/settings/webhooks', admin, 'webhooks-page');
    expect(root).toContain('Register an endpoint');
    expect(root).toContain('Endpoints');
  });

  it('the approval policies: the active rules, and the preview form', async () => {
    const { root } = await rendered('/policies?kind=accounts', admin, 'policies-page');
    expect(root).toContain('Otherwise');
    expect(root).toContain('What would this need?');
  });
});
