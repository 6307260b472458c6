import { z } from 'zod';
import { PositiveDecimalString } from './decimal.ts';
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
