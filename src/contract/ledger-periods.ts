import * as z from 'zod/mini';

/**
 * Closing a month of the treasury ledger, and the accounting journal.
 *
 * A period is one calendar month of the organization in its reporting zone
 * (the zone of the admin who proposed its first close, stored with every
 * period; later closes must use it, so months follow each other with no gap
 * and no overlap). Closing one is held for a second admin; once closed, the
 * movements booked in it never change: anything recorded later but dated
 * inside it is booked at the start of the next open period, as an
 * adjustment that keeps the time it happened (`valueAt` on its statement
 * line).
 */

export const LEDGER_PERIOD_STATUSES = ['PENDING', 'CLOSED', 'DECLINED'] as const;
export const LedgerPeriodStatus = z.enum(LEDGER_PERIOD_STATUSES);
export type LedgerPeriodStatus = z.infer<typeof LedgerPeriodStatus>;

const MONTH_MESSAGE = 'month must be a month written YYYY-MM, such as 2026-10';
export const LedgerMonth = z
  .string(MONTH_MESSAGE)
  .check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, MONTH_MESSAGE));

/** POST /api/console/ledger/periods/: propose closing `month`, in the organization's reporting zone. */
export const ProposeLedgerClose = z.strictObject({ month: LedgerMonth });
export type ProposeLedgerClose = z.infer<typeof ProposeLedgerClose>;

/** One asset on one chain at the period's end, over the whole organization. */
export const LedgerPeriodClosing = z.object({
  asset: z.string(),
  chain: z.string(),
  closing: z.string(),
});
export type LedgerPeriodClosing = z.infer<typeof LedgerPeriodClosing>;

export const LedgerPeriod = z.object({
  id: z.string(),
  /** YYYY-MM in `timeZone`. */
  month: z.string(),
  timeZone: z.string(),
  /** The month's first instant and the next month's first, in its zone: [from, to). */
  from: z.string(),
  to: z.string(),
  status: LedgerPeriodStatus,
  /** The held item deciding it: /approvals/held/{heldItemId}. */
  heldItemId: z.string(),
  proposedBy: z.nullable(z.string()),
  proposedAt: z.string(),
  decidedAt: z.nullable(z.string()),
  /** Frozen as it closed; null until then. */
  closings: z.nullable(z.array(LedgerPeriodClosing)),
  /** SHA-256 (hex) of the organization's statement of the period as it closed; null until then. */
  digest: z.nullable(z.string()),
});
export type LedgerPeriod = z.infer<typeof LedgerPeriod>;

export const LedgerPeriodList = z.object({
  /** The organization's reporting zone: the first closed period's, else null (the next proposer's). */
  timeZone: z.nullable(z.string()),
  /** The month a close may be proposed for next (in `timeZone`, or the member's when none), if any. */
  nextMonth: z.nullable(z.string()),
  /** Newest first. */
  results: z.array(LedgerPeriod),
});
export type LedgerPeriodList = z.infer<typeof LedgerPeriodList>;

/** The categories of the journal's other side, each mapped to one account code. */
export const JOURNAL_CATEGORIES = [
  'transfers',
  'networkFees',
  'tradeFees',
  'stakingRewards',
  'openingBalances',
] as const;
export type JournalCategory = (typeof JOURNAL_CATEGORIES)[number];

export const JOURNAL_CATEGORY_LABELS: Record<JournalCategory, string> = {
  transfers: 'Transfers in and out (clearing)',
  networkFees: 'Network fees',
  tradeFees: 'Ramp and swap fees',
  stakingRewards: 'Staking rewards',
  openingBalances: 'Opening balances',
};

const ACCOUNT_MESSAGE =
  'must be an account code of 1 to 40 letters, digits, spaces and . : / _ -, starting with a letter or digit';
const AccountCode = z
  .string(ACCOUNT_MESSAGE)
  .check(z.trim(), z.regex(/^[A-Za-z0-9][A-Za-z0-9 .:/_-]{0,39}$/, ACCOUNT_MESSAGE));
const OptionalAccount = z.optional(z.nullable(AccountCode));

/** A vault's account: for every asset it holds (`asset` null), or for one asset. */
export const JournalVaultAccount = z.object({
  vaultId: z.string().check(z.minLength(1, 'vaultId is required')),
  asset: z.optional(z.nullable(z.string().check(z.minLength(1)))),
  account: AccountCode,
});
export type JournalVaultAccount = z.infer<typeof JournalVaultAccount>;

/** PUT /api/console/ledger/journal/mapping/: the whole mapping, set once and changed by admins. */
export const JournalMapping = z.strictObject({
  vaults: z.array(JournalVaultAccount).check(z.maxLength(1000)),
  categories: z.object({
    transfers: OptionalAccount,
    networkFees: OptionalAccount,
    tradeFees: OptionalAccount,
    stakingRewards: OptionalAccount,
    openingBalances: OptionalAccount,
  }),
});
export type JournalMapping = z.infer<typeof JournalMapping>;

export const JournalMappingAnswer = z.object({
  mapping: JournalMapping,
  updatedAt: z.nullable(z.string()),
});
export type JournalMappingAnswer = z.infer<typeof JournalMappingAnswer>;

/** GET /api/console/ledger/journal/: a closed period's journal as CSV. */
export const JournalQuery = z.object({ month: LedgerMonth });

/** The journal file's columns, in order. */
export const JOURNAL_COLUMNS = [
  'date',
  'account',
  'debit',
  'credit',
  'currency',
  'memo',
  'reference',
  'transaction_id',
  'entry',
] as const;
