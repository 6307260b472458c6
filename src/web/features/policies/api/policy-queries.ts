import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  discardPolicyDraft,
  getPolicies,
  previewPolicy,
  restorePolicyVersion,
  savePolicyDraft,
} from '#contract/endpoints/policies.ts';
import type {
  PolicyDraftRequest,
  PolicyPreviewRequest,
  PolicyState,
  PolicyVersion,
} from '#contract/policies.ts';
import type { PolicyKind } from '#contract/policy-kind.ts';
import { apiClient } from '../../../lib/api-client.ts';

/** One key per policy kind: its active version, open draft and history come in one answer. */
export const policyQueries = {
  all: () => ['policies'] as const,
  state: (kind: PolicyKind) =>
    queryOptions({
      queryKey: [...policyQueries.all(), kind] as const,
      queryFn: ({ signal }) => apiClient.call(getPolicies, { params: { kind } }, { signal }),
    }),
};

/**
 * Every change answers the new state (or the new draft): the page shows it
 * without asking again. A refused change (the draft changed, or was published
 * or discarded, by someone else) reads the state again, so the page shows
 * what is there now.
 */
function useSetState(kind: PolicyKind) {
  const queryClient = useQueryClient();
  const key = policyQueries.state(kind).queryKey;
  return {
    state: (state: PolicyState) => queryClient.setQueryData(key, state),
    draft: (draft: PolicyVersion) => {
      queryClient.setQueryData(key, (old) => (old ? { ...old, draft } : old));
      return queryClient.invalidateQueries({ queryKey: key });
    },
    refresh: () => queryClient.invalidateQueries({ queryKey: key }),
  };
}

export function useSavePolicyDraft(kind: PolicyKind) {
  const set = useSetState(kind);
  return useMutation({
    mutationFn: (body: PolicyDraftRequest) =>
      apiClient.call(savePolicyDraft, { params: { kind }, body }),
    onSuccess: set.draft,
  });
}

export function useDiscardPolicyDraft(kind: PolicyKind) {
  const set = useSetState(kind);
  return useMutation({
    mutationFn: () => apiClient.call(discardPolicyDraft, { params: { kind } }),
    onSuccess: set.state,
    onError: set.refresh,
  });
}

export function useRestorePolicyVersion(kind: PolicyKind) {
  const set = useSetState(kind);
  return useMutation({
    mutationFn: (version: number) =>
      apiClient.call(restorePolicyVersion, { params: { kind, version: String(version) } }),
    onSuccess: set.draft,
    onError: set.refresh,
  });
}

/** "What would this need?": asked, not cached (each question is its own). */
export function usePreviewPolicy(kind: PolicyKind) {
  return useMutation({
    mutationFn: (body: PolicyPreviewRequest) =>
      apiClient.call(previewPolicy, { params: { kind }, body }),
  });
}
