import type { QueryClient } from '@tanstack/react-query';
import { createRouter, type RouterHistory } from '@tanstack/react-router';
import { NotFound, RouteError, RoutePending } from './components/route-fallbacks.tsx';
import { sendToLogin } from './features/session/send-to-login.ts';
import { createQueryClient } from './lib/query-client.ts';
import { parseSearch, stringifySearch } from './lib/search-params.ts';
import { routeTree } from './routeTree.gen.ts';

export interface RouterContext {
  queryClient: QueryClient;
}

export function createAppRouter(
  queryClient: QueryClient,
  history?: RouterHistory,
  /** A server render (entry-server.tsx): no window, no scroll, loads resolved in one pass. */
  { isServer }: { isServer?: boolean } = {},
) {
  return createRouter({
    routeTree,
    ...(history ? { history } : {}),
    ...(isServer ? { isServer } : {}),
    context: { queryClient },
    defaultPreload: 'intent',
    // React Query owns freshness: let every preload and load reach the loader,
    // whose ensureQueryData answers from the cache when it can.
    defaultPreloadStaleTime: 0,
    defaultPendingComponent: RoutePending,
    defaultErrorComponent: RouteError,
    defaultNotFoundComponent: NotFound,
    // In the browser only: on the server it would render an inline script,
    // which the console's CSP refuses and the browser's tree does not have.
    scrollRestoration: !isServer,
    parseSearch,
    stringifySearch,
  });
}

/** The query client and router of one console tab, wired so that any 401 leads to /login. */
export function createConsole(history?: RouterHistory) {
  const queryClient = createQueryClient({
    // A refused mutation (Send, Approve) did nothing: the sign-in page says so.
    onUnauthorized: (_error, during) =>
      sendToLogin(router, queryClient, { unsent: during === 'mutation' }),
  });
  const router = createAppRouter(queryClient, history);
  return { queryClient, router };
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
