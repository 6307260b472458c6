import { currentSession } from '#contract/endpoints/session.ts';
import { DEFAULT_PAGE_SIZE } from '#contract/common.ts';
import { paths, toQueryString } from '#contract/paths.ts';

/**
 * The API reads a page cannot show its rows without, named in index.html as
 * `<link rel="preload" as="fetch" crossorigin>` so the browser asks for them
 * while the JavaScript is still loading instead of after it has run
 * (ARCHITECTURE.md, "First load"). The SPA then asks for the very same URLs
 * with `fetch` and Chromium hands it the preloaded answers
 * (`e2e/first-load.spec.ts` proves each is requested once).
 *
 * Only URLs go into the HTML, never data: every preloaded request is an
 * ordinary API request that the server checks for a session, permission and
 * scope like any other. Named only when the visitor carries a session cookie
 * (a signed-out visitor goes to /login and would never use them).
 *
 * Only the reads the rows wait for: the session (the signed-in layout's
 * loader awaits it) and the list page. Reference data (vaults, assets,
 * sub-organizations) only fills filters and the scope switcher; preloading it
 * too would take the browser's six connections from the page's script.
 */

// The list's URL as the SPA's client builds it (lib/api-client.ts: listQuery,
// toQueryString sorts the keys) for /transactions with no filter and no cursor.
const transactionsFirstPage = (subOrgId: string | undefined) =>
  `${paths.transactions()}${toQueryString({ limit: DEFAULT_PAGE_SIZE, subOrgId })}`;

/**
 * The scope as the SPA reads `?subOrg=` (lib/scope.ts: trimmed, 1 to 128
 * characters, else none); `false` when the URL holds anything this module
 * does not read the way the SPA does (filters, a cursor, a repeated key),
 * so no list is named rather than a list the page would not ask for.
 */
function plainListScope(search: URLSearchParams): { subOrgId: string | undefined } | false {
  const keys = [...search.keys()];
  if (keys.some((key) => key !== 'subOrg') || keys.length > 1) return false;
  const subOrg = search.get('subOrg')?.trim();
  if (subOrg === undefined) return { subOrgId: undefined };
  return subOrg.length >= 1 && subOrg.length <= 128 ? { subOrgId: subOrg } : false;
}

/** The API URLs to preload for the page at `url` (path and search); none when not signed in. */
export function dataPreloads(url: URL, hasSessionCookie: boolean): string[] {
  if (!hasSessionCookie) return [];
  // `/` (the overview) reads its figures in the member's zone: the session first, then them.
  if (url.pathname === '/') return [currentSession.path];
  const scope = url.pathname === '/transactions' ? plainListScope(url.searchParams) : undefined;
  if (scope === undefined) return [];
  return [currentSession.path, ...(scope ? [transactionsFirstPage(scope.subOrgId)] : [])];
}

const escapeAttribute = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** index.html with a preload link for each URL at the end of its head. */
export function withDataPreloads(html: string, urls: readonly string[]): string {
  if (urls.length === 0) return html;
  const links = urls.map(
    (u) => `<link rel="preload" as="fetch" crossorigin href="${escapeAttribute(u)}">`,
  );
  return html.replace('</head>', `${links.join('\n')}\n</head>`);
}
