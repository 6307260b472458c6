/**
 * A page's code is fetched the first time the page is opened (its chunk).
 * When that fetch fails, the router's own answer is to reload the whole tab
 * once, which is right after a new deploy (the old chunk names are gone) but
 * wrong when the server is unreachable: the tab then shows the browser's
 * "This site can't be reached" instead of the console, and whatever was on
 * screen is gone. Here a failed chunk is left to the route's error component
 * (`RouteError`), which says what happened and reloads only once the server
 * answers again (`reloadWhenReachable`).
 */

const CHUNK_FAILURE = [
  'Failed to fetch dynamically imported module',
  'error loading dynamically imported module',
  'Importing a module script failed',
  'Unable to preload CSS',
];

/** Whether `error` is a page's code (or its stylesheet) failing to arrive. */
export function isChunkLoadError(error: unknown): boolean {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && CHUNK_FAILURE.some((m) => message.startsWith(m));
}

/**
 * Keeps the router from reloading the tab on a failed chunk. Vite announces
 * every failed dynamic import (`vite:preloadError`) before the router sees it;
 * the router skips its reload when it finds this key in session storage
 * (@tanstack/react-router's lazyRouteComponent, one key per failed module).
 */
export function keepTabOnChunkFailure(target: Window = window): void {
  target.addEventListener('vite:preloadError', (event) => {
    const error = (event as Event & { payload?: unknown }).payload;
    const message = (error as { message?: unknown } | null)?.message;
    if (typeof message !== 'string') return;
    try {
      target.sessionStorage.setItem(`tanstack_router_reload:${message}`, '1');
    } catch {
      // No session storage: the router's reload may happen; nothing else to do.
    }
  });
}

/**
 * After a failed chunk: reload (a new deploy renamed the chunks) only when the
 * server answers; otherwise say so and keep the tab as it is.
 */
export async function reloadWhenReachable(
  fetchImpl: typeof fetch = fetch,
  reload: () => void = () => window.location.reload(),
): Promise<boolean> {
  try {
    const answer = await fetchImpl('/healthz', { cache: 'no-store' });
    if (!answer.ok) return false;
  } catch {
    return false;
  }
  reload();
  return true;
}
