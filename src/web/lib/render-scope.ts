import type * as z from 'zod/mini';
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

/** Whether an answer of this schema, from the server in process, is taken as it comes. */
type AnswerTrust = (schema: z.ZodMiniType) => boolean;

let lookup: ScopeLookup = () => undefined;
let trust: AnswerTrust = () => false;

/**
 * Called once by the server's render entry; never in the browser. `trusted`
 * says which of the server's own answers its render may take unchecked
 * (lib/answer-as-given.ts); none by default.
 */
export function setRenderScopeLookup(next: ScopeLookup, trusted: AnswerTrust = () => false): void {
  lookup = next;
  trust = trusted;
}

/** True while code runs inside a server render: browser-only side effects stay off. */
export function inServerRender(): boolean {
  return lookup() !== undefined;
}

/** `fetch`, or the rendering request's in-process fetch on the server. */
export const scopedFetch: FetchLike = (input, init) => (lookup() ?? globalThis.fetch)(input, init);

/**
 * Whether an answer of `schema` may be taken unchecked: only inside a server
 * render, whose answers come from its own server in process. An answer the
 * browser fetches is always checked.
 */
export const scopedTrust: AnswerTrust = (schema) => lookup() !== undefined && trust(schema);
