import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { startAuthentication } from '@simplewebauthn/browser';
import * as z from 'zod/mini';
import {
  isSecondFactorChallenge,
  PasskeyAssertion,
  type SecondFactorChallenge,
  type LoginAnswer,
  type LoginRequest,
  type SecondFactorRequest,
  type SessionResponse,
} from '#contract/auth.ts';
import { signIn, signInPasskey, signInSecondFactor } from '#contract/endpoints/session.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { browserTimeZone } from '../../../lib/display.tsx';
import { setCsrfToken } from '../../../lib/csrf-token.ts';
import { claimFormDrafts } from '../../../lib/form-drafts.ts';
import { sessionQueries } from '../../../lib/session-queries.ts';

/** What this tab does with a new session: its CSRF token, its drafts, nothing of an earlier one. */
export function adoptNewSession(queryClient: QueryClient, session: SessionResponse): void {
  setCsrfToken(session.csrfToken);
  claimFormDrafts(session.member.id);
  // Whatever an earlier session left cached (it may have been someone
  // else's) is dropped; only the new session stays.
  queryClient.removeQueries({
    predicate: (query) => query.queryKey[0] !== sessionQueries.all()[0],
  });
  queryClient.setQueryData(sessionQueries.current().queryKey, session);
}

/**
 * The password step: a session, or the second factor's step (no session
 * yet). Either step that starts a session tells the server the browser's
 * time zone: the member's default, kept on the session (contract/display.ts).
 */
export function useLoginMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginRequest): Promise<LoginAnswer> =>
      apiClient.call(signIn, { body: { ...body, timeZone: browserTimeZone() } }),
    onSuccess: (answer) => {
      if (!isSecondFactorChallenge(answer)) adoptNewSession(queryClient, answer);
    },
  });
}

/**
 * The second step: a code (or a recovery code, or a new factor's first
 * code). A new factor's recovery codes stay with the caller, which shows
 * them once; the cached session never holds them.
 */
export function useSecondFactorMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SecondFactorRequest) =>
      apiClient.call(signInSecondFactor, { body: { ...body, timeZone: browserTimeZone() } }),
    onSuccess: ({ recoveryCodes: _shownOnce, ...session }) => adoptNewSession(queryClient, session),
  });
}

/**
 * The second step with a passkey: the browser's own dialog signs the step's
 * challenge with one of the member's passkeys, and the server checks it.
 */
export function usePasskeySignInMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (challenge: SecondFactorChallenge) => {
      if (!challenge.passkey) throw new Error('This sign-in step offers no passkey');
      const signed = await startAuthentication({
        optionsJSON: challenge.passkey as Parameters<typeof startAuthentication>[0]['optionsJSON'],
      });
      return apiClient.call(signInPasskey, {
        body: {
          challengeId: challenge.challengeId,
          credential: z.parse(PasskeyAssertion, signed),
          timeZone: browserTimeZone(),
        },
      });
    },
    onSuccess: ({ recoveryCodes: _none, ...session }) => adoptNewSession(queryClient, session),
  });
}
