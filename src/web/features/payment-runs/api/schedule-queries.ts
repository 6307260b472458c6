import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  cancelPaymentRunSchedule,
  listPaymentRunSchedules,
  pausePaymentRunSchedule,
  resumePaymentRunSchedule,
  schedulePaymentRun,
} from '#contract/endpoints/payment-run-schedules.ts';
import type { PreApprovalCap, ScheduleTiming } from '#contract/payment-run-schedules.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { paymentRunQueries } from './payment-run-queries.ts';

/** Payment runs' schedules: the list, a checked run scheduled, and a schedule paused, resumed or cancelled. */
export const scheduleQueries = {
  all: () => [...paymentRunQueries.all(), 'schedules'] as const,
  list: () =>
    queryOptions({
      queryKey: scheduleQueries.all(),
      queryFn: ({ signal }) => apiClient.call(listPaymentRunSchedules, {}, { signal }),
    }),
};

/** The checked run scheduled: the draft becomes the schedule, so the runs list is stale too. */
export function useSchedulePaymentRun(runId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      timing,
      preApproval,
    }: {
      timing: ScheduleTiming;
      preApproval?: PreApprovalCap;
    }) =>
      apiClient.call(schedulePaymentRun, {
        params: { runId },
        body: { timing, ...(preApproval ? { preApproval } : {}) },
      }),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: paymentRunQueries.detail(runId).queryKey });
      await queryClient.invalidateQueries({ queryKey: paymentRunQueries.all() });
    },
  });
}

const MOVES = {
  pause: pausePaymentRunSchedule,
  resume: resumePaymentRunSchedule,
  cancel: cancelPaymentRunSchedule,
} as const;

type ScheduleMove = keyof typeof MOVES;

export function useScheduleMove() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ scheduleId, move }: { scheduleId: string; move: ScheduleMove }) =>
      apiClient.call(MOVES[move], { params: { scheduleId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scheduleQueries.all() }),
  });
}
