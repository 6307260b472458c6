import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { HOST_SESSION_COOKIE, SESSION_COOKIE } from '#contract/auth.ts';
import type { ColorScheme } from '#contract/display.ts';
import type { AppEnv } from './app-env.ts';
import { COMPRESSIBLE_FILE } from './compressible.ts';
import { encoder, pickEncoding } from './compress-json.ts';
import { dataPreloads, withDataPreloads } from './data-preload.ts';
import { stylesheetInliner } from './inline-styles.ts';
import { preloaderFor } from './route-preload.ts';
import { pagePolicy } from './security-headers.ts';
import { toWebStream } from './web-stream.ts';
import {
  builtRenderer,
  pageParts,
  visitorFetch,
  type InProcessRequest,
  type PagePlan,
  type PageParts,
  type PageRenderer,
} from './server-render.ts';

/**
 * Serves the built SPA from `staticDir` (vite's dist/web):
 * - /assets/* are content-hashed by vite, so they may be cached for ever;
 *   a missing one is a plain 404 (answering index.html would hand the browser
 *   HTML where it expects JavaScript).
 * - Files the build precompressed (x.br, x.gz beside x; see
 *   scripts/precompress.ts) are answered in the encoding the browser accepts,
 *   brotli first; every such answer varies on Accept-Encoding, so a shared
 *   cache never hands brotli to a client that did not ask for it.
 * - index.html is never cached, so a new deploy is picked up on next load.
 * - For a visitor with a live session, the pages the SPA's render entry knows
 *   are rendered here first (http/server-render.ts): the rows are in the
 *   HTML, and the page is `no-store`.
 * - Any other GET that accepts HTML and is not /api or /auth gets index.html:
 *   client-side routes like /transactions?status=PENDING load the app, which
 *   then routes itself.
 * - A visitor known to have no live session is sent to /login at once
 *   (?redirect= naming the page, as the SPA's own guard does): otherwise the
 *   app loads, asks for the page's data, meets 401s and only then goes to the
 *   sign-in page, a blank screen in between.
 * - A signed-in member's colour scheme, when not the system's, is on the
 *   page's `<html data-theme>` from the first byte (styles.css), so the first
 *   paint is in it, rendered page or shell.
 */

const IMMUTABLE = 'public, max-age=31536000, immutable';
const INDEX_FRESH_MS = 1000;
const NO_CACHE = 'no-cache';
// A rendered page holds the member's rows and their session's CSRF token: kept
// nowhere, not even in the browser's own cache after they sign out.
const NO_STORE = 'no-store';
// Files copied from public/ keep their names, so they may change between deploys.
const SHORT_CACHE = 'public, max-age=3600';

const NOT_BUILT =
  "The console's web app has not been built yet. Run `npm run build` (or `npm start`, which builds it first), then reload this page.\n";

const LOGIN_PATH = '/login';
/** Pages for a visitor without a session: sign-in, and a new member's set-up (its code after `#`). */
const OPEN_PAGES = new Set([LOGIN_PATH, '/setup']);

/** The sign-in page, naming the page to return to (none for the home page, which picks its own). */
function signInTarget(url: URL): string {
  const back = `${url.pathname}${url.search}`;
  if (url.pathname === '/' || url.pathname === '/index.html') return LOGIN_PATH;
  return `${LOGIN_PATH}?${new URLSearchParams({ redirect: back }).toString()}`;
}

function isServerPath(p: string): boolean {
  return (
    p === '/api' ||
    p.startsWith('/api/') ||
    p === '/auth' ||
    p.startsWith('/auth/') ||
    p === '/healthz'
  );
}

/** A browser navigation asks for text/html; curl and fetch() default to any type. */
function acceptsHtml(c: Context): boolean {
  const accept = c.req.header('accept');
  return !accept || accept.includes('text/html') || accept.includes('*/*');
}

/**
 * A rendered page in two parts (server-render.ts, `pageParts`): the head at
 * once, the rest when the render settles. Tens of kilobytes of rows and their
 * state, so brotli- or gzip-encoded as the browser accepts, each part flushed
 * to the client as it is ready. A render that throws is logged and the page
 * closes as the plain shell; the status is 200 either way.
 */
function streamPage(
  c: Context<AppEnv>,
  parts: PageParts,
  plan: PagePlan,
  rendered: () => void,
): Response {
  c.header('Vary', 'Accept-Encoding', { append: true });
  c.header('Content-Type', 'text/html; charset=UTF-8');
  // Declared chunked, @hono/node-server writes each part as it comes; otherwise
  // it waits a moment to see whether the whole body is there to measure, and a
  // render with nothing to wait for (the read cache) finishes within that moment.
  c.header('Transfer-Encoding', 'chunked');
  const encoding = pickEncoding(c.req.header('Accept-Encoding'));
  const { stream, flush } = encoding
    ? encoder(encoding)
    : { stream: new PassThrough(), flush: () => Promise.resolve() };
  if (encoding) c.header('Content-Encoding', encoding);
  // A visitor who leaves mid-render destroys the stream; nothing is left to tell.
  stream.on('error', () => {});
  stream.write(parts.head);
  void flush()
    // A turn of the event loop first, so the head is on the wire before the
    // render's synchronous work (routing, renderToString) holds the thread.
    .then(() => new Promise((resolve) => setImmediate(resolve)))
    .then(() => plan.render())
    .catch((error: unknown) => {
      // The shell still works: the browser renders the page as it would without this.
      c.get('log').warn({ err: error, path: c.req.path }, 'server render failed; sent the shell');
      return undefined;
    })
    .then((page) => {
      if (!stream.destroyed) stream.end(parts.tail(page));
    })
    .finally(rendered);
  return c.body(toWebStream(stream));
}

/** What a page needs of its visitor's live session before it is planned. */
export interface PageVisitor {
  colorScheme: ColorScheme;
}

/**
 * index.html with the member's colour scheme on its `<html>`: nothing for
 * the system's (the stylesheet follows the system by default).
 */
export function withColorScheme(html: string, scheme: ColorScheme | undefined): string {
  if (scheme !== 'light' && scheme !== 'dark') return html;
  return html.replace(/<html(?=[\s>])/, `<html data-theme="${scheme}"`);
}

export interface SpaOptions {
  /** The composed app, asked in process for the reads of a server render. */
  request?: InProcessRequest;
  /**
   * The visitor's live session, if their session cookie names one: one
   * lookup before a page is planned or its reads are preloaded. Null when it
   * names none (no cookie, a made-up or ended one): the visitor is sent to
   * sign in. Undefined when it could not be told (the database is down): the
   * plain shell, whose own reads get the real answer. Default: a session
   * cookie is enough (the reads themselves still check it), with the system's
   * colour scheme.
   */
  liveSession?: (c: Context<AppEnv>) => Promise<PageVisitor | null | undefined>;
  /** The render entry; default: the build's dist/ssr beside `staticDir`. */
  renderer?: () => Promise<PageRenderer | undefined>;
  /** The API's answers are this server's own (the sandbox), not an upstream's passed through. */
  answersBuiltHere?: boolean;
  /** The pages being rendered, counted for the embedded database's simulator (db/foreground.ts). */
  foreground?: { hold(): () => void };
}

export function spaRoutes(staticDir: string, options: SpaOptions = {}) {
  const indexPath = path.join(staticDir, 'index.html');
  const withPreloads = preloaderFor(staticDir);
  const inlineStyles = stylesheetInliner(staticDir);
  const renderer = options.renderer ?? builtRenderer(staticDir);
  // Read again at most once a second, so a rebuild is served without a restart;
  // opening, reading and closing it for every page was 3% of a rendered page's CPU.
  let index: { text: Promise<string>; at: number } | undefined;
  const readIndex = (): Promise<string> => {
    const now = performance.now();
    if (!index || now - index.at > INDEX_FRESH_MS) {
      const text = readFile(indexPath, 'utf8');
      index = { text, at: now };
      // A missing build is looked for again on the next request.
      text.catch(() => {
        if (index?.text === text) index = undefined;
      });
    }
    return index.text;
  };

  /** The plan for this page as this visitor, or undefined: then the browser renders it alone. */
  async function planned(c: Context<AppEnv>): Promise<PagePlan | undefined> {
    if (!options.request) return undefined;
    try {
      const entry = await renderer();
      if (!entry) return undefined;
      const url = new URL(c.req.url);
      // Awaited here, so a plan that fails (a render thread gone) is caught below.
      return await entry.planPage({
        href: `${url.pathname}${url.search}`,
        fetch: visitorFetch(c, options.request),
        answersBuiltHere: options.answersBuiltHere ?? false,
      });
    } catch (error) {
      c.get('log').warn({ err: error, path: c.req.path }, 'server render failed; sent the shell');
      return undefined;
    }
  }

  async function serveIndex(c: Context<AppEnv>) {
    let index: string;
    try {
      index = await readIndex();
    } catch {
      c.header('Cache-Control', 'no-store');
      return c.text(NOT_BUILT, 503);
    }
    // What it holds or preloads depends on the session cookie.
    c.header('Vary', 'Cookie');
    // Either name (auth/session-cookie.ts), and only a session that resolves: a made-up
    // cookie is treated as none.
    const hasCookie =
      getCookie(c, SESSION_COOKIE) !== undefined || getCookie(c, HOST_SESSION_COOKIE) !== undefined;
    const visitor: PageVisitor | null | undefined = !hasCookie
      ? null
      : options.liveSession
        ? await options.liveSession(c)
        : { colorScheme: 'system' };
    if (visitor === null && !OPEN_PAGES.has(c.req.path)) {
      c.header('Cache-Control', NO_STORE);
      return c.redirect(signInTarget(new URL(c.req.url)), 302);
    }
    const signedIn = visitor != null;
    const html = withColorScheme(index, visitor?.colorScheme);
    // From its plan until its rows are written, a page's reads go before the simulator's
    // next batch on the embedded database (db/foreground.ts).
    const rendered = (signedIn && options.foreground?.hold()) || (() => {});
    let streaming = false;
    try {
      const plan = signedIn ? await planned(c) : undefined;
      const page = plan && (await inlineStyles(withPreloads(html, c.req.path)));
      const parts = plan && page && pageParts(page.html, plan.firstScreenId);
      if (plan && parts) {
        // The visitor's own rows and CSRF token: no cache keeps them, the browser's included.
        c.header('Cache-Control', NO_STORE);
        c.header('Content-Security-Policy', pagePolicy(page.styleSources, parts.scriptSources));
        const response = streamPage(c, parts, plan, rendered);
        streaming = true;
        return response;
      }
      // A plan not sent is still rendered, and dropped: a render thread keeps a planned page
      // until its render is asked for.
      if (plan) void plan.render().catch(() => undefined);
    } finally {
      if (!streaming) rendered();
    }
    c.header('Cache-Control', NO_CACHE);
    // The page's own chunks start loading with the entry (http/route-preload.ts),
    // and the reads its rows wait for with them (http/data-preload.ts).
    const data = dataPreloads(new URL(c.req.url), signedIn);
    return c.html(withDataPreloads(withPreloads(html, c.req.path), data));
  }

  // Created on first use once the directory exists: serveStatic complains on
  // stderr about a missing root, and the SPA may be built after the server starts.
  const lazyStatic = (cacheControl: string): MiddlewareHandler<AppEnv> => {
    let handler: MiddlewareHandler<AppEnv> | undefined;
    // serveStatic's onFound runs after its response is built, too late for
    // c.header(); remember the hit and set the header on the response itself.
    const served = new WeakSet<Context>();
    return async (c, next) => {
      if (!handler) {
        if (!existsSync(staticDir)) return next();
        handler = serveStatic<AppEnv>({
          root: staticDir,
          precompressed: true,
          onFound: (_path, ctx) => void served.add(ctx),
        });
      }
      const res = await handler(c, next);
      if (res && served.has(c)) {
        res.headers.set('Cache-Control', cacheControl);
        if (
          COMPRESSIBLE_FILE.test(c.req.path) &&
          !res.headers.get('Vary')?.includes('Accept-Encoding')
        )
          res.headers.append('Vary', 'Accept-Encoding');
      }
      return res;
    };
  };
  const rootFiles = lazyStatic(SHORT_CACHE);

  return new Hono<AppEnv>()
    .use('/assets/*', lazyStatic(IMMUTABLE))
    .get('/assets/*', (c) => c.text('Not found\n', 404))
    .get('/', serveIndex)
    .get('/index.html', serveIndex)
    .use('*', async (c, next) => (isServerPath(c.req.path) ? next() : rootFiles(c, next)))
    .get('*', async (c, next) => {
      if (isServerPath(c.req.path) || !acceptsHtml(c)) return next();
      return serveIndex(c);
    });
}
