import { useMutation } from '@tanstack/react-query';
import { signOut } from '#contract/endpoints/session-state.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { setCsrfToken } from '../../../lib/csrf-token.ts';

// Apart from the sign-in steps: every signed-in page's account menu signs out, and the
// sign-in steps bring the passkey library, which only the sign-in page uses.
/**
 * Signs out on the server. Whatever the answer, the browser forgets the
 * session: the caller then leaves for /login and drops every cached query,
 * so nothing the member saw stays in memory.
 */
export function useLogoutMutation() {
  return useMutation({
    mutationFn: () => apiClient.call(signOut, {}),
    onSettled: () => setCsrfToken(undefined),
  });
}
