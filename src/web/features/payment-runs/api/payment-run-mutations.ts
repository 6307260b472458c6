import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  cancelPaymentRun,
  checkPaymentRun,
  createPaymentRun,
  pausePaymentRun,
  resumePaymentRun,
  retryPaymentRun,
  submitPaymentRun,
  updatePaymentRow,
  uploadPaymentRun,
} from '#contract/endpoints/payment-runs.ts';
import type {
  CreatePaymentRunRequest,
  PaymentRowInput,
  PaymentRun,
  UploadPaymentRunRequest,
} from '#contract/payment-runs.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { paymentRunQueries } from './payment-run-queries.ts';

/**
 * Every change to a run answers the run as it now stands: that answer is the
 * page's copy at once, and the list (statuses, progress) is stale.
 */
function useRunAnswer() {
  const queryClient = useQueryClient();
  return async (run: PaymentRun) => {
    queryClient.setQueryData(paymentRunQueries.detail(run.id).queryKey, run);
    await queryClient.invalidateQueries({ queryKey: paymentRunQueries.list().queryKey });
  };
}

/** A new run, from rows typed in or from a file: made as a draft and checked at once. */
export function useCreatePaymentRun() {
  const onSuccess = useRunAnswer();
  return useMutation({
    mutationFn: (
      input:
        | { from: 'rows'; body: CreatePaymentRunRequest }
        | { from: 'file'; body: UploadPaymentRunRequest },
    ) =>
      input.from === 'rows'
        ? apiClient.call(createPaymentRun, { body: input.body })
        : apiClient.call(uploadPaymentRun, { body: input.body }),
    onSuccess,
  });
}

/** A row fixed in place: the server checks the whole run again and answers it. */
export function useUpdatePaymentRow(runId: string) {
  const onSuccess = useRunAnswer();
  return useMutation({
    mutationFn: ({ index, row }: { index: number; row: PaymentRowInput }) =>
      apiClient.call(updatePaymentRow, { params: { runId, index: String(index) }, body: row }),
    onSuccess,
  });
}

const ACTIONS = {
  check: checkPaymentRun,
  submit: submitPaymentRun,
  pause: pausePaymentRun,
  resume: resumePaymentRun,
  cancel: cancelPaymentRun,
  retry: retryPaymentRun,
} as const;

export type RunAction = keyof typeof ACTIONS;

/** Check again, submit for approval, pause, resume, cancel the rest, retry failed rows. */
export function useRunAction(runId: string) {
  const onSuccess = useRunAnswer();
  return useMutation({
    mutationFn: (action: RunAction) => apiClient.call(ACTIONS[action], { params: { runId } }),
    onSuccess,
  });
}
