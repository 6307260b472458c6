import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../contract/auth.ts';
import { createSubOrg, createTransaction } from '../test/fixtures.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import type { StaffSession } from '../test/staff-session.ts';

// The signed-in /transactions rendered on the server (http/server-render.ts),
// through the real app and database, with the SPA's render entry from source.
const INDEX =
  '<!doctype html><html><head><title>Custody Console</title></head><body><div id="root"></div><script type="module" src="/assets/index-abc.js"></script></body></html>';
const HOSTILE = '</script><script>alert(1)</script><!--';
const STATE = /<script type="application\/json" id="console-server-state">(.*?)<\/script>/s;

let dir: string;
let t: TestApp;
let ours: { id: string }[];
let theirs: { id: string };
let scoped: StaffSession;

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
  scoped = await t.signIn('viewer', { subOrgIds: [mine.id] });
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const page = (url: string, headers: Record<string, string> = {}) =>
  t.anonymous(url, { headers: { Accept: 'text/html', ...headers } });

function stateOf(html: string): { queries: { queryKey: unknown[]; state: { data: unknown } }[] } {
  const json = STATE.exec(html)?.[1];
  if (json === undefined) throw new Error('the page holds no server state');
  return JSON.parse(json) as ReturnType<typeof stateOf>;
}

describe('the server-rendered transactions list', () => {
  it("holds the member's own rows, in their scope, and the state they were rendered from", async () => {
    const res = await page('/transactions', { Cookie: scoped.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('private, no-cache');
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

  it('filters the rows as the URL asks, as the browser would', async () => {
    const html = await (
      await page('/transactions?externalId=ref-1', { Cookie: scoped.cookie })
    ).text();
    expect(html).toContain(`data-transaction-id="${ours[1]?.id}"`);
    expect(html).not.toContain(`data-transaction-id="${ours[0]?.id}"`);
  });
});

describe('pages left to the browser: the plain shell, never an error', () => {
  const shell = async (res: Response) => {
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('console-server-state');
  };

  it('a visitor with no session', async () => {
    await shell(await page('/transactions'));
  });

  it('a session cookie the server does not know (the browser goes on to sign-in)', async () => {
    await shell(await page('/transactions', { Cookie: `${SESSION_COOKIE}=not-a-session` }));
  });

  it('a page the server does not render', async () => {
    await shell(await page('/bank-accounts', { Cookie: scoped.cookie }));
  });

  it('a list address the router refuses', async () => {
    await shell(await page('/transactions?status=NOT_A_STATUS', { Cookie: scoped.cookie }));
  });
});
