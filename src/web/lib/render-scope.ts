import type { FetchLike } from './api-client.ts';

/**
 * Where the SPA's default API client sends its requests. In the browser that
 * is the global `fetch`. While the server renders a page (entry-server.tsx,
 * ARCHITECTURE.md "Server-rendered first screen") it is that page request's
 * own in-process fetch, carrying that visitor's cookie: the server sets a
 * lookup here once, and the lookup answers per request (AsyncLocalStorage),
 * so two pages rendered at once never see each other's session.
 */
type ScopeLookup = () => FetchLike | undefined;

let lookup: ScopeLookup = () => undefined;

/** Called once by the server's render entry; never in the browser. */
export function setRenderScopeLookup(next: ScopeLookup): void {
  lookup = next;
}

/** True while code runs inside a server render: browser-only side effects stay off. */
export function inServerRender(): boolean {
  return lookup() !== undefined;
}

/** `fetch`, or the rendering request's in-process fetch on the server. */
export const scopedFetch: FetchLike = (input, init) => (lookup() ?? globalThis.fetch)(input, init);
