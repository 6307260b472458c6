import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { StaffCreateRequest, StaffFilters, StaffUpdateRequest } from '#contract/auth.ts';
import {
  createStaff,
  listStaff,
  listStaffProposals,
  proposeFactorReset,
  updateStaff,
} from '#contract/endpoints/staff.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';

/** The staff page's page size: a team of hundreds is searched and paged, not one table. */
export const STAFF_PAGE_SIZE = 25;

/** The team list is reference data the audit log's actor filter reads too. */
export const staffQueries = {
  list: () => referenceQueries.staffMembers(),
  /**
   * One page of the staff page's list, under the team list's key, so a staff
   * change that refreshes the team refreshes it too.
   */
  page: (filters: StaffFilters, cursor: string | undefined) =>
    queryOptions({
      queryKey: [...referenceQueries.staffMembers().queryKey, 'page', filters, cursor] as const,
      queryFn: ({ signal }) =>
        apiClient.call(
          listStaff,
          { query: { ...filters, limit: STAFF_PAGE_SIZE, cursor } },
          { signal },
        ),
      placeholderData: keepPreviousData,
    }),
  /** Staff changes awaiting another admin. */
  proposals: () =>
    queryOptions({
      queryKey: ['staff', 'proposals'] as const,
      queryFn: ({ signal }) =>
        apiClient.call(listStaffProposals, { query: { limit: 100 } }, { signal }),
    }),
};

/** After any staff change: the team and the proposals may both have moved. */
function useRefreshStaff() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: staffQueries.list().queryKey }),
      queryClient.invalidateQueries({ queryKey: staffQueries.proposals().queryKey }),
    ]);
}

export function useCreateStaffMember() {
  const refresh = useRefreshStaff();
  return useMutation({
    mutationFn: (body: StaffCreateRequest) => apiClient.call(createStaff, { body }),
    onSuccess: refresh,
  });
}

export function useUpdateStaffMember() {
  const refresh = useRefreshStaff();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: StaffUpdateRequest }) =>
      apiClient.call(updateStaff, { params: { staffId: id }, body }),
    onSuccess: refresh,
  });
}

export function useProposeFactorReset() {
  const refresh = useRefreshStaff();
  return useMutation({
    mutationFn: (id: string) => apiClient.call(proposeFactorReset, { params: { staffId: id } }),
    onSuccess: refresh,
  });
}
