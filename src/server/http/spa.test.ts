import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { brotliDecompressSync, constants as zlibConstants, gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { pino } from 'pino';
import { beforeEach, describe, expect, it, test } from 'vitest';
import { SESSION_COOKIE } from '#contract/auth.ts';
import { createApp } from '../app.ts';
import { appTestWith } from '../test/app-test.ts';
import type { TestApp } from '../test/test-app.ts';
import { generateApiUserKeyPair } from '../protocol/ecdsa-keys.ts';
import { createUpstreamBackend } from '../wiring/upstream-backend.ts';
import type { Database } from '../db/client.ts';
import { ForegroundPages } from '../db/foreground.ts';
import { precompressDirectory } from '../../../scripts/precompress.ts';
import { pageParts, type PageRenderer, type RenderedPage } from './server-render.ts';
import { spaRoutes } from './spa.ts';
import type { AppEnv } from './app-env.ts';

// No database needed: the SPA routes never touch it.
const database = { driver: 'pglite' as const, ping: async () => {} };
const backend = createUpstreamBackend({
  baseUrl: 'https://custody.example.com',
  apiKey: 'console-api-key',
  privateKey: generateApiUserKeyPair().privateKeyHex,
  timeoutMs: 1000,
  db: {} as Database,
});
const INDEX =
  '<!doctype html><html><head><title>Custody Console</title></head><body><div id="root"></div><script src="/assets/index-abc123.js"></script></body></html>';

const BIG_JS = Array.from({ length: 200 }, (_, i) => `export const value${i} = "${i}";`).join('\n');

/**
 * `build`, a build directory as `vite build` leaves it (precompressed as the
 * build does), removed after the file's last test; `app`, the app serving it
 * with no database: the SPA routes never touch it.
 */
const spaTest = test
  // eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from its first argument's pattern
  .extend('build', { scope: 'file' }, async ({}, { onCleanup }) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'spa-test-'));
    onCleanup(() => rm(dir, { recursive: true, force: true }));
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'index.html'), INDEX);
    await writeFile(path.join(dir, 'assets', 'index-abc123.js'), 'console.log("app")');
    await writeFile(path.join(dir, 'assets', 'index-abc123.css'), 'body{}');
    await writeFile(path.join(dir, 'favicon.svg'), '<svg/>');
    // A chunk big enough to be worth compressing, precompressed as the build does.
    await writeFile(path.join(dir, 'assets', 'vendor-def456.js'), BIG_JS);
    await precompressDirectory(dir);
    return dir;
  })
  .extend('app', { scope: 'file' }, ({ build }) =>
    createApp({
      config: { staticDir: build },
      backend,
      database,
      logger: pino({ level: 'silent' }),
      // The SPA routes never reach the database.
      auth: { db: {} as Database },
    }),
  );

/** The app over a database of its own, serving the shell: sessions are looked up. */
const shellTest = appTestWith({ staticFiles: { 'index.html': INDEX } });

const html = { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } };

describe('serving the SPA', () => {
  spaTest('serves hashed assets for a year, immutable', async ({ app }) => {
    const res = await app.request('/assets/index-abc123.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('Content-Type')).toMatch(/javascript/);
    expect(await res.text()).toBe('console.log("app")');
    expect((await app.request('/assets/index-abc123.css')).headers.get('Content-Type')).toMatch(
      /css/,
    );
  });

  spaTest(
    'precompresses only files worth it, and answers brotli, then gzip, by Accept-Encoding',
    async ({ app, build }) => {
      expect((await readdir(path.join(build, 'assets'))).sort()).toEqual([
        'index-abc123.css',
        'index-abc123.js',
        'vendor-def456.js',
        'vendor-def456.js.br',
        'vendor-def456.js.gz',
      ]);
      const url = '/assets/vendor-def456.js';
      const br = await app.request(url, { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
      expect(br.headers.get('Content-Encoding')).toBe('br');
      expect(br.headers.get('Content-Type')).toMatch(/javascript/);
      expect(br.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
      expect(br.headers.get('Vary')).toBe('Accept-Encoding');
      const brBytes = Buffer.from(await br.arrayBuffer());
      expect(brBytes.length).toBeLessThan(BIG_JS.length / 4);
      expect(brotliDecompressSync(brBytes).toString()).toBe(BIG_JS);

      const gz = await app.request(url, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(gz.headers.get('Content-Encoding')).toBe('gzip');
      expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(BIG_JS);

      const plain = await app.request(url);
      expect(plain.headers.get('Content-Encoding')).toBeNull();
      // Varies all the same: a shared cache must not hand this copy to a brotli client.
      expect(plain.headers.get('Vary')).toBe('Accept-Encoding');
      expect(await plain.text()).toBe(BIG_JS);
    },
  );

  spaTest('answers a missing asset with 404, never with index.html', async ({ app }) => {
    const res = await app.request('/assets/index-old999.js', html);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('<div id="root">');
  });

  spaTest(
    'serves index.html uncached for the sign-in page, query strings included',
    async ({ app }) => {
      for (const url of ['/login', '/login?redirect=%2Ftransactions']) {
        const res = await app.request(url, html);
        expect(res.status, url).toBe(200);
        expect(res.headers.get('Cache-Control'), url).toBe('no-cache');
        expect(res.headers.get('Content-Type'), url).toMatch(/text\/html/);
        expect(await res.text(), url).toBe(INDEX);
      }
    },
  );

  spaTest(
    'sends a visitor without a session to sign in at once, naming the page to come back to',
    async ({ app }) => {
      // Not the app first: it would ask for the page's reads, meet 401s and only
      // then route to the sign-in page, blank in between.
      for (const [url, to] of [
        ['/', '/login'],
        ['/index.html', '/login'],
        ['/transactions', '/login?redirect=%2Ftransactions'],
        [
          '/transactions?status=PENDING&cursor=abc',
          '/login?redirect=%2Ftransactions%3Fstatus%3DPENDING%26cursor%3Dabc',
        ],
        ['/bank-accounts/123', '/login?redirect=%2Fbank-accounts%2F123'],
      ] as const) {
        const res = await app.request(url, html);
        expect(res.status, url).toBe(302);
        expect(res.headers.get('Location'), url).toBe(to);
        expect(res.headers.get('Cache-Control'), url).toBe('no-store');
        expect(res.headers.get('Vary'), url).toBe('Cookie');
      }
    },
  );

  shellTest(
    'names the first reads of /transactions for preload to a visitor with a live session, and no data',
    async ({ t }) => {
      const signedIn = { headers: { ...html.headers, Cookie: t.admin.cookie } };
      const res = await t.anonymous('/transactions', signedIn);
      expect(res.headers.get('Vary')).toBe('Cookie');
      const page = await res.text();
      // URLs only: each is an ordinary API request, checked for the session when the browser sends it.
      expect(page).toBe(
        INDEX.replace(
          '</head>',
          '<link rel="preload" as="fetch" crossorigin href="/auth/session">\n' +
            '<link rel="preload" as="fetch" crossorigin href="/api/external/transactions/?limit=20">\n</head>',
        ),
      );
      expect((await t.anonymous('/transactions', html)).status).toBe(302);
      expect(await (await t.anonymous('/bank-accounts', signedIn)).text()).toBe(INDEX);
      // A cookie naming no session: sent to sign in, nothing preloaded.
      for (const cookie of [`${SESSION_COOKIE}=made-up`, `${SESSION_COOKIE}=${'A'.repeat(43)}`]) {
        const made = { headers: { ...html.headers, Cookie: cookie } };
        const res = await t.anonymous('/transactions', made);
        expect(res.status).toBe(302);
        expect(res.headers.get('Location')).toBe('/login?redirect=%2Ftransactions');
      }
    },
  );

  spaTest('serves index.html to clients that accept anything (curl)', async ({ app }) => {
    const res = await app.request('/login', { headers: { Accept: '*/*' } });
    expect(res.status).toBe(200);
  });

  spaTest('serves other files from the build with a short cache', async ({ app }) => {
    const res = await app.request('/favicon.svg');
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=3600');
  });

  spaTest('does not answer API, auth or non-HTML requests with the SPA', async ({ app }) => {
    const api = await app.request('/api/nothing', html);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
    expect((await app.request('/auth/login', html)).status).toBe(404);
    expect(
      (await app.request('/transactions', { headers: { Accept: 'application/json' } })).status,
    ).toBe(404);
    expect((await app.request('/transactions', { ...html, method: 'POST' })).status).toBe(404);
  });

  spaTest('refuses paths that climb out of the build directory', async ({ app }) => {
    // (A literal ../ is resolved by URL parsing before it reaches the server.)
    const res = await app.request('/assets/..%2f..%2fpackage.json');
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('dependencies');
  });

  spaTest('says to build the SPA when it is not built', async ({ build }) => {
    const bare = createApp({
      config: { staticDir: path.join(build, 'missing') },
      backend,
      database,
      logger: pino({ level: 'silent' }),
      auth: { db: {} as Database },
    });
    const res = await bare.request('/transactions', html);
    expect(res.status).toBe(503);
    expect(await res.text()).toMatch(/npm run build/);
    // Built after the server started: served at once, not remembered as missing.
    await mkdir(path.join(build, 'missing'));
    await writeFile(path.join(build, 'missing', 'index.html'), INDEX);
    const built = await bare.request('/login', html);
    expect(built.status).toBe(200);
    expect(await built.text()).toContain('<div id="root"></div>');
  });
});

// The render entry stands in here; server-render.test.ts runs the real one.
// The next render settles when the test releases it, whenever the server asks for it.
let release: (page: RenderedPage | undefined) => void = () => {};
let rendered = Promise.resolve<RenderedPage | undefined>(undefined);
const nextRender = () => {
  rendered = new Promise((resolve) => (release = resolve));
};
let failure: Error | undefined;
const warnings: string[] = [];
/** Whether the last page planned was told its reads are the server's own answers. */
let builtHere: boolean | undefined;
const standIn: PageRenderer = {
  planPage: ({ href, answersBuiltHere }) => {
    builtHere = answersBuiltHere;
    return href.startsWith('/transactions')
      ? {
          firstScreenId: 'tx-results',
          render: () => (failure ? Promise.reject(failure) : rendered),
        }
      : undefined;
  },
};
/** A database of its own: a page is planned only for a session that resolves. */
const renderTest = appTestWith({
  staticFiles: { 'index.html': INDEX },
  logger: pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) }),
  pageRenderer: () => Promise.resolve(standIn),
});

describe('a server-rendered page, sent in two parts', () => {
  beforeEach(() => {
    failure = undefined;
    nextRender();
  });

  const ROWS: RenderedPage = {
    html: '<section><table><tbody><tr><td>row</td></tr></tbody></table><div id="tx-results"></div></section>',
    stateScript: '<script type="application/json" id="console-server-state">{}</script>',
  };
  /** A page request's init as the app's admin sends it (`t.anonymous` sends it as it is). */
  const signedIn = (t: TestApp, headers: Record<string, string> = {}) => ({
    headers: { ...html.headers, Cookie: t.admin.cookie, ...headers },
  });
  const decoder = new TextDecoder();
  async function untilRendered(res: Response, decode: (bytes: Uint8Array) => string) {
    const reader = res.body?.getReader();
    if (!reader) throw new Error('no body');
    const first = await reader.read();
    const head = decode(first.value ?? new Uint8Array());
    return {
      head,
      async rest(page: RenderedPage | undefined) {
        release(page);
        const chunks: Uint8Array[] = [first.value ?? new Uint8Array()];
        for (let next = await reader.read(); !next.done; next = await reader.read())
          chunks.push(next.value);
        return decode(Buffer.concat(chunks));
      },
    };
  }

  renderTest(
    'sends the head before the render has settled, then the rows inside #root',
    async ({ t }) => {
      const res = await t.anonymous('/transactions', signedIn(t));
      expect(res.status).toBe(200);
      // The member's rows and CSRF token: stored by no cache, the browser's own included.
      expect(res.headers.get('Cache-Control')).toBe('no-store');
      expect(res.headers.get('Vary')).toMatch(/Cookie/);
      const page = await untilRendered(res, (b) => decoder.decode(b));
      // The sandbox's answers are built here: the render may take plain ones unchecked.
      expect(builtHere).toBe(true);
      // The browser may fetch the app and set up the document while the server renders.
      expect(page.head).toBe(
        '<!doctype html><html><head><title>Custody Console</title><link rel="expect" href="#tx-results" blocking="render" />\n  </head><body><div id="root">',
      );
      expect(await page.rest(ROWS)).toBe(
        `${page.head}${ROWS.html}</div>\n    ${ROWS.stateScript}<script src="/assets/index-abc123.js"></script></body></html>`,
      );
    },
  );

  renderTest('flushes the head through brotli, and the whole page decodes', async ({ t }) => {
    const res = await t.anonymous('/transactions', signedIn(t, { 'Accept-Encoding': 'br' }));
    expect(res.headers.get('Content-Encoding')).toBe('br');
    expect(res.headers.get('Vary')).toMatch(/Accept-Encoding/);
    const partial = (b: Uint8Array) =>
      brotliDecompressSync(b, { finishFlush: zlibConstants.BROTLI_OPERATION_FLUSH }).toString();
    const page = await untilRendered(res, partial);
    expect(page.head).toMatch(/<div id="root">$/);
    const whole = await page.rest(ROWS);
    expect(whole).toContain(`<div id="root">${ROWS.html}</div>`);
    expect(whole).toMatch(/<\/html>$/);
  });

  renderTest(
    'closes #root empty when the render gives nothing: the browser renders the page',
    async ({ t }) => {
      const page = await untilRendered(await t.anonymous('/transactions', signedIn(t)), (b) =>
        decoder.decode(b),
      );
      const whole = await page.rest(undefined);
      expect(whole).toContain('<div id="root"></div><script src="/assets/index-abc123.js">');
      expect(whole).not.toContain('console-server-state');
    },
  );

  renderTest(
    'closes #root empty and logs when the render throws; the status stays 200',
    async ({ t }) => {
      failure = new Error('render exploded');
      const res = await t.anonymous('/transactions', signedIn(t, { 'Accept-Encoding': 'gzip' }));
      expect(res.status).toBe(200);
      const whole = gunzipSync(Buffer.from(await res.arrayBuffer())).toString();
      expect(whole).toContain('<div id="root"></div>');
      expect(warnings.join('\n')).toMatch(/server render failed; sent the shell/);
    },
  );

  renderTest(
    'serves another page, and the sign-in page, as the plain shell in one piece',
    async ({ t }) => {
      for (const res of [
        await t.anonymous('/bank-accounts', signedIn(t)),
        await t.anonymous('/login', html),
      ]) {
        expect(res.status).toBe(200);
        const text = await res.text();
        expect(text).toContain('<div id="root"></div>');
        expect(text).not.toContain('rel="expect"');
      }
    },
  );
});

describe('a page being rendered, for the simulator beside the embedded database', () => {
  it('is counted from its plan until its rows are written; a page not rendered is let go at once', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'spa-foreground-'));
    try {
      await writeFile(path.join(dir, 'index.html'), INDEX);
      const pages = new ForegroundPages();
      let holds = 0;
      const foreground = {
        hold: () => {
          holds += 1;
          return pages.hold();
        },
      };
      let finish: (page: RenderedPage) => void = () => {};
      let asked: () => void = () => {};
      const renderAsked = new Promise<void>((resolve) => (asked = resolve));
      const renderer: PageRenderer = {
        planPage: ({ href }) =>
          href.startsWith('/transactions')
            ? {
                firstScreenId: 'tx-results',
                render: () =>
                  new Promise<RenderedPage>((resolve) => {
                    finish = resolve;
                    asked();
                  }),
              }
            : undefined,
      };
      const app = new Hono<AppEnv>()
        .use(async (c, next) => {
          c.set('log', pino({ level: 'silent' }));
          await next();
        })
        .route(
          '/',
          spaRoutes(dir, {
            request: () => new Response('{}'),
            liveSession: () => Promise.resolve({ colorScheme: 'system' }),
            renderer: () => Promise.resolve(renderer),
            foreground,
          }),
        );
      const signedIn = { headers: { ...html.headers, Cookie: `${SESSION_COOKIE}=s` } };

      const res = await app.request('/transactions', signedIn);
      const reader = res.body?.getReader();
      if (!reader) throw new Error('no body');
      await reader.read();
      await renderAsked;
      // The head is out and the rows are not: the page still holds the database's next batch off.
      expect(pages.inProgress()).toBe(1);
      finish({ html: '<div id="tx-results"></div>', stateScript: '' });
      while (!(await reader.read()).done);
      expect(pages.inProgress()).toBe(0);

      // A page the browser renders alone is sent in one piece, and held no longer than that.
      const shell = await app.request('/bank-accounts', signedIn);
      expect(await shell.text()).toContain('<div id="root"></div>');
      expect(pages.inProgress()).toBe(0);
      expect(holds).toBe(2);
      // Signed out, nothing is rendered and nothing held.
      await app.request('/login', html);
      expect(holds).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

const SHEET = 'body{margin:0}';
const INDEX_WITH_SHEET = INDEX.replace(
  '</head>',
  '<link rel="stylesheet" crossorigin href="/assets/index-ccc.css"></head>',
);
/** A console built as `index` (with the sheet), rendering `/transactions` alone on the server. */
const renderingTransactions = (index: string) =>
  appTestWith({
    staticFiles: { 'index.html': index, 'assets/index-ccc.css': SHEET },
    pageRenderer: () =>
      Promise.resolve<PageRenderer>({
        planPage: ({ href }) =>
          href.startsWith('/transactions')
            ? {
                firstScreenId: 'tx-results',
                render: () =>
                  Promise.resolve({ html: '<div id="tx-results"></div>', stateScript: '' }),
              }
            : undefined,
      }),
  });
const styledTest = renderingTransactions(INDEX_WITH_SHEET);

describe('a server-rendered page’s stylesheet', () => {
  const asAdmin = (t: TestApp) => ({ headers: { ...html.headers, Cookie: t.admin.cookie } });

  styledTest(
    'is in its head, allowed by its hash alone: the first paint waits for no request',
    async ({ t }) => {
      const res = await t.anonymous('/transactions', asAdmin(t));
      const text = await res.text();
      expect(text).toContain(
        `<title>Custody Console</title><style>${SHEET}</style><link rel="expect"`,
      );
      expect(text).not.toContain('rel="stylesheet"');
      const hash = createHash('sha256').update(SHEET).digest('base64');
      const policy = res.headers.get('Content-Security-Policy') ?? '';
      expect(policy).toContain(`style-src 'self' 'sha256-${hash}';`);
      // The rest of the policy as every answer has it.
      expect(policy.replace(` 'sha256-${hash}'`, '')).toBe(
        (await t.anonymous('/login', html)).headers.get('Content-Security-Policy'),
      );
    },
  );

  styledTest(
    'stays linked, cacheable, in the plain shell, whose policy allows no inline style',
    async ({ t }) => {
      const res = await t.anonymous('/bank-accounts', asAdmin(t));
      expect(await res.text()).toContain(
        '<link rel="stylesheet" crossorigin href="/assets/index-ccc.css">',
      );
      expect(res.headers.get('Content-Security-Policy')).toContain("style-src 'self';");
    },
  );
});

const INDEX_WITH_APP = INDEX_WITH_SHEET.replace(
  '</head>',
  '<script type="module" crossorigin src="/assets/index-aaa.js"></script></head>',
);
const appStartedTest = renderingTransactions(INDEX_WITH_APP);

describe('a server-rendered page’s app', () => {
  appStartedTest(
    'is started by the one inline script the page’s policy allows, by its hash',
    async ({ t }) => {
      const res = await t.anonymous('/transactions', {
        headers: { ...html.headers, Cookie: t.admin.cookie },
      });
      const text = await res.text();
      expect(text).not.toContain('<script type="module"');
      const loader = /<script>(.*?)<\/script>/s.exec(text)?.[1] ?? '';
      expect(loader).toContain('"/assets/index-aaa.js"');
      const script = createHash('sha256').update(loader).digest('base64');
      const style = createHash('sha256').update(SHEET).digest('base64');
      const policy = res.headers.get('Content-Security-Policy') ?? '';
      expect(policy).toContain(`script-src 'self' 'sha256-${script}';`);
      // Nothing else: the rest as every answer has it.
      expect(policy.replace(` 'sha256-${script}'`, '').replace(` 'sha256-${style}'`, '')).toBe(
        (await t.anonymous('/login', html)).headers.get('Content-Security-Policy'),
      );
    },
  );
});

let plans = 0;
const countingTest = appTestWith({
  staticFiles: { 'index.html': INDEX },
  pageRenderer: () =>
    Promise.resolve<PageRenderer>({
      planPage: () => {
        plans += 1;
        return { firstScreenId: 'tx-results', render: () => Promise.resolve(undefined) };
      },
    }),
});

describe('a made-up session cookie', () => {
  countingTest(
    'is never planned for a render: one cheap lookup, then the sign-in page',
    async ({ t }) => {
      for (const cookie of [
        `${SESSION_COOKIE}=made-up`,
        `${SESSION_COOKIE}=${'B'.repeat(43)}`,
        `${SESSION_COOKIE}=${'C'.repeat(43)}`,
      ]) {
        const res = await t.anonymous('/transactions', {
          headers: { ...html.headers, Cookie: cookie },
        });
        expect(res.status).toBe(302);
        expect(res.headers.get('Location')).toBe('/login?redirect=%2Ftransactions');
      }
      expect(plans).toBe(0);
      // A live session is planned as before.
      await (
        await t.anonymous('/transactions', {
          headers: { ...html.headers, Cookie: t.admin.cookie },
        })
      ).text();
      expect(plans).toBe(1);
    },
  );
});

describe('pageParts', () => {
  const VITE_INDEX = `<!doctype html>
<html lang="en">
  <head>
    <title>Custody Console</title>
    <script type="module" crossorigin src="/assets/index-aaa.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/route-bbb.js">
    <link rel="stylesheet" crossorigin href="/assets/index-ccc.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

  const loaderOf = (tail: string) => /<script>(.*?)<\/script>/s.exec(tail)?.[1] ?? '';

  /** Runs a page's loader against a document of its own: what it adds to the head, and when. */
  function runLoader(loader: string, visibilityState: 'visible' | 'hidden') {
    const added: Array<Record<string, string>> = [];
    const frames: Array<() => void> = [];
    const timers: Array<{ run: () => void; ms: number }> = [];
    const document = {
      visibilityState,
      createElement: (tag: string): Record<string, string> => ({ tag }),
      head: { append: (element: Record<string, string>) => added.push({ ...element }) },
    };
    new Function('document', 'requestAnimationFrame', 'setTimeout', loader)(
      document,
      (run: () => void) => frames.push(run),
      (run: () => void, ms = 0) => timers.push({ run, ms }),
    );
    return { added, frames, timers };
  }

  const APP = [
    { tag: 'script', crossOrigin: '', type: 'module', src: '/assets/index-aaa.js' },
    { tag: 'link', crossOrigin: '', rel: 'modulepreload', href: '/assets/route-bbb.js' },
  ];

  it('keeps the stylesheet in the head and starts the app after the rows and their state', () => {
    const parts = pageParts(VITE_INDEX, 'tx-results');
    if (!parts) throw new Error('no parts');
    expect(parts.head).toContain(
      '<link rel="stylesheet" crossorigin href="/assets/index-ccc.css">',
    );
    expect(parts.head).not.toContain('index-aaa.js');
    expect(parts.head).not.toContain('route-bbb.js');
    const tail = parts.tail({ html: '<p>rows</p>', stateScript: '<script id="state"></script>' });
    expect(tail).toMatch(
      /^<p>rows<\/p><\/div>\s*<script id="state"><\/script><script>[^<]*<\/script>\s*<\/body>/,
    );
    // The one inline script is allowed by its hash alone.
    const loader = loaderOf(tail.replace('<script id="state"></script>', ''));
    expect(parts.scriptSources).toEqual([
      `'sha256-${createHash('sha256').update(loader).digest('base64')}'`,
    ]);
    // The shell has nothing painted to wait for: its app as index.html names it.
    const shell = parts.tail(undefined);
    expect(shell).toContain('<script type="module" crossorigin src="/assets/index-aaa.js">');
    expect(shell).toContain('<link rel="modulepreload" crossorigin href="/assets/route-bbb.js">');
  });

  it('asks for the app one frame after the first screen is painted, and once', () => {
    const parts = pageParts(VITE_INDEX, 'tx-results');
    const tail = parts?.tail({ html: '', stateScript: '' }) ?? '';
    const { added, frames, timers } = runLoader(loaderOf(tail), 'visible');
    expect(added).toEqual([]);
    // The fallback for a frame slow in coming.
    expect(timers.map((t) => t.ms)).toEqual([500]);
    for (const frame of frames) frame();
    // Not in the frame itself, which paints the rows, but in the task after it.
    expect(added).toEqual([]);
    for (const timer of timers.splice(0)) if (timer.ms === 0) timer.run();
    expect(added).toEqual(APP);
    for (const timer of timers) timer.run();
    expect(added).toEqual(APP);
  });

  it('starts the app at once in a hidden tab, which paints no frame', () => {
    const tail = pageParts(VITE_INDEX, 'tx-results')?.tail({ html: '', stateScript: '' }) ?? '';
    const { added, frames } = runLoader(loaderOf(tail), 'hidden');
    expect(added).toEqual(APP);
    expect(frames).toEqual([]);
  });

  it('writes no file name that could close the loader’s element', () => {
    // `</script` ends a script element whatever follows it but a letter.
    const hostile = VITE_INDEX.replace('index-aaa.js', 'x</script/y.js');
    const tail = pageParts(hostile, 'tx-results')?.tail({ html: '', stateScript: '' }) ?? '';
    expect(tail.match(/<\/script/g)).toHaveLength(1);
    const { added } = runLoader(loaderOf(tail), 'hidden');
    expect(added[0]?.src).toBe('/assets/x</script/y.js');
  });

  it('leaves out the expect link when the id is not a plain name', () => {
    const parts = pageParts(INDEX, '"><script>');
    expect(parts?.head).not.toContain('expect');
    expect(parts?.head).toMatch(/<div id="root">$/);
  });

  it('gives nothing for an index.html without an empty #root', () => {
    expect(pageParts('<html><body><div id="app"></div></body></html>', 'x')).toBeUndefined();
  });
});
