import http from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { pino } from 'pino';
import { beforeAll, describe, expect } from 'vitest';
import { SESSION_COOKIE } from '#contract/auth.ts';
import { appFixture, appTestWith } from '../test/app-test.ts';
import { capturedLog } from '../test/captured-log.ts';
import { listen } from '../test/served.ts';
import {
  createBankAccount,
  createContact,
  createSubOrg,
  createTransaction,
  createVault,
} from '../test/fixtures.ts';
import type { StaffSession } from '../test/staff-session.ts';
import type { TestApp } from '../test/test-app.ts';

// The signed-in pages rendered on the server (http/server-render.ts), through
// the real app and database, with the SPA's render entry from source.
const INDEX =
  '<!doctype html><html><head><title>Custody Console</title></head><body><div id="root"></div><script type="module" src="/assets/index-abc.js"></script></body></html>';
const HOSTILE = '</script><script>alert(1)</script><!--';
const STATE = /<script type="application\/json" id="console-server-state">(.*?)<\/script>/s;

/** The console with the SPA's render entry, serving a build of its index.html alone. */
const RENDERED = {
  staticFiles: { 'index.html': INDEX },
  pageRenderer: () => import('../../web/entry-server.tsx'),
};
const renderLog = capturedLog();

/**
 * `ours`: two transactions of the Treasury sub-org (one carrying hostile
 * text), `theirs` one of Payments, `scoped` a viewer of Treasury alone. The
 * time-zone tests' rows are a Los Angeles desk's and `pacific` its viewer;
 * the other pages' a desk's pending transaction, bank account and contact.
 * `logged` is the same console logging at info.
 */
const appTest = appTestWith(RENDERED)
  .extend(
    'treasury',
    { scope: 'file' },
    async ({ t }) => (await createSubOrg(t.db, t.orgId, 'Treasury')).id,
  )
  .extend('ours', { scope: 'file' }, async ({ t, treasury }) => [
    await createTransaction(t.db, { orgId: t.orgId, subOrgId: treasury, memo: HOSTILE }),
    await createTransaction(t.db, { orgId: t.orgId, subOrgId: treasury, externalId: 'ref-1' }),
  ])
  .extend('theirs', { scope: 'file' }, async ({ t }) => {
    const other = await createSubOrg(t.db, t.orgId, 'Payments');
    return createTransaction(t.db, { orgId: t.orgId, subOrgId: other.id });
  })
  .extend('ourVault', { scope: 'file' }, ({ t, treasury }) =>
    createVault(t.db, { orgId: t.orgId, subOrgId: treasury, vaultName: 'Ours vault' }, [
      { asset: 'ETH', chain: 'ETHEREUM', amount: '3' },
    ]),
  )
  .extend('theirVault', { scope: 'file' }, async ({ t }) => {
    const other = await createSubOrg(t.db, t.orgId, 'Vault keepers');
    return createVault(t.db, { orgId: t.orgId, subOrgId: other.id, vaultName: 'Theirs vault' });
  })
  // After the rows it must see and must not.
  .extend('scoped', { scope: 'file' }, ({ t, treasury, ours: _ours, theirs: _theirs }) =>
    t.signIn('viewer', { subOrgIds: [treasury] }),
  )
  .extend(
    'laDesk',
    { scope: 'file' },
    async ({ t }) => (await createSubOrg(t.db, t.orgId, 'Los Angeles desk')).id,
  )
  // 19:00:05 PST on Nov 24, but already Nov 25 in UTC.
  .extend('evening', { scope: 'file' }, ({ t, laDesk }) =>
    createTransaction(t.db, {
      orgId: t.orgId,
      subOrgId: laDesk,
      createdAt: new Date('2026-11-25T03:00:05.000Z'),
    }),
  )
  // Nov 24 in UTC, but still the evening of Nov 23 in Los Angeles.
  .extend('utcMorning', { scope: 'file' }, ({ t, laDesk }) =>
    createTransaction(t.db, {
      orgId: t.orgId,
      subOrgId: laDesk,
      createdAt: new Date('2026-11-24T05:00:00.000Z'),
    }),
  )
  .extend(
    'pacific',
    { scope: 'file' },
    async ({ t, laDesk, evening: _evening, utcMorning: _utcMorning }) => {
      const pacific = await t.signIn('viewer', {
        subOrgIds: [laDesk],
      });
      const res = await pacific.request('/api/console/account/display/', {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ timeZone: 'America/Los_Angeles', colorScheme: 'dark' }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return pacific;
    },
  )
  .extend(
    'approvalsDesk',
    { scope: 'file' },
    async ({ t }) => (await createSubOrg(t.db, t.orgId, 'Approvals desk')).id,
  )
  .extend('pending', { scope: 'file' }, ({ t, approvalsDesk }) =>
    createTransaction(t.db, {
      orgId: t.orgId,
      subOrgId: approvalsDesk,
      status: 'PENDING',
      memo: HOSTILE,
    }),
  )
  .extend('account', { scope: 'file' }, ({ t, approvalsDesk }) =>
    createBankAccount(t.db, {
      orgId: t.orgId,
      subOrgId: approvalsDesk,
      accountName: 'Rendered Payee',
      accountNumber: '987654321',
    }),
  )
  .extend('contact', { scope: 'file' }, ({ t, approvalsDesk }) =>
    createContact(t.db, {
      orgId: t.orgId,
      subOrgId: approvalsDesk,
      name: 'Rendered Contact',
      address: `0x${'Be'.repeat(20)}`,
    }),
  )
  // The desk's members, after its rows.
  .extend(
    'admin',
    { scope: 'file' },
    ({ t, pending: _pending, account: _account, contact: _contact }) => t.signIn('admin'),
  )
  .extend(
    'approver',
    { scope: 'file' },
    ({ t, approvalsDesk, pending: _pending, account: _account, contact: _contact }) =>
      t.signIn('approver', { subOrgIds: [approvalsDesk] }),
  )
  .extend(
    'logged',
    { scope: 'file' },
    appFixture({ ...RENDERED, logger: pino({ level: 'info' }, renderLog.stream) }),
  );

const page = (t: TestApp, url: string, headers: Record<string, string> = {}) =>
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

// The SPA's render entry (transformed from source on its first import), then
// the app and its rows, are made before the first test, each under the set-up
// limit: made by the first test that named them, they took most of its 60 s on
// a loaded machine, and that test timed out while its page rendered.
beforeAll(async () => {
  await RENDERED.pageRenderer();
});
appTest.beforeAll(async ({ scoped: _scoped, ourVault: _ours, theirVault: _theirs }) => {});

describe('the overview and the vaults pages, rendered in the member’s scope', () => {
  appTest(
    'the home page holds the overview of their sub-organizations alone',
    async ({ t, scoped, ourVault, theirVault }) => {
      const html = await (await page(t, '/', { Cookie: scoped.cookie })).text();
      expect(html).toContain('<link rel="expect" href="#overview-page" blocking="render" />');
      expect(html).toContain('id="overview-page"');
      expect(html).toContain('Total holdings');
      expect(html).toContain(`href="/vaults/${ourVault.id}"`);
      expect(html).not.toContain(theirVault.id);
      const state = stateOf(html);
      const overview = state.queries.find((q) => q.queryKey[0] === 'overview');
      expect(JSON.stringify(overview?.state.data)).toContain(ourVault.id);
    },
  );

  appTest(
    'the vaults list and a vault’s page: balances, deposit addresses and transactions',
    async ({ t, scoped, ourVault, theirVault }) => {
      const list = await (await page(t, '/vaults', { Cookie: scoped.cookie })).text();
      expect(list).toContain('id="vaults-page"');
      expect(list).toContain(`data-vault-id="${ourVault.id}"`);
      expect(list).not.toContain(theirVault.id);
      const one = await (await page(t, `/vaults/${ourVault.id}`, { Cookie: scoped.cookie })).text();
      expect(one).toContain('<link rel="expect" href="#vault-page" blocking="render" />');
      expect(one).toContain('data-balance="ETH/ETHEREUM"');
      expect(one).toContain(`addr-BITCOIN-${ourVault.id}`);
      expect(one).toContain('No transactions yet');
      expect(one).toContain(`href="/transactions?vaultId=${ourVault.id}"`);
    },
  );
});

describe('the server-rendered transactions list', () => {
  appTest(
    "holds the member's own rows, in their scope, and the state they were rendered from",
    async ({ t, ours, theirs, scoped }) => {
      const res = await page(t, '/transactions', { Cookie: scoped.cookie });
      expect(res.status).toBe(200);
      // The member's rows and CSRF token: stored by no cache, the browser's own included.
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
    },
  );

  appTest(
    "keeps a transaction's text from ending the state's script or opening a comment",
    async ({ t, scoped }) => {
      const html = await (await page(t, '/transactions', { Cookie: scoped.cookie })).text();
      expect(html).not.toContain('<script>alert(1)');
      // The page's only script elements are the state and the app's own module.
      expect(html.match(/<script/g)).toHaveLength(2);
      expect(html.match(/<\/script>/g)).toHaveLength(2);
      expect(html).not.toContain('<!--</');
    },
  );

  appTest('a member of every sub-organization sees every row', async ({ t, ours, theirs }) => {
    const everyone = await t.signIn('viewer');
    const html = await (await page(t, '/transactions', { Cookie: everyone.cookie })).text();
    for (const tx of [...ours, theirs]) expect(html).toContain(`data-transaction-id="${tx.id}"`);
  });

  appTest('is sent brotli-encoded to a browser that accepts it', async ({ t, ours, scoped }) => {
    const res = await page(t, '/transactions', {
      Cookie: scoped.cookie,
      'Accept-Encoding': 'gzip, deflate, br',
    });
    expect(res.headers.get('Content-Encoding')).toBe('br');
    expect(res.headers.get('Vary')).toMatch(/Accept-Encoding/);
    const html = brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString('utf8');
    expect(html).toContain(`data-transaction-id="${ours[1]?.id}"`);
  });

  appTest(
    'is served over HTTP to many visitors at once, compressed or not, and the server stays up',
    async ({ t }) => {
      // Node 20's Readable.toWeb ended the process here: ten connections asking
      // for a full page (20 rows, about 150 KB) without compression (curl's
      // default), each answer whole.
      const desk = await createSubOrg(t.db, t.orgId, 'Desk');
      for (let i = 0; i < 20; i += 1)
        await createTransaction(t.db, {
          orgId: t.orgId,
          subOrgId: desk.id,
          memo: 'm'.repeat(4000),
        });
      const member = await t.signIn('viewer', { subOrgIds: [desk.id] });
      const server = await listen(t.app);
      const { port } = server;
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
        await server.close();
      }
    },
  );

  appTest(
    "logs the render's reads under the page request's own id, with the caller's id beside it",
    async ({ logged }) => {
      {
        const member = await logged.signIn('viewer');
        const res = await logged.anonymous('/transactions', {
          headers: { Accept: 'text/html', Cookie: member.cookie, 'X-Request-Id': 'from-the-proxy' },
        });
        expect(await res.text()).toContain('id="transactions-results"');
        const pageId = res.headers.get('X-Request-Id');
        expect(pageId).toMatch(/^[0-9a-f-]{36}$/);
        const reads = renderLog
          .lines()
          .filter((l) => l['msg'] === 'request' && l['path'] !== '/transactions');
        expect(reads.map((l) => l['path'])).toContain('/auth/session');
        for (const line of reads)
          expect(line).toMatchObject({ reqId: pageId, callerReqId: 'from-the-proxy' });
      }
    },
  );

  appTest('filters the rows as the URL asks, as the browser would', async ({ t, ours, scoped }) => {
    const html = await (
      await page(t, '/transactions?externalId=ref-1', { Cookie: scoped.cookie })
    ).text();
    expect(html).toContain(`data-transaction-id="${ours[1]?.id}"`);
    expect(html).not.toContain(`data-transaction-id="${ours[0]?.id}"`);
  });
});

describe("the member's time zone and colour scheme, from the first byte", () => {
  appTest(
    "renders every time in the member's zone, labelled, and their scheme on <html>",
    async ({ t, pacific }) => {
      const html = await (await page(t, '/transactions', { Cookie: pacific.cookie })).text();
      expect(html).toMatch(/^<!doctype html><html data-theme="dark">/);
      // The browser hydrates from the same session and writes the same text: no UTC first.
      expect(html).toContain('>Nov 24, 2026, 19:00:05 PST</time>');
      expect(html).toContain('>Nov 23, 2026, 21:00:00 PST</time>');
      expect(html).not.toContain(' UTC</time>');
      // The date filters say which zone their days are in.
      expect(html).toContain('Days in America/Los_Angeles, both included');
    },
  );

  appTest(
    "lists a day's rows by the member's day, not the UTC one",
    async ({ t, pacific, evening, utcMorning }) => {
      const html = await (
        await page(t, '/transactions?createdAtGte=2026-11-24&createdAtLte=2026-11-24', {
          Cookie: pacific.cookie,
        })
      ).text();
      expect(html).toContain(`data-transaction-id="${evening.id}"`);
      expect(html).not.toContain(`data-transaction-id="${utcMorning.id}"`);
      const list = stateOf(html).queries.find((q) => q.queryKey[0] === 'transactions');
      expect(JSON.stringify(list?.queryKey)).toContain('2026-11-24T08:00:00.000Z');
    },
  );

  appTest(
    "leaves the system's scheme alone, and the shell of a page not rendered carries the member's",
    async ({ t, scoped, pacific }) => {
      const plain = await (await page(t, '/transactions', { Cookie: scoped.cookie })).text();
      expect(plain).toMatch(/^<!doctype html><html>/);
      const shell = await (
        await page(t, '/transactions/not-a-transaction', { Cookie: pacific.cookie })
      ).text();
      expect(shell).not.toContain('console-server-state');
      expect(shell).toMatch(/^<!doctype html><html data-theme="dark">/);
      const signedOut = await (await page(t, '/login')).text();
      expect(signedOut).not.toContain('data-theme');
    },
  );
});

describe('pages left to the browser: the plain shell, never an error', () => {
  const shell = async (res: Response) => {
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('console-server-state');
  };

  appTest(
    'a visitor with no session, or a cookie the server does not know, is sent to sign in',
    async ({ t }) => {
      const cookies: Record<string, string>[] = [{}, { Cookie: `${SESSION_COOKIE}=not-a-session` }];
      for (const headers of cookies) {
        const res = await page(t, '/transactions', headers);
        expect(res.status).toBe(302);
        expect(res.headers.get('Location')).toBe('/login?redirect=%2Ftransactions');
      }
      await shell(await page(t, '/login'));
    },
  );

  appTest(
    'a vault outside the member’s scope: the browser says so',
    async ({ t, scoped, theirVault }) => {
      const res = await page(t, `/vaults/${theirVault.id}`, { Cookie: scoped.cookie });
      const html = await res.clone().text();
      await shell(res);
      expect(html).not.toContain('Theirs vault');
    },
  );

  appTest(
    "a transaction or bank account outside the member's scope: the browser says so",
    async ({ t, theirs, scoped }) => {
      const res = await page(t, `/transactions/${theirs.id}`, { Cookie: scoped.cookie });
      const html = await res.clone().text();
      await shell(res);
      expect(html).not.toContain(theirs.id);
      await shell(await page(t, '/bank-accounts/not-an-account', { Cookie: scoped.cookie }));
    },
  );

  appTest('a list address the router refuses', async ({ t, scoped }) => {
    await shell(await page(t, '/transactions?status=NOT_A_STATUS', { Cookie: scoped.cookie }));
  });
});

describe("every signed-in page's first screen, through the same path", () => {
  /** The page as its member gets it: rendered, its first screen named in the head, its state. */
  async function rendered(t: TestApp, url: string, member: StaffSession, firstScreen: string) {
    const res = await page(t, url, { Cookie: member.cookie });
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

  appTest(
    "a transaction's page: its facts and status timeline, counted from the render's instant",
    async ({ t, ours, scoped }) => {
      const { root, state } = await rendered(
        t,
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
    },
  );

  appTest(
    "a waiting transaction's page: what its approver decides on, and its approvals so far",
    async ({ t, pending, approver }) => {
      const { state } = await rendered(
        t,
        `/transactions/${pending.id}`,
        approver,
        'transaction-page',
      );
      // In the first HTML: loaded after it, they pushed the decision's buttons down.
      expect(state.queries.map((q) => q.queryKey)).toContainEqual([
        'approvals',
        'progress',
        pending.id,
      ]);
    },
  );

  appTest(
    "a transaction's page: its history in the state, under the status the page holds",
    async ({ t, ours, scoped }) => {
      const id = ours[0]?.id ?? '-';
      const { state } = await rendered(t, `/transactions/${id}`, scoped, 'transaction-page');
      const keys = state.queries.map((q) => JSON.stringify(q.queryKey));
      // Read beside the transaction on a first load, and kept where the page looks for it.
      const history = state.queries.find((q) => q.queryKey.includes('history'));
      expect(keys.filter((key) => key.includes('history'))).toHaveLength(1);
      expect(history?.queryKey.at(-1)).toBe(ours[0]?.status);
      expect(JSON.stringify(history?.queryKey)).toContain(id);
      expect(history?.state.data).toMatchObject({ entityId: id });
    },
  );

  appTest(
    "the approvals inbox: what waits in the approver's scope",
    async ({ t, ours, pending, account, approver }) => {
      const { root, state } = await rendered(t, '/approvals', approver, 'approvals-results');
      expect(root).toContain(pending.id);
      expect(root).toContain(account.id);
      expect(root).not.toContain(ours[0]?.id);
      // Waiting times count from the render's instant: the same text in the browser's hydration.
      expect(root).toContain('just now');
      expect(state.queries.map((q) => q.queryKey[0])).toContain('approvals');
    },
  );

  appTest(
    'bank accounts and an account: masked, as the list and detail show them to staff',
    async ({ t, account, admin }) => {
      const list = await rendered(t, '/bank-accounts', admin, 'bank-accounts-results');
      expect(list.root).toContain('Rendered Payee');
      const detail = await rendered(t, `/bank-accounts/${account.id}`, admin, 'bank-account-page');
      expect(detail.root).toContain('Rendered Payee');
      expect(detail.root).toContain('•••• 4321');
      for (const html of [list.html, detail.html]) expect(html).not.toContain('987654321');
      // Waiting: its approvals so far come with the page, so nothing loads in above the
      // decision's buttons after they are shown.
      expect(detail.state.queries.map((q) => q.queryKey)).toContainEqual([
        'approvals',
        'progress',
        account.id,
      ]);
    },
  );

  appTest(
    'the address book and a contact: its name and address, as the list and detail show them',
    async ({ t, contact, admin }) => {
      const list = await rendered(t, '/contacts', admin, 'contacts-results');
      expect(list.root).toContain('Rendered Contact');
      const detail = await rendered(t, `/contacts/${contact.id}`, admin, 'contact-page');
      expect(detail.root).toContain('Rendered Contact');
      expect(detail.root).toContain(contact.address);
    },
  );

  appTest(
    'the create forms: their fields, and no idempotency key made on the server',
    async ({ t, admin }) => {
      for (const [url, firstScreen] of [
        ['/transactions/new', 'new-transaction-page'],
        ['/transactions/new?category=CONTRACT_CALL', 'new-transaction-page'],
        ['/bank-accounts/new', 'propose-bank-account-page'],
        ['/contacts/new', 'propose-contact-page'],
        ['/convert', 'convert-page'],
      ] as const) {
        const { root } = await rendered(t, url, admin, firstScreen);
        // A kind no vault here can do says so instead of showing its form.
        expect(root).toMatch(url.includes('CONTRACT_CALL') ? /not offered|<form/ : /<form/);
        // The key is made in the browser when the form is hydrated (ARCHITECTURE.md).
        expect(root).not.toMatch(/console-[0-9a-f]{8}-/);
      }
    },
  );

  appTest("staff, the audit log and the member's own account", async ({ t, admin }) => {
    // The list's first page: the file's many members run past it, so any row, not one by name.
    expect((await rendered(t, '/staff', admin, 'staff-page')).root).toMatch(
      /data-staff-id="[^"]+"/,
    );
    expect((await rendered(t, '/audit', admin, 'audit-results')).root).toContain('Audit log');
    expect((await rendered(t, '/account', admin, 'account-page')).root).toContain('Your account');
  });

  appTest('the webhook settings: the endpoints and the register form', async ({ t, admin }) => {
    const { root } = await rendered(t, '/settings/webhooks', admin, 'webhooks-page');
    expect(root).toContain('Register an endpoint');
    expect(root).toContain('Endpoints');
  });

  appTest('the approval policies: the active rules, and the preview form', async ({ t, admin }) => {
    const { root } = await rendered(t, '/policies?kind=accounts', admin, 'policies-page');
    expect(root).toContain('Otherwise');
    expect(root).toContain('What would this need?');
  });

  appTest(
    "the ledger's pages: a vault's history and statement as tables, the charts left to the browser; periods and accounts",
    async ({ t, ourVault, admin }) => {
      const history = await rendered(
        t,
        `/ledger?vault=${ourVault.id}&days=7`,
        admin,
        'ledger-page',
      );
      expect(history.root).toContain('the figures as a table');
      expect(history.root).toContain('Ours vault');
      // A chart's canvas is drawn in the browser once the page is there: none from the server.
      expect(history.root).not.toContain('<canvas');
      const statement = await rendered(
        t,
        `/ledger/statement?vault=${ourVault.id}`,
        admin,
        'ledger-statement-page',
      );
      // The vault's opening balance, this month, as a line of its statement.
      expect(statement.root).toContain('opening balance');
      const periods = await rendered(t, '/ledger/periods', admin, 'ledger-periods-page');
      expect(periods.root).toContain('Ledger periods');
      const accounts = await rendered(t, '/ledger/accounts', admin, 'ledger-accounts-page');
      expect(accounts.root).toContain('Ours vault (every asset)');
    },
  );
});
