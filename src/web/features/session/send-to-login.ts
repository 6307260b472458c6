import type { QueryClient } from '@tanstack/react-query';
import type { AnyRouter } from '@tanstack/react-router';
import { setCsrfToken } from '../../lib/csrf-token.ts';
import { sessionQueries } from '../../lib/session-queries.ts';

/**
 * What a 401 from any API call means: the session is gone. Forget it and go
 * to /login with the page the member was on as the return address. Forms
 * keep their drafts (usePersistentFormDraft), so nothing typed is lost.
 * The sign-in page says the session ended and drafts are kept; and when the
 * 401 answered something the member sent (a form, a decision), that the
 * server did not do it (`ended=send`).
 */
export function sendToLogin(
  router: AnyRouter,
  queryClient: QueryClient,
  { unsent = false }: { unsent?: boolean } = {},
): void {
  const location = router.latestLocation;
  // A wrong password on the sign-in page is a 401 too: that one stays put.
  if (location.pathname === '/login') return;
  // Said only to a member who was signed in: a first visit without a session has nothing that ended.
  const hadSession = queryClient.getQueryData(sessionQueries.current().queryKey) !== undefined;
  setCsrfToken(undefined);
  queryClient.removeQueries({ queryKey: sessionQueries.current().queryKey });
  void router.navigate({
    to: '/login',
    search: {
      redirect: location.href,
      ...(hadSession ? { ended: unsent ? ('send' as const) : ('read' as const) } : {}),
    },
  });
}
