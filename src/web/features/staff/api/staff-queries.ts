import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { StaffCreateRequest, StaffUpdateRequest } from '../../../../contract/auth.ts';
import { apiClient } from '../../../lib/api-client.ts';

export const staffQueries = {
  all: () => ['staff'] as const,
  lists: () => [...staffQueries.all(), 'list'] as const,
  // Staff lists are short: the first page at the maximum size is the whole team.
  list: () =>
    queryOptions({
      queryKey: [...staffQueries.lists(), { limit: 100 }] as const,
      queryFn: ({ signal }) => apiClient.listStaff({ limit: 100 }, { signal }),
    }),
};

export function useCreateStaffMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StaffCreateRequest) => apiClient.createStaff(body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffQueries.lists() }),
  });
}

export function useUpdateStaffMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: StaffUpdateRequest }) =>
      apiClient.updateStaff(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffQueries.lists() }),
  });
}
