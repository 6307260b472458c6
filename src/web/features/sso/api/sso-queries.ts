import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  createScimToken,
  getSsoSettings,
  revokeScimToken,
  updateSsoSettings,
} from '#contract/endpoints/sso.ts';
import type { UpdateSsoSettings } from '#contract/sso.ts';
import { apiClient } from '../../../lib/api-client.ts';

/** The single sign-on settings (admins of every sub-organization). */
export const ssoQueries = {
  all: () => ['sso'] as const,
  settings: () =>
    queryOptions({
      queryKey: [...ssoQueries.all(), 'settings'] as const,
      queryFn: ({ signal }) => apiClient.call(getSsoSettings, {}, { signal }),
    }),
};

function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ssoQueries.all() });
}

export function useSaveSsoSettings() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: UpdateSsoSettings) => apiClient.call(updateSsoSettings, { body }),
    onSuccess: refresh,
  });
}

export function useCreateScimToken() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (name: string) => apiClient.call(createScimToken, { body: { name } }),
    onSuccess: refresh,
  });
}

export function useRevokeScimToken() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (tokenId: string) => apiClient.call(revokeScimToken, { params: { tokenId } }),
    onSettled: refresh,
  });
}
