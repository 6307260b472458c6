import { endpoint } from '../endpoint.ts';
import * as zm from 'zod/mini';
import {
  CreatePaymentRunRequest,
  PaymentRowInput,
  PaymentRun,
  PaymentRunList,
  PaymentRunReconciliation,
  UploadPaymentRunRequest,
} from '../payment-runs.ts';

/**
 * Payment runs (server/capabilities/payment-runs/): the console's own, as the
 * custody API has no runs. Made and fixed by initiators, approved once as a
 * whole through the approval core (`decideApprovable`), executed row by row.
 */

export const createPaymentRun = endpoint({
  method: 'POST',
  path: '/api/console/payment_runs/',
  summary:
    'Creates a payment run from its rows (at most 2,000), as a draft: nothing is sent until it is checked, submitted and approved.',
  action: 'create payment runs',
  permission: 'initiate',
  audit: { action: 'payment_run.create', entityType: 'PAYMENT_RUN' },
  body: CreatePaymentRunRequest,
  answer: PaymentRun,
  status: 201,
});

export const listPaymentRuns = endpoint({
  method: 'GET',
  path: '/api/console/payment_runs/',
  summary:
    'The payment runs in your sub-organizations, newest first (at most 100): each with its status, totals, creator and how far its rows have gone.',
  action: 'read payment runs',
  permission: 'read',
  audit: false,
  answer: PaymentRunList,
});

export const getPaymentRun = endpoint({
  method: 'GET',
  path: '/api/console/payment_runs/:runId/',
  summary: 'A payment run with its rows, each row’s check errors, and its last simulation.',
  action: 'read payment runs',
  permission: 'read',
  audit: false,
  resource: 'payment run',
  answer: PaymentRun,
});

export const updatePaymentRow = endpoint({
  method: 'PATCH',
  path: '/api/console/payment_runs/:runId/rows/:index/',
  summary:
    'Replaces one row (a fix in place) while the run is not yet approved, and checks the run again; votes cast on the old rows stop counting.',
  action: 'edit payment runs',
  permission: 'initiate',
  audit: { action: 'payment_run.update_row', entityType: 'PAYMENT_RUN', entityParam: 'runId' },
  resource: 'payment run',
  // A row replaced in place (a fix): the whole row, as created.
  body: PaymentRowInput,
  answer: PaymentRun,
});

export const checkPaymentRun = endpoint({
  method: 'POST',
  path: '/api/console/payment_runs/:runId/check/',
  summary:
    'Checks every row against the vaults, contacts, bank accounts and assets now, and simulates the run per vault and asset.',
  action: 'check payment runs',
  permission: 'initiate',
  audit: { action: 'payment_run.check', entityType: 'PAYMENT_RUN', entityParam: 'runId' },
  resource: 'payment run',
  answer: PaymentRun,
});

export const submitPaymentRun = endpoint({
  method: 'POST',
  path: '/api/console/payment_runs/:runId/submit/',
  summary:
    'Submits a checked run for approval: the active policy judges each row and the run’s total (its whole USD value and the vaults’ 24-hour outflow), and the rule is frozen on the run.',
  action: 'submit payment runs',
  permission: 'initiate',
  audit: { action: 'payment_run.submit', entityType: 'PAYMENT_RUN', entityParam: 'runId' },
  resource: 'payment run',
  answer: PaymentRun,
});

export const uploadPaymentRun = endpoint({
  method: 'POST',
  path: '/api/console/payment_runs/upload/',
  summary:
    'Creates a payment run from a CSV file (headers on the first line, mapped to the columns when they differ), checked as a run sent as JSON is.',
  action: 'create payment runs',
  permission: 'initiate',
  audit: { action: 'payment_run.create', entityType: 'PAYMENT_RUN' },
  body: UploadPaymentRunRequest,
  answer: PaymentRun,
  status: 201,
});

export const paymentRunTemplate = endpoint({
  method: 'GET',
  path: '/api/console/payment_runs/template/',
  summary: 'The CSV template of a payment run: its columns and an example row of each kind.',
  action: 'read payment runs',
  permission: 'read',
  audit: false,
  answer: zm.string(),
});

export const pausePaymentRun = endpoint({
  method: 'POST',
  path: '/api/console/payment_runs/:runId/pause/',
  summary:
    'Pauses an approved run: no further row is sent until it is resumed; rows already sent go on.',
  action: 'pause payment runs',
  permission: 'initiate',
  audit: { action: 'payment_run.pause', entityType: 'PAYMENT_RUN', entityParam: 'runId' },
  resource: 'payment run',
  answer: PaymentRun,
});

export const resumePaymentRun = endpoint({
  method: 'POST',
  path: '/api/console/payment_runs/:runId/resume/',
  summary: 'Resumes a paused run where it stopped.',
  action: 'resume payment runs',
  permission: 'initiate',
  audit: { action: 'payment_run.resume', entityType: 'PAYMENT_RUN', entityParam: 'runId' },
  resource: 'payment run',
  answer: PaymentRun,
});

export const cancelPaymentRun = endpoint({
  method: 'POST',
  path: '/api/console/payment_runs/:runId/cancel/',
  summary:
    'Cancels the rest of an approved run: rows not yet sent are never sent, and their transactions still waiting for approval are declined; rows already moving go on.',
  action: 'cancel payment runs',
  permission: 'initiate',
  audit: { action: 'payment_run.cancel', entityType: 'PAYMENT_RUN', entityParam: 'runId' },
  resource: 'payment run',
  answer: PaymentRun,
});

export const retryPaymentRun = endpoint({
  method: 'POST',
  path: '/api/console/payment_runs/:runId/retry/',
  summary:
    'Sends the failed and refused rows of a run again, each failed one as a new attempt under a new externalId (a failed attempt moved nothing); a row whose transaction was declined at the custody side is never sent again (pay it in a new run).',
  action: 'retry payment runs',
  permission: 'initiate',
  audit: { action: 'payment_run.retry', entityType: 'PAYMENT_RUN', entityParam: 'runId' },
  resource: 'payment run',
  answer: PaymentRun,
});

export const paymentRunReconciliation = endpoint({
  method: 'GET',
  path: '/api/console/payment_runs/:runId/reconciliation/',
  summary:
    'Every row of a run as paid: its transaction id, status, txHash, fee (asset and USD) and completed time.',
  action: 'read payment runs',
  permission: 'read',
  audit: false,
  resource: 'payment run',
  answer: PaymentRunReconciliation,
});

export const paymentRunReconciliationCsv = endpoint({
  method: 'GET',
  path: '/api/console/payment_runs/:runId/reconciliation.csv',
  summary: 'The reconciliation of a run as a CSV file, one line per row.',
  action: 'read payment runs',
  permission: 'read',
  audit: false,
  resource: 'payment run',
  answer: zm.string(),
});
