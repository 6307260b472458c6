import type { DehydratedState } from '@tanstack/react-query';

/**
 * The query cache a server render leaves in its page, for the browser to
 * start from (ARCHITECTURE.md, "Server-rendered first screen"): a
 * `<script type="application/json">` with this id, never executed. Written by
 * entry-server.tsx, read by main.tsx.
 */
export const SERVER_STATE_ID = 'console-server-state';

/** What a server render hands the browser: its query cache and the instant it counted from. */
export interface ServerState {
  queries: DehydratedState;
  /** The server's clock when it rendered (lib/use-now.ts): hydration counts from it too. */
  renderedAt: number;
}

/**
 * The state as a script element: the dehydrated cache with `renderedAt`
 * beside its `queries` and `mutations`. Its JSON is safe inside the element:
 * no `<` survives, so no `</script>` in a transaction's note or reference can
 * end it early (nor `<!--` open a comment); `\u003c` reads back as `<` in
 * JSON.parse.
 */
export function serverStateScript({ queries, renderedAt }: ServerState): string {
  const json = JSON.stringify({ ...queries, renderedAt }).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${SERVER_STATE_ID}">${json}</script>`;
}

/** The state a server render left in this page, or none (a page the browser renders alone). */
export function readServerState(doc: Document): ServerState | undefined {
  const text = doc.getElementById(SERVER_STATE_ID)?.textContent;
  if (!text) return undefined;
  try {
    const { renderedAt, ...queries } = JSON.parse(text) as DehydratedState & {
      renderedAt?: unknown;
    };
    if (typeof renderedAt !== 'number' || !Array.isArray(queries.queries)) return undefined;
    return { queries, renderedAt };
  } catch {
    // A page that cannot be read back is rendered afresh, as if never server-rendered.
    return undefined;
  }
}
