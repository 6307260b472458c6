import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A server-rendered page's stylesheets, written into its head instead of
 * linked. A linked stylesheet blocks the first paint until it has been asked
 * for and has arrived, and the browser asks for it only once the head is
 * parsed: in a cold load that round trip (through the browser's network
 * process, and this server's request thread, busy with the render's reads)
 * was often the last thing the rows waited for. Inlined, the rows paint as
 * soon as they are parsed. The cost is the stylesheet's bytes in each
 * rendered document (about 6 KB brotli) where a returning visitor would
 * have had it cached; a rendered document is a first load or a reload,
 * never a navigation inside the app.
 *
 * Only the build's own files (`/assets/<name>.css`, content-hashed, so a
 * name is read once), and never one that could close its own element. Each
 * inlined sheet's SHA-256 is returned for the page's Content-Security-Policy
 * (`style-src 'sha256-…'`), which allows exactly those bytes and no other
 * inline style.
 */

const LINKED = /<link rel="stylesheet"(?: crossorigin)? href="(\/assets\/[\w.-]+\.css)"\s*\/?>/g;
/** A sheet that is not cached by name is never held: at most this many are kept. */
const KEPT = 16;

export interface InlinedPage {
  html: string;
  /** `'sha256-…'` sources for `style-src`, one per inlined sheet. */
  styleSources: string[];
}

interface Sheet {
  css: string;
  source: string;
}

export function stylesheetInliner(staticDir: string): (html: string) => Promise<InlinedPage> {
  const sheets = new Map<string, Promise<Sheet | undefined>>();

  const sheet = (href: string): Promise<Sheet | undefined> => {
    let found = sheets.get(href);
    if (!found) {
      if (sheets.size >= KEPT) sheets.clear();
      found = readFile(path.join(staticDir, href), 'utf8').then(
        (css) =>
          // `</style` inside would end the element early: such a sheet stays linked.
          /<\/style/i.test(css)
            ? undefined
            : { css, source: `'sha256-${createHash('sha256').update(css).digest('base64')}'` },
        // A file gone (a rebuild under way) is linked as it was; asked again next time.
        () => {
          sheets.delete(href);
          return undefined;
        },
      );
      sheets.set(href, found);
    }
    return found;
  };

  return async (html) => {
    const hrefs = [...html.matchAll(LINKED)].map((match) => match[1] ?? '');
    if (hrefs.length === 0) return { html, styleSources: [] };
    const read = new Map(await Promise.all(hrefs.map(async (h) => [h, await sheet(h)] as const)));
    const styleSources: string[] = [];
    const inlined = html.replace(LINKED, (tag, href: string) => {
      const found = read.get(href);
      if (!found) return tag;
      styleSources.push(found.source);
      return `<style>${found.css}</style>`;
    });
    return { html: inlined, styleSources };
  };
}
