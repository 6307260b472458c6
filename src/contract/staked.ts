import * as z from 'zod/mini';
import { ResourceType } from './enums.ts';

/**
 * What a vault has staked on a chain (GET /api/console/vaults/{id}/staked/):
 * the console's own read, as the custody API has none. An unstake may take
 * back at most this: the vault's completed stakes of the chain's native asset
 * (and TRON resource, where given), less every unstake not failed or
 * declined, since one on its way has already claimed its part. The unstake
 * form shows it and checks the amount against it as the member types.
 */
export const StakedQuery = z.strictObject({
  blockChain: z.string().check(z.minLength(1, 'blockChain is required: the chain staked on')),
  resourceType: z.optional(ResourceType),
});
export type StakedQuery = z.infer<typeof StakedQuery>;

export const StakedAmount = z.strictObject({
  vaultId: z.string(),
  blockChain: z.string(),
  /** The chain's native asset: what is staked. */
  asset: z.string(),
  resourceType: z.nullable(ResourceType),
  /** A decimal string; null when the backend cannot tell (the custody API reports no stake). */
  staked: z.nullable(z.string()),
});
export type StakedAmount = z.infer<typeof StakedAmount>;
