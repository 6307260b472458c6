import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { startRegistration } from '@simplewebauthn/browser';
import * as z from 'zod/mini';
import {
  PasskeyAttestation,
  type EnrolmentConfirmRequest,
  type EnrolmentStartRequest,
  type PasswordChangeRequest,
  type RecoveryCodesRequest,
} from '#contract/auth.ts';
import type { DisplaySettingsRequest } from '#contract/display-settings.ts';
import {
  accountPasskeys,
  accountSecondFactor,
  registerPasskey,
  removePasskey,
  startPasskeyRegistration,
  changePassword,
  confirmEnrolment,
  replaceRecoveryCodes,
  startEnrolment,
  updateDisplaySettings,
} from '#contract/endpoints/account.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { sessionQueries } from '../../../lib/session-queries.ts';

/** The signed-in member's own account: their second factor and password (/account). */
export const accountQueries = {
  all: () => ['account'] as const,
  secondFactor: () =>
    queryOptions({
      queryKey: [...accountQueries.all(), 'second-factor'] as const,
      queryFn: ({ signal }) => apiClient.call(accountSecondFactor, {}, { signal }),
    }),
  passkeys: () =>
    queryOptions({
      queryKey: [...accountQueries.all(), 'passkeys'] as const,
      queryFn: ({ signal }) => apiClient.call(accountPasskeys, {}, { signal }),
    }),
};

/** After a passkey is added or removed: the list, and the session's reminder to register one. */
function passkeysChanged(queryClient: ReturnType<typeof useQueryClient>) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: accountQueries.passkeys().queryKey }),
    queryClient.invalidateQueries({ queryKey: sessionQueries.current().queryKey }),
  ]);
}

/**
 * Registers a passkey: the password again (the server answers what to
 * create), then the browser's own dialog makes the credential, which the
 * server checks and keeps under `name`.
 */
export function useRegisterPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ name, password }: { name: string; password: string }) => {
      const started = await apiClient.call(startPasskeyRegistration, { body: { password } });
      const created = await startRegistration({
        optionsJSON: started.options as Parameters<typeof startRegistration>[0]['optionsJSON'],
      });
      return apiClient.call(registerPasskey, {
        body: {
          registrationId: started.registrationId,
          name,
          credential: z.parse(PasskeyAttestation, created),
        },
      });
    },
    onSuccess: () => passkeysChanged(queryClient),
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ passkeyId, password }: { passkeyId: string; password: string }) =>
      apiClient.call(removePasskey, { params: { passkeyId }, body: { password } }),
    onSuccess: () => passkeysChanged(queryClient),
  });
}

/** Begins setting up a factor (a first one, or a replacement): the password again, then a new key. */
export function useStartEnrolment() {
  return useMutation({
    mutationFn: (body: EnrolmentStartRequest) => apiClient.call(startEnrolment, { body }),
  });
}

/** The new key's first code: the factor is set, with ten new recovery codes. */
export function useConfirmEnrolment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EnrolmentConfirmRequest) => apiClient.call(confirmEnrolment, { body }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: accountQueries.secondFactor().queryKey }),
  });
}

export function useReplaceRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RecoveryCodesRequest) => apiClient.call(replaceRecoveryCodes, { body }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: accountQueries.secondFactor().queryKey }),
  });
}

/**
 * The member's time zone and colour scheme. The answer goes straight into
 * the cached session, which every time, date filter and the page's scheme
 * read: the change shows at once, with no sign-in and no reload (lists
 * filtered by day ask again, their days now read in the new zone).
 */
export function useUpdateDisplaySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DisplaySettingsRequest) => apiClient.call(updateDisplaySettings, { body }),
    onSuccess: (display) =>
      queryClient.setQueryData(sessionQueries.current().queryKey, (session) =>
        session ? { ...session, display } : session,
      ),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: PasswordChangeRequest) => apiClient.call(changePassword, { body }),
  });
}
