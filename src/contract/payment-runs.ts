import { z } from 'zod';
import * as zm from 'zod/mini';
import { PositiveDecimalString } from './positive-decimal.ts';

/**
 * Payment runs: many payouts from one file or one request, checked row by
 * row, approved once as a whole and executed exactly once per row. A run is
 * the console's own (the custody API has no runs); each row becomes one
 * custody transaction whose externalId is derived from the run and the row.
 */

export const PAYMENT_RUN_STATUSES = [
  'DRAFT',
  'CHECKED',
  'PENDING_APPROVAL',
  'APPROVED',
  'EXECUTING',
  'PAUSED',
  'COMPLETED',
  'CANCELLED',
  'PARTIALLY_FAILED',
  'DECLINED',
] as const;
export const PaymentRunStatus = z.enum(PAYMENT_RUN_STATUSES);
export type PaymentRunStatus = z.infer<typeof PaymentRunStatus>;

export const PAYMENT_ROW_KINDS = ['CRYPTO', 'FIAT'] as const;
export const PaymentRowKind = z.enum(PAYMENT_ROW_KINDS);
export type PaymentRowKind = z.infer<typeof PaymentRowKind>;

/**
 * A row's own progress: PENDING until its transaction is created, SUBMITTED
 * while it moves, then COMPLETED, FAILED (the transaction failed or was
 * declined), REFUSED (the custody backend refused to create it) or CANCELLED
 * (the rest of the run was cancelled before it was sent).
 */
export const PAYMENT_ROW_STATUSES = [
  'PENDING',
  'SUBMITTED',
  'COMPLETED',
  'FAILED',
  'REFUSED',
  'CANCELLED',
] as const;
export const PaymentRowStatus = z.enum(PAYMENT_ROW_STATUSES);
export type PaymentRowStatus = z.infer<typeof PaymentRowStatus>;

/** The most rows one run holds: a month's payroll or vendor file, with room to spare. */
export const MAX_PAYMENT_RUN_ROWS = 2000;

const text = (field: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);

/**
 * One payout as sent: crypto to an approved contact (`contactId`) or a typed
 * address (`address`), or fiat through an off-ramp to an approved bank
 * account (`bankAccountId`). Exactly one destination, the one its kind takes.
 */
export const PaymentRowInput = z
  .strictObject({
    kind: PaymentRowKind,
    sourceVaultId: text('sourceVaultId', 200),
    contactId: text('contactId', 200).optional(),
    address: text('address', 200).optional(),
    bankAccountId: text('bankAccountId', 200).optional(),
    asset: text('asset', 40),
    blockChain: text('blockChain', 40),
    amount: PositiveDecimalString,
    reference: text('reference', 140),
    memo: z.string().max(280, 'memo must be at most 280 characters').optional(),
  })
  .superRefine((row, ctx) => {
    const given = (['contactId', 'address', 'bankAccountId'] as const).filter(
      (k) => row[k] !== undefined,
    );
    if (row.kind === 'FIAT') {
      if (row.bankAccountId === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['bankAccountId'],
          message: 'bankAccountId is required for a FIAT row',
        });
      for (const k of given.filter((k) => k !== 'bankAccountId'))
        ctx.addIssue({ code: 'custom', path: [k], message: `${k} is not taken by a FIAT row` });
      return;
    }
    if (row.bankAccountId !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['bankAccountId'],
        message: 'bankAccountId is not taken by a CRYPTO row',
      });
    if (row.contactId === undefined && row.address === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['contactId'],
        message: 'a CRYPTO row needs contactId or address',
      });
    if (row.contactId !== undefined && row.address !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['address'],
        message: 'give contactId or address, not both',
      });
  });
export type PaymentRowInput = z.infer<typeof PaymentRowInput>;

export const CreatePaymentRunRequest = z.strictObject({
  name: text('name', 120),
  /** The sub-organization the run belongs to; every source vault must be in it. */
  subOrgId: z.string().trim().min(1).nullable().optional(),
  rows: z
    .array(PaymentRowInput)
    .min(1, 'rows must hold at least one row')
    .max(MAX_PAYMENT_RUN_ROWS, `rows must hold at most ${MAX_PAYMENT_RUN_ROWS} rows`),
});
export type CreatePaymentRunRequest = z.infer<typeof CreatePaymentRunRequest>;

/** A run file's columns (contract of the CSV upload and its template), in the template's order. */
export const PAYMENT_RUN_COLUMNS = [
  'kind',
  'sourceVaultId',
  'contactId',
  'address',
  'bankAccountId',
  'asset',
  'blockChain',
  'amount',
  'reference',
  'memo',
] as const;

/**
 * A run from a file: its CSV text (headers on the first line) and, when the
 * file's headers differ from the columns, a mapping from each to its column.
 */
export const UploadPaymentRunRequest = z.strictObject({
  name: text('name', 120),
  subOrgId: z.string().trim().min(1).nullable().optional(),
  csv: z.string().min(1, 'csv is required'),
  mapping: z.record(z.string(), z.string()).optional(),
});
export type UploadPaymentRunRequest = z.infer<typeof UploadPaymentRunRequest>;

/** Why a row cannot be paid as it stands, addressed to its field so a page can mark it. */
export const PAYMENT_CHECK_CODES = [
  'UNKNOWN_VAULT',
  'VAULT_OUTSIDE_RUN',
  'UNKNOWN_CONTACT',
  'CONTACT_NOT_APPROVED',
  'CONTACT_WRONG_CHAIN',
  'CONTACT_ASSET_NOT_ALLOWED',
  'UNKNOWN_BANK_ACCOUNT',
  'BANK_ACCOUNT_NOT_APPROVED',
  'BAD_ADDRESS',
  'BAD_CHECKSUM',
  'TOO_MANY_DECIMALS',
  'ASSET_NOT_ON_CHAIN',
  'DUPLICATE_ROW',
  'REFERENCE_ALREADY_PAID',
  'EXCEEDS_BALANCE',
  'OFF_RAMP_REFUSED',
] as const;
export type PaymentCheckCode = (typeof PAYMENT_CHECK_CODES)[number];

export const PaymentCheckError = zm.object({
  /** The row's number, from 1 in the order sent (a file's first data line is row 1). */
  row: zm.int(),
  field: zm.string(),
  code: zm.enum(PAYMENT_CHECK_CODES),
  message: zm.string(),
});
export type PaymentCheckError = zm.infer<typeof PaymentCheckError>;

/** One source vault's asset across the run: what it holds, what the run takes, what is left. */
export const PaymentRunVaultLine = zm.object({
  vaultId: zm.string(),
  asset: zm.string(),
  blockChain: zm.string(),
  before: zm.string(),
  /** What the rows pay out of it. */
  outflow: zm.string(),
  /**
   * The network fees' estimate the rows pay from it in this asset (a token's fees are paid in
   * the chain's coin, which gets a line of its own). Absent on runs checked before fees counted.
   */
  fees: zm.optional(zm.string()),
  /** What is left: before, less what the rows pay and their fees. */
  after: zm.string(),
  /** The rows (numbers, in order) that do not fit once the earlier rows are paid. */
  rowsNotFitting: zm.array(zm.int()),
  /** "rows 412–430 exceed the vault's USDC", or null when every row fits. */
  note: zm.nullable(zm.string()),
});

/** A fiat row's off-ramp as its check quoted it (PaymentRunSimulation.offRamps). */
export const PaymentRunOffRamp = zm.object({
  row: zm.int(),
  bankAccountId: zm.string(),
  paymentMethod: zm.string(),
  currency: zm.string(),
  /** What the bank account receives, in `currency`. */
  toAmount: zm.string(),
  /** The provider's fee, inside the row's amount. */
  feeAsset: zm.string(),
  feeAmount: zm.string(),
  feeUsd: zm.nullable(zm.string()),
});
export type PaymentRunOffRamp = zm.infer<typeof PaymentRunOffRamp>;

export const PaymentRunSimulation = zm.object({
  lines: zm.array(PaymentRunVaultLine),
  /** Per asset and chain, the sum of the rows' amounts. */
  totals: zm.array(zm.object({ asset: zm.string(), blockChain: zm.string(), amount: zm.string() })),
  /** The run's value in USD; null when an asset has no price (policies then fail closed). */
  totalUsd: zm.nullable(zm.string()),
  /** The network fees' estimate, per asset and chain and in USD (null when unpriced). */
  fees: zm.array(
    zm.object({
      asset: zm.string(),
      blockChain: zm.string(),
      amount: zm.string(),
      usd: zm.nullable(zm.string()),
    }),
  ),
  feesUsd: zm.nullable(zm.string()),
  /**
   * Each fiat row's off-ramp as quoted at the check: what leaves (the row's amount, the
   * provider's fee inside it), the currency and rail paid and what arrives. The run is
   * approved on these: at execution the row is quoted again, and a quote that takes more
   * than the row's amount, pays another currency or rail, or lands less than this arrival
   * beyond the ramps' rate tolerance is refused. Absent on runs checked before fiat rows paid.
   */
  offRamps: zm.optional(zm.array(PaymentRunOffRamp)),
});
export type PaymentRunSimulation = zm.infer<typeof PaymentRunSimulation>;

export const PaymentRow = zm.object({
  index: zm.int(),
  kind: zm.enum(PAYMENT_ROW_KINDS),
  sourceVaultId: zm.string(),
  contactId: zm.nullable(zm.string()),
  address: zm.nullable(zm.string()),
  bankAccountId: zm.nullable(zm.string()),
  asset: zm.string(),
  blockChain: zm.string(),
  amount: zm.string(),
  reference: zm.string(),
  memo: zm.nullable(zm.string()),
  status: zm.enum(PAYMENT_ROW_STATUSES),
  errors: zm.array(PaymentCheckError),
  externalId: zm.string(),
  transactionId: zm.nullable(zm.string()),
});
export type PaymentRow = zm.infer<typeof PaymentRow>;

/**
 * How an occurrence of a pre-approved schedule was approved without a vote of
 * its own: by the schedule's approval (`approvalId`), given at `approvedAt`
 * by `approvedBy`, within its cap.
 */
export const RunPreApproval = zm.object({
  scheduleId: zm.string(),
  approvalId: zm.string(),
  approvedAt: zm.string(),
  approvedBy: zm.array(zm.string()),
});
export type RunPreApproval = zm.infer<typeof RunPreApproval>;

/** "Pre-approved by the schedule's approval of 2026-11-30 by Ada Approver and Bo Admin". */
export function describePreApproval(pre: RunPreApproval): string {
  const by = pre.approvedBy;
  const names =
    by.length <= 1 ? (by[0] ?? 'its approvers') : `${by.slice(0, -1).join(', ')} and ${by.at(-1)}`;
  return `Pre-approved by the schedule’s approval of ${pre.approvedAt.slice(0, 10)} by ${names}`;
}

export const PaymentRun = zm.object({
  id: zm.string(),
  name: zm.string(),
  status: zm.enum(PAYMENT_RUN_STATUSES),
  subOrgId: zm.nullable(zm.string()),
  createdById: zm.string(),
  createdAt: zm.string(),
  updatedAt: zm.string(),
  /** SHA-256 of the rows as they will be paid: the approval card carries it. */
  rowsDigest: zm.string(),
  rows: zm.array(PaymentRow),
  /** Every check error of every row, in row order. */
  errors: zm.array(PaymentCheckError),
  /** The last check's simulation, null until checked. */
  simulation: zm.nullable(PaymentRunSimulation),
  /** Present on an occurrence approved by its schedule's pre-approval instead of a vote. */
  preApproved: zm.optional(RunPreApproval),
});
export type PaymentRun = zm.infer<typeof PaymentRun>;

/**
 * The externalId of a row's `attempt`-th transaction: the same for every try
 * of that attempt, so the custody API refuses a second create and a retry
 * after a crash finds the first. A failed row retried is a new attempt.
 */
export function paymentRowExternalId(runId: string, index: number, attempt = 1): string {
  return attempt <= 1 ? `run-${runId}-row-${index}` : `run-${runId}-row-${index}-${attempt}`;
}

/** One row as paid: what the reconciliation file holds, per row. */
export const PaymentRunReconciliationRow = zm.object({
  index: zm.int(),
  reference: zm.string(),
  asset: zm.string(),
  blockChain: zm.string(),
  amount: zm.string(),
  status: zm.enum(PAYMENT_ROW_STATUSES),
  externalId: zm.string(),
  transactionId: zm.nullable(zm.string()),
  txHash: zm.nullable(zm.string()),
  feeAmount: zm.nullable(zm.string()),
  feeAsset: zm.nullable(zm.string()),
  feeUsd: zm.nullable(zm.string()),
  /** ISO 8601, UTC. */
  completedAt: zm.nullable(zm.string()),
  /** Why the row did not pay: the refusal or the failure, as the custody backend said it. */
  failure: zm.nullable(zm.string()),
});
export type PaymentRunReconciliationRow = zm.infer<typeof PaymentRunReconciliationRow>;

export const PaymentRunReconciliation = zm.object({
  runId: zm.string(),
  status: zm.enum(PAYMENT_RUN_STATUSES),
  rows: zm.array(PaymentRunReconciliationRow),
});
export type PaymentRunReconciliation = zm.infer<typeof PaymentRunReconciliation>;

/** How far a run's rows have gone: what its progress bar and the runs list show. */
export interface PaymentRunProgress {
  rows: number;
  /** Not yet sent. */
  pending: number;
  /** Sent: their transactions exist and move. */
  sent: number;
  completed: number;
  /** Failed or refused: a retry sends them again. */
  failed: number;
  cancelled: number;
}

/** Counts a run's rows by where they stand (a row is counted once, by its status). */
export function paymentRunProgress(
  rows: readonly { status: PaymentRowStatus }[],
): PaymentRunProgress {
  const progress = {
    rows: rows.length,
    pending: 0,
    sent: 0,
    completed: 0,
    failed: 0,
    cancelled: 0,
  };
  for (const { status } of rows) {
    if (status === 'PENDING') progress.pending += 1;
    else if (status === 'SUBMITTED') progress.sent += 1;
    else if (status === 'COMPLETED') progress.completed += 1;
    else if (status === 'CANCELLED') progress.cancelled += 1;
    else progress.failed += 1;
  }
  return progress;
}

/** One run in the list of runs: what it is, who made it and how far it has gone, without its rows. */
export const PaymentRunSummary = zm.object({
  id: zm.string(),
  name: zm.string(),
  status: zm.enum(PAYMENT_RUN_STATUSES),
  subOrgId: zm.nullable(zm.string()),
  createdById: zm.string(),
  /** The member's name when the console knows it (null: an API client or a removed member). */
  createdByName: zm.nullable(zm.string()),
  createdAt: zm.string(),
  /** Per asset and chain, the sum of the rows' amounts. */
  totals: zm.array(zm.object({ asset: zm.string(), blockChain: zm.string(), amount: zm.string() })),
  /** The run's value in USD from its last check; null until checked or when unpriced. */
  totalUsd: zm.nullable(zm.string()),
  progress: zm.object({
    rows: zm.int(),
    pending: zm.int(),
    sent: zm.int(),
    completed: zm.int(),
    failed: zm.int(),
    cancelled: zm.int(),
  }),
});
export type PaymentRunSummary = zm.infer<typeof PaymentRunSummary>;

/** The most runs the list answers: the newest first. */
export const PAYMENT_RUN_LIST_LIMIT = 100;

export const PaymentRunList = zm.object({ results: zm.array(PaymentRunSummary) });
export type PaymentRunList = zm.infer<typeof PaymentRunList>;
