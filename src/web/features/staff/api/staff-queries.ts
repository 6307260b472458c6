import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StaffCreateRequest, StaffUpdateRequest } from '#contract/auth.ts';
import { createStaff, updateStaff } from '#contract/endpoints/staff.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';

/** The team list is reference data the audit log's actor filter reads too. */
export const staffQueries = {
  list: () => referenceQueries.staffMembers(),
};

export function useCreateStaffMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StaffCreateRequest) => apiClient.call(createStaff, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffQueries.list().queryKey }),
  });
}

export function useUpdateStaffMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: StaffUpdateRequest }) =>
      apiClient.call(updateStaff, { params: { staffId: id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffQueries.list().queryKey }),
  });
}
