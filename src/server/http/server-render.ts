import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'hono';
import type { PageRenderer, RenderedPage } from '#contract/page-render.ts';
import type { AppEnv } from './app-env.ts';
import { PARENT_REQUEST_ID } from './request-log.ts';

/**
 * The signed-in first screen rendered on the server (ARCHITECTURE.md,
 * "Server-rendered first screen"): the SPA's own routes and components,
 * compiled by `vite build --ssr` to dist/ssr/entry-server.js
 * (src/web/entry-server.tsx), fill index.html's #root with the page's rows,
 * and the query cache they were rendered from goes along for the browser to
 * hydrate from. A page that cannot be rendered here (signed out, another
 * route, a failed read, no SSR build) is served as the plain SPA shell.
 */

export type { PagePlan, PageRenderer, RenderedPage } from '#contract/page-render.ts';

/** How a request reaches the app in process: the composed app's `request` (app.ts). */
export type InProcessRequest = (
  input: string,
  init: RequestInit,
  env: unknown,
) => Response | Promise<Response>;

/** The build's render entry, dist/ssr/entry-server.js beside the SPA's build directory. */
export function renderEntryPath(staticDir: string): string {
  return path.join(path.dirname(staticDir), 'ssr', 'entry-server.js');
}

/**
 * Loads dist/ssr/entry-server.js beside the SPA's build directory once, on
 * first use; `undefined` while there is none (a dev server, a build without
 * it), checked again on later requests so a build made after start is used.
 */
export function builtRenderer(staticDir: string): () => Promise<PageRenderer | undefined> {
  const entry = renderEntryPath(staticDir);
  let loaded: Promise<PageRenderer | undefined> | undefined;
  return () => {
    if (loaded) return loaded;
    if (!existsSync(entry)) return Promise.resolve(undefined);
    loaded = import(pathToFileURL(entry).href).then((mod: Partial<PageRenderer>) =>
      typeof mod.planPage === 'function' ? (mod as PageRenderer) : undefined,
    );
    // A build that fails to load is tried again on a later request (after a rebuild).
    loaded.catch(() => (loaded = undefined));
    return loaded;
  };
}

// The page request's headers that an API request made on its behalf carries:
// who it is (the cookie), where it was addressed (the Host the server checks),
// what a trusted proxy said of it, and the caller's own request id.
const FORWARDED = [
  'cookie',
  'host',
  'user-agent',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-request-id',
];

/**
 * A fetch that asks the app in process, as the visitor of the page request
 * `c`; its reads take the page request's id (through the env, which no
 * header can set: http/request-log.ts), so their log lines read together.
 */
export function visitorFetch(c: Context<AppEnv>, request: InProcessRequest) {
  const env = {
    ...(c.env as Record<string, unknown> | undefined),
    [PARENT_REQUEST_ID]: c.get('requestId'),
  };
  return (input: string, init: RequestInit): Response | Promise<Response> => {
    const headers = new Headers(init.headers);
    for (const name of FORWARDED) {
      const value = c.req.header(name);
      if (value) headers.set(name, value);
    }
    // Answered uncompressed: it never leaves the process.
    headers.delete('accept-encoding');
    return request(new URL(input, c.req.url).href, { ...init, headers }, env);
  };
}

/** index.html cut where a rendered page goes: what comes before its markup, and after. */
export interface PageParts {
  /** Up to and including `<div id="root">`: sent before the page is rendered. */
  head: string;
  /** The rest of the document once the render has settled (`undefined`: the plain shell). */
  tail(page: RenderedPage | undefined): string;
  /** `'sha256-…'` sources for the page's `script-src`: its one inline script, the app's loader. */
  scriptSources: string[];
}

const ROOT = '<div id="root"></div>';
const SAFE_ID = /^[A-Za-z][\w-]*$/;
// The head's module scripts and module preloads, as vite writes them.
const APP_SCRIPTS =
  /[ \t]*<script type="module"[^>]*><\/script>\n?|[ \t]*<link rel="modulepreload"[^>]*>\n?/g;

/**
 * index.html split around #root, for a page sent in two parts: the head goes
 * out at once, so the browser fetches the stylesheet and the app and sets up
 * the document while the server renders; the rendered markup follows inside
 * #root with its state right after it. The rows come first in the bytes the
 * browser parses, and the state (tens of kilobytes of JSON) is in the
 * document before the app's module script runs, which waits for the whole
 * document. A render that gives nothing closes #root empty: the plain shell.
 *
 * The head also asks the browser not to paint before it has parsed the
 * element that closes the first screen (`<link rel="expect"
 * blocking="render">`, HTML's render-blocking). Without it Chromium parsed
 * the header and filters, stopped, and spent a whole style, layout and paint
 * pass on them (100–230 ms on a loaded machine) before parsing the rows
 * below; with it the first paint is the whole first screen. A browser
 * without the feature ignores the link, and one whose page never holds the
 * element (the shell) paints once the document is parsed.
 *
 * `undefined` when index.html has no empty #root to fill.
 */
export function pageParts(html: string, firstScreenId: string): PageParts | undefined {
  const at = html.indexOf(ROOT);
  if (at === -1) return undefined;
  const expect = SAFE_ID.test(firstScreenId)
    ? `<link rel="expect" href="#${firstScreenId}" blocking="render" />\n  </head>`
    : '</head>';
  // The app's module and chunk preloads wait for the rows: fetched and compiled
  // during the render, they took the CPU the render needed.
  const deferred: string[] = [];
  const before = html
    .slice(0, at)
    .replace(APP_SCRIPTS, (tag) => {
      deferred.push(tag);
      return '';
    })
    .replace('</head>', () => expect);
  const after = html.slice(at + ROOT.length);
  const scripts = deferred.length ? `\n    ${deferred.join('\n    ')}` : '';
  const loader = appLoader(deferred);
  return {
    head: `${before}<div id="root">`,
    tail: (page) =>
      page
        ? `${page.html}</div>\n    ${page.stateScript}${loader ? `<script>${loader}</script>` : scripts}${after}`
        : `</div>${scripts}${after}`,
    scriptSources: loader
      ? [`'sha256-${createHash('sha256').update(loader).digest('base64')}'`]
      : [],
  };
}

const APP_FILE = /\s(?:src|href)="([^"]+)"/;

/**
 * The inline script that starts the app once the rendered first screen is
 * painted, in place of its module script and preloads. Fetched and compiled
 * as soon as the rows arrived, the app's 140 KB took the two cores the
 * browser was parsing, styling and laying out the rows with: traced, the
 * rows were parsed 15–20 ms later and painted 20–50 ms later than with the
 * app asked for one frame after (A/B of 12 cold loads each, every page).
 * What the visitor sees first is the server's markup either way, its links
 * plain links; the app takes over a frame later. A hidden document (a tab
 * opened in the background) paints no frame: it starts the app at once, and
 * one whose frame is slow in coming starts it after half a second.
 *
 * Undefined when there is nothing to start, or a tag it cannot read.
 */
function appLoader(tags: readonly string[]): string | undefined {
  const files: Array<[number, string]> = [];
  for (const tag of tags) {
    const file = APP_FILE.exec(tag)?.[1];
    if (!file) return undefined;
    files.push([/^\s*<script/.test(tag) ? 1 : 0, file]);
  }
  if (files.length === 0) return undefined;
  // `<` escaped: no file name can close the script element it is written in.
  const list = JSON.stringify(files).replace(/</g, '\\u003c');
  return (
    `(()=>{let started=0;const start=()=>{if(started)return;started=1;` +
    `for(const[script,file]of ${list}){const e=document.createElement(script?"script":"link");` +
    `e.crossOrigin="";if(script){e.type="module";e.src=file}else{e.rel="modulepreload";e.href=file}` +
    `document.head.append(e)}};` +
    `if(document.visibilityState==="hidden")start();` +
    `else{requestAnimationFrame(()=>setTimeout(start));setTimeout(start,500)}})()`
  );
}
