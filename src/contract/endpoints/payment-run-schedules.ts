import { endpoint } from '../endpoint.ts';
import {
  PaymentRunSchedule,
  PaymentRunScheduleList,
  SchedulePaymentRunRequest,
  SetSchedulePreApprovalRequest,
} from '../payment-run-schedules.ts';

/**
 * Payment runs' schedules (server/capabilities/payment-runs/schedule/): a
 * checked run's rows paid at a date and time or every month, each occurrence
 * a new run, checked and put up for approval like any run.
 */

export const schedulePaymentRun = endpoint({
  method: 'POST',
  path: '/api/console/payment_runs/:runId/schedule/',
  summary:
    'Schedules a checked run instead of submitting it: its rows are paid once at a date and time, or every month on a day, each occurrence a new run checked and approved like any run. The draft becomes the schedule.',
  action: 'schedule payment runs',
  permission: 'initiate',
  audit: { action: 'payment_run.schedule', entityType: 'PAYMENT_RUN', entityParam: 'runId' },
  resource: 'payment run',
  body: SchedulePaymentRunRequest,
  answer: PaymentRunSchedule,
  status: 201,
});

export const listPaymentRunSchedules = endpoint({
  method: 'GET',
  path: '/api/console/payment_run_schedules/',
  summary:
    'The payment run schedules in your sub-organizations, newest first: each with its next occurrences, its last run and its status.',
  action: 'read payment runs',
  permission: 'read',
  audit: false,
  answer: PaymentRunScheduleList,
});

export const getPaymentRunSchedule = endpoint({
  method: 'GET',
  path: '/api/console/payment_run_schedules/:scheduleId/',
  summary: 'One payment run schedule.',
  action: 'read payment runs',
  permission: 'read',
  audit: false,
  resource: 'payment run schedule',
  answer: PaymentRunSchedule,
});

export const pausePaymentRunSchedule = endpoint({
  method: 'POST',
  path: '/api/console/payment_run_schedules/:scheduleId/pause/',
  summary:
    'Pauses a schedule: no occurrence is made until it is resumed; runs already made are not touched.',
  action: 'pause payment run schedules',
  permission: 'initiate',
  audit: {
    action: 'payment_run_schedule.pause',
    entityType: 'PAYMENT_RUN_SCHEDULE',
    entityParam: 'scheduleId',
  },
  resource: 'payment run schedule',
  answer: PaymentRunSchedule,
});

export const resumePaymentRunSchedule = endpoint({
  method: 'POST',
  path: '/api/console/payment_run_schedules/:scheduleId/resume/',
  summary:
    'Resumes a paused schedule from its next occurrence after now: occurrences due while it was paused are not made.',
  action: 'resume payment run schedules',
  permission: 'initiate',
  audit: {
    action: 'payment_run_schedule.resume',
    entityType: 'PAYMENT_RUN_SCHEDULE',
    entityParam: 'scheduleId',
  },
  resource: 'payment run schedule',
  answer: PaymentRunSchedule,
});

export const cancelPaymentRunSchedule = endpoint({
  method: 'POST',
  path: '/api/console/payment_run_schedules/:scheduleId/cancel/',
  summary:
    'Cancels a schedule for good: no further occurrence is made; runs already made go on as they stand.',
  action: 'cancel payment run schedules',
  permission: 'initiate',
  audit: {
    action: 'payment_run_schedule.cancel',
    entityType: 'PAYMENT_RUN_SCHEDULE',
    entityParam: 'scheduleId',
  },
  resource: 'payment run schedule',
  answer: PaymentRunSchedule,
});

export const setPaymentRunSchedulePreApproval = endpoint({
  method: 'PUT',
  path: '/api/console/payment_run_schedules/:scheduleId/pre_approval/',
  summary:
    'Sets the cap within which the schedule’s occurrences are paid without a vote of their own (put up for approval anew: the approval of an earlier cap no longer counts), or removes it (each occurrence approved like a new run). Allowed only where the transactions policy allows pre-approval, up to its ceiling.',
  action: 'change payment run schedules',
  permission: 'initiate',
  audit: {
    action: 'payment_run_schedule.pre_approval',
    entityType: 'PAYMENT_RUN_SCHEDULE',
    entityParam: 'scheduleId',
  },
  resource: 'payment run schedule',
  body: SetSchedulePreApprovalRequest,
  answer: PaymentRunSchedule,
});
