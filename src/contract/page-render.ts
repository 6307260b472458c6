/**
 * What the console server and its render of the SPA (`src/web/entry-server.tsx`,
 * built by `vite build --ssr`) say to each other: the server hands the render
 * a page's address and a fetch that answers in process as the visitor, and
 * gets back a plan, then the page. Neither side imports the other's code;
 * this is the one shape both build to (ARCHITECTURE.md, "Server-rendered
 * first screen").
 */

/** What the server puts in the page: the markup inside #root and the cache it was rendered from. */
export interface RenderedPage {
  html: string;
  /** The dehydrated query cache as a `<script type="application/json">`, to go after #root. */
  stateScript: string;
}

/**
 * A page the server will render, known before any read: the server sends the
 * document's head at once and the rest when `render` settles.
 */
export interface PagePlan {
  /**
   * The id of the element that closes the page's first screen (its rows):
   * the browser is asked not to paint before it has parsed that far.
   */
  firstScreenId: string;
  /** The page, or `undefined` when the browser should render it alone. */
  render(): Promise<RenderedPage | undefined>;
}

export interface RenderRequest {
  /** Path and query as the browser asked for them (`/transactions?status=PENDING`). */
  href: string;
  /** Reaches the console's own API as the visitor (their cookie), in process. */
  fetch: (input: string, init: RequestInit) => Response | Promise<Response>;
  /**
   * The answers are built by this server as their schemas' output (the
   * embedded sandbox), so a render may take plain ones unchecked; false when
   * they pass an upstream's answers through, which only a check vouches for.
   */
  answersBuiltHere?: boolean;
}

/**
 * The render entry's shape: one function, `planPage` (a promise when the
 * render runs in a thread of its own and the plan comes back by message).
 */
export interface PageRenderer {
  planPage(request: RenderRequest): PagePlan | undefined | Promise<PagePlan | undefined>;
}
