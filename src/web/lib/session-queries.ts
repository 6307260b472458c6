import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { SessionResponse } from '#contract/auth.ts';
import { currentSession, demoAccounts } from '#contract/endpoints/session-state.ts';
import { backendInfo } from '#contract/endpoints/reference.ts';
import { ApiError, apiClient } from './api-client.ts';
import { setCsrfToken } from './csrf-token.ts';
import { inServerRender } from './render-scope.ts';
import { claimFormDrafts } from './form-drafts.ts';

/**
 * The signed-in member's session, and the CSRF token that goes with it. A
 * signed-out visitor gets a 401 error, which the authenticated layout turns
 * into a redirect to /login.
 */
async function fetchCurrentSession({ signal }: { signal: AbortSignal }): Promise<SessionResponse> {
  try {
    const session = await apiClient.call(currentSession, {}, { signal });
    adoptSession(session);
    return session;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401 && !inServerRender())
      setCsrfToken(undefined);
    throw error;
  }
}

/**
 * What this tab does on learning its session: the CSRF token for its
 * mutations, the member's form drafts. Also called with a session the server
 * rendered into the page (main.tsx), which no query function fetched here.
 * Nothing on the server: its module state is shared by every visitor.
 */
export function adoptSession(session: SessionResponse): void {
  if (inServerRender()) return;
  setCsrfToken(session.csrfToken);
  claimFormDrafts(session.member.id);
}

export const sessionQueries = {
  all: () => ['session'] as const,
  current: () =>
    queryOptions({
      queryKey: [...sessionQueries.all(), 'current'] as const,
      queryFn: fetchCurrentSession,
      // The server extends the idle expiry on every request; re-reading the
      // session once a minute (and on focus) notices expiry or revocation.
      staleTime: 60_000,
      retry: false,
    }),
  /** Sandbox or which upstream host: fixed for the server's lifetime. */
  backend: () =>
    queryOptions({
      queryKey: [...sessionQueries.all(), 'backend'] as const,
      queryFn: ({ signal }) => apiClient.call(backendInfo, {}, { signal }),
      staleTime: Infinity,
    }),
  demoAccounts: () =>
    queryOptions({
      queryKey: [...sessionQueries.all(), 'demo-accounts'] as const,
      queryFn: async ({ signal }) => (await apiClient.call(demoAccounts, {}, { signal })).results,
      staleTime: Infinity,
      // 404 outside sandbox mode: nothing to list, nothing to retry.
      retry: false,
    }),
};

/**
 * The session, from the cache or the request already under way: the
 * authenticated layout starts it, and a page's loader that depends on the
 * member's role awaits it here rather than asking again.
 */
export function loadSession(queryClient: QueryClient): Promise<SessionResponse> {
  return queryClient.ensureQueryData(sessionQueries.current());
}

/**
 * The member's time zone, for a loader whose list reads days in it (a date
 * filter): awaits the session, as `loadSession` does.
 */
export async function loadTimeZone(queryClient: QueryClient): Promise<string> {
  return (await loadSession(queryClient)).display.timeZone;
}

/** The current session as the authenticated layout loaded it (undefined outside that layout). */
export function useSession(): SessionResponse | undefined {
  return useQuery(sessionQueries.current()).data;
}
