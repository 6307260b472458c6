import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'hono';
import type { AppEnv } from './app-env.ts';

/**
 * The signed-in first screen rendered on the server (ARCHITECTURE.md,
 * "Server-rendered first screen"): the SPA's own routes and components,
 * compiled by `vite build --ssr` to dist/ssr/entry-server.js
 * (src/web/entry-server.tsx), fill index.html's #root with the page's rows,
 * and the query cache they were rendered from goes along for the browser to
 * hydrate from. A page that cannot be rendered here (signed out, another
 * route, a failed read, no SSR build) is served as the plain SPA shell.
 */

/** The markup inside #root, and the `<script>` holding the state it was rendered from. */
export interface RenderedPage {
  html: string;
  stateScript: string;
}

/** The render entry's shape (src/web/entry-server.tsx); the server does not import web code. */
export interface PageRenderer {
  renderPage(request: {
    href: string;
    fetch: (input: string, init: RequestInit) => Response | Promise<Response>;
  }): Promise<RenderedPage | undefined>;
}

/** How a request reaches the app in process: the composed app's `request` (app.ts). */
export type InProcessRequest = (
  input: string,
  init: RequestInit,
  env: unknown,
) => Response | Promise<Response>;

/**
 * Loads dist/ssr/entry-server.js beside the SPA's build directory once, on
 * first use; `undefined` while there is none (a dev server, a build without
 * it), checked again on later requests so a build made after start is used.
 */
export function builtRenderer(staticDir: string): () => Promise<PageRenderer | undefined> {
  const entry = path.join(path.dirname(staticDir), 'ssr', 'entry-server.js');
  let loaded: Promise<PageRenderer | undefined> | undefined;
  return () => {
    if (loaded) return loaded;
    if (!existsSync(entry)) return Promise.resolve(undefined);
    loaded = import(pathToFileURL(entry).href).then((mod: Partial<PageRenderer>) =>
      typeof mod.renderPage === 'function' ? (mod as PageRenderer) : undefined,
    );
    // A build that fails to load is tried again on a later request (after a rebuild).
    loaded.catch(() => (loaded = undefined));
    return loaded;
  };
}

// The page request's headers that an API request made on its behalf carries:
// who it is (the cookie), where it was addressed (the Host the server checks),
// what a trusted proxy said of it, and its id, so its log lines read together.
const FORWARDED = [
  'cookie',
  'host',
  'user-agent',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-request-id',
];

/** A fetch that asks the app in process, as the visitor of the page request `c`. */
export function visitorFetch(c: Context<AppEnv>, request: InProcessRequest) {
  return (input: string, init: RequestInit): Response | Promise<Response> => {
    const headers = new Headers(init.headers);
    for (const name of FORWARDED) {
      const value = name === 'x-request-id' ? c.get('requestId') : c.req.header(name);
      if (value) headers.set(name, value);
    }
    // Answered uncompressed: it never leaves the process.
    headers.delete('accept-encoding');
    return request(new URL(input, c.req.url).href, { ...init, headers }, c.env);
  };
}

/**
 * index.html with the rendered page inside #root and its state right after
 * it: the rows come first in the bytes the browser parses, and the state
 * (tens of kilobytes of JSON) is in the document before the app's module
 * script runs, which waits for the whole document.
 */
export function withRenderedPage(html: string, page: RenderedPage): string {
  const root = '<div id="root"></div>';
  if (!html.includes(root)) return html;
  // A function as replacement: `$&` and friends in the page's text stay as typed.
  return html.replace(root, () => `<div id="root">${page.html}</div>\n    ${page.stateScript}`);
}
