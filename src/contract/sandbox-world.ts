import { z } from 'zod';
import { chainInfo } from './chains.ts';
import { cmp } from './decimal.ts';
import { PositiveDecimalString } from './positive-decimal.ts';
import { SubOrgCreateRequest } from './sub-org-writes.ts';

/**
 * The sandbox's own tools for making a world to work in (a sub-organization,
 * money in a vault): acts a real custody service does through its dashboard
 * or the chain (the custody API's createSubOrg makes a sub-organization too:
 * endpoints/sub-org-writes.ts). Sandbox only.
 */

/** The most one sandbox deposit brings: enough for any story, small enough to read. */
export const SANDBOX_DEPOSIT_MAX = '1000000000';

/**
 * POST /api/console/sandbox/sub-orgs/: a new sub-organization of the caller's
 * organization, named by the same rule as the custody API's createSubOrg.
 */
export const SandboxSubOrgRequest = SubOrgCreateRequest;
export type SandboxSubOrgRequest = SubOrgCreateRequest;

/**
 * POST /api/console/sandbox/vaults/{id}/deposits/: money arriving in the
 * vault from outside, recorded as a completed incoming transfer.
 */
export const SandboxDepositRequest = z.strictObject({
  asset: z.string('asset is required').trim().min(1, 'asset is required').max(20),
  chain: z
    .string('chain is required')
    .regex(/^[A-Z0-9_]{1,40}$/, 'chain is a chain value like "ETHEREUM"'),
  amount: z.string('amount is required').pipe(PositiveDecimalString),
});
export type SandboxDepositRequest = z.output<typeof SandboxDepositRequest>;

/** The longest a quote may be made to hold from now: a sandbox quote's own lifetime. */
export const SANDBOX_QUOTE_EXPIRY_MAX_SECONDS = 60;

/**
 * POST /api/console/sandbox/transactions/{id}/expire-quote/: a PENDING ramp's
 * quote expires now, or `inSeconds` from now, so what an approval does with
 * an expired quote (it is priced again first) can be tried without waiting
 * out the quote's minute.
 */
export const SandboxExpireQuoteRequest = z.strictObject({
  inSeconds: z
    .int('inSeconds is a whole number of seconds')
    .min(0, `inSeconds must be from 0 to ${SANDBOX_QUOTE_EXPIRY_MAX_SECONDS}`)
    .max(
      SANDBOX_QUOTE_EXPIRY_MAX_SECONDS,
      `inSeconds must be from 0 to ${SANDBOX_QUOTE_EXPIRY_MAX_SECONDS}`,
    )
    .optional(),
});
export type SandboxExpireQuoteRequest = z.output<typeof SandboxExpireQuoteRequest>;

/** The most a surge multiplies a chain's fee market by: far past any congestion a story needs. */
export const SANDBOX_FEE_SURGE_MAX = '1000';

/**
 * POST /api/console/sandbox/sub-orgs/{id}/fee-surge/: the fee market of one
 * chain multiplied by `factor` for the items of one sub-organization, until
 * `until` (after now, at most a day ahead). A surge set again replaces the
 * last; a factor of 1 ends it early. `steady`: the multiplier applies to the
 * chain's calm market (no congestion, no jitter), so the estimate holds still
 * until the surge ends; a steady factor of 1 holds the calm market itself.
 */
export const SandboxFeeSurgeRequest = z.strictObject({
  chain: z
    .string('chain is required')
    .refine((value) => chainInfo(value) !== undefined, 'chain is a chain value like "ETHEREUM"'),
  factor: z
    .string('factor is required, a decimal written as a string, like "3"')
    .pipe(PositiveDecimalString)
    .refine(
      (value) => cmp(value, SANDBOX_FEE_SURGE_MAX) <= 0,
      `factor must be at most ${SANDBOX_FEE_SURGE_MAX}`,
    ),
  until: z
    .string('until is required')
    .datetime({ offset: true, message: 'until must be an ISO 8601 time with its zone' }),
  steady: z.boolean('steady must be true or false').optional(),
});
export type SandboxFeeSurgeRequest = z.output<typeof SandboxFeeSurgeRequest>;

export const SandboxFeeSurge = z.object({
  subOrgId: z.string(),
  chain: z.string(),
  factor: z.string(),
  until: z.string(),
  steady: z.boolean(),
});
export type SandboxFeeSurge = z.output<typeof SandboxFeeSurge>;

/** The most epochs one call passes: a month of daily ones. */
export const SANDBOX_STAKING_EPOCHS_MAX = 31;

/**
 * POST /api/console/sandbox/vaults/{id}/staking-epochs/: the vault's stake on
 * a chain, which has earned nothing yet, is moved into the past by whole
 * epochs of the chain, so that `epochs` of them have ended since it began
 * to earn (when its stakes were made and completed, and what its position
 * is paid up to, all move), and the epochs that thereby ended are paid
 * at once as the simulator pays them, each dated at its own end: so a
 * staking reward can be seen without waiting a day for an epoch to end.
 */
export const SandboxStakingEpochsRequest = z.strictObject({
  chain: z
    .string('chain is required')
    .refine((value) => chainInfo(value) !== undefined, 'chain is a chain value like "TRON"'),
  epochs: z
    .number('epochs is required, a whole number')
    .int('epochs must be a whole number')
    .min(1, 'epochs must be at least 1')
    .max(SANDBOX_STAKING_EPOCHS_MAX, `epochs must be at most ${SANDBOX_STAKING_EPOCHS_MAX}`),
});
export type SandboxStakingEpochsRequest = z.output<typeof SandboxStakingEpochsRequest>;

export const SandboxStakingEpochs = z.object({
  vaultId: z.string(),
  chain: z.string(),
  asset: z.string(),
  /** The rewards paid, oldest first: each epoch's end and the amount credited. */
  rewards: z.array(z.object({ at: z.string(), amount: z.string() })),
});
export type SandboxStakingEpochs = z.output<typeof SandboxStakingEpochs>;
