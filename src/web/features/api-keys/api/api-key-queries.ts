import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateApiUser, RotateApiUser, SetApiUserNetworks } from '#contract/api-users.ts';
import {
  createApiUser,
  listApiUsers,
  revokeApiUser,
  rotateApiUserKey,
  setApiUserNetworks,
} from '#contract/endpoints/api-users.ts';
import { apiClient } from '../../../lib/api-client.ts';

/** The API users this admin manages (the server decides which). */
export const apiKeyQueries = {
  all: () => ['api-keys'] as const,
  list: () =>
    queryOptions({
      queryKey: [...apiKeyQueries.all(), 'list'] as const,
      queryFn: ({ signal }) => apiClient.call(listApiUsers, {}, { signal }),
    }),
};

function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: apiKeyQueries.all() });
}

export function useCreateApiUser() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: CreateApiUser) => apiClient.call(createApiUser, { body }),
    onSuccess: refresh,
  });
}

export function useRotateApiUserKey() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ apiUserId, body }: { apiUserId: string; body: RotateApiUser }) =>
      apiClient.call(rotateApiUserKey, { params: { apiUserId }, body }),
    onSettled: refresh,
  });
}

export function useRevokeApiUser() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (apiUserId: string) => apiClient.call(revokeApiUser, { params: { apiUserId } }),
    onSettled: refresh,
  });
}

export function useSetApiUserNetworks() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ apiUserId, body }: { apiUserId: string; body: SetApiUserNetworks }) =>
      apiClient.call(setApiUserNetworks, { params: { apiUserId }, body }),
    onSuccess: refresh,
  });
}
