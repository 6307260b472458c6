import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  EnrolmentConfirmRequest,
  EnrolmentStartRequest,
  PasswordChangeRequest,
  RecoveryCodesRequest,
} from '#contract/auth.ts';
import type { DisplaySettingsRequest } from '#contract/display-settings.ts';
import {
  accountSecondFactor,
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
};

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
