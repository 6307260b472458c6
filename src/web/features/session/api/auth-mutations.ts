import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginRequest, SessionResponse } from '../../../../contract/auth.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { setCsrfToken } from '../../../lib/csrf-token.ts';
import { claimFormDrafts } from '../../../lib/use-persistent-form-draft.ts';
import { sessionQueries } from '../../../lib/session-queries.ts';

export function useLoginMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginRequest) => apiClient.login(body),
    onSuccess: (session: SessionResponse) => {
      setCsrfToken(session.csrfToken);
      claimFormDrafts(session.member.id);
      // Whatever an earlier session left cached (it may have been someone
      // else's) is dropped; only the new session stays.
      queryClient.removeQueries({
        predicate: (query) => query.queryKey[0] !== sessionQueries.all()[0],
      });
      queryClient.setQueryData(sessionQueries.current().queryKey, session);
    },
  });
}

/**
 * Signs out on the server. Whatever the answer, the browser forgets the
 * session: the caller then leaves for /login and drops every cached query,
 * so nothing the member saw stays in memory.
 */
export function useLogoutMutation() {
  return useMutation({
    mutationFn: () => apiClient.logout(),
    onSettled: () => setCsrfToken(undefined),
  });
}
