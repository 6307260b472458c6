import { z } from 'zod';
import { chainInfo } from '#contract/chains.ts';
import { RESOURCE_TYPES } from '#contract/enums.ts';
import { StakeCreateRequest } from '#contract/transaction.ts';
import {
  createFormSchema,
  sendFieldFor,
  sendFormDefaults,
  sendFormShape,
  sendRequestPart,
  type IssueOn,
} from './form-rules.ts';

/**
 * The stake form (7c): a vault stakes its chain's native asset, with a TRON
 * resource type where the chain has them. Checked by the contract's
 * StakeCreateRequest and turned into it on submit.
 */
export const StakeFormValues = z.object({
  ...sendFormShape,
  /** Stake more, or take back what is staked (sub-category UNSTAKE). */
  action: z.enum(['STAKE', 'UNSTAKE']),
  /** '' = none (the only choice off TRON). */
  resourceType: z.union([z.literal(''), z.enum(RESOURCE_TYPES)]),
});
export type StakeFormValues = z.infer<typeof StakeFormValues>;

export function stakeDefaults(): StakeFormValues {
  return { ...sendFormDefaults(), action: 'STAKE', resourceType: '' };
}

export function toStakeRequest(v: StakeFormValues): StakeCreateRequest {
  return {
    category: 'STAKE',
    // A stake sends no sub-category, as the description's body has none.
    ...(v.action === 'UNSTAKE' ? { subCategory: 'UNSTAKE' as const } : {}),
    ...sendRequestPart(v),
    ...(v.resourceType ? { resourceType: v.resourceType } : {}),
  };
}

export function stakeFieldFor(path: string): keyof StakeFormValues | undefined {
  return sendFieldFor(path, { resourceType: 'resourceType', subCategory: 'action' });
}

/** Rules a stake and a delegation share: the chain, its native asset and the TRON resource. */
export function stakeLikeIssues(
  v: { sourceVaultId: string; blockChain: string; asset: string; resourceType: string },
  issue: IssueOn<'sourceVaultId' | 'blockChain' | 'asset' | 'resourceType'>,
  category: 'STAKE' | 'DELEGATE_RESOURCE',
): void {
  if (!v.sourceVaultId) issue('sourceVaultId', 'choose the vault');
  const chain = chainInfo(v.blockChain);
  if (!v.blockChain) issue('blockChain', 'choose a chain');
  else if (category === 'STAKE' && chain && !chain.stake)
    issue('blockChain', `staking is not offered on ${chain.label}`);
  else if (category === 'DELEGATE_RESOURCE' && chain && !chain.tronResources)
    issue('blockChain', `resources can be delegated only on Tron, not ${chain.label}`);
  if (chain && v.asset && v.asset !== chain.nativeAsset)
    issue('asset', `${category === 'STAKE' ? 'staking' : 'delegating'} uses ${chain.nativeAsset}`);
  if (v.resourceType && chain && !chain.tronResources)
    issue('resourceType', `${chain.label} has no TRON resources`);
  if (category === 'DELEGATE_RESOURCE' && !v.resourceType)
    issue('resourceType', 'choose bandwidth or energy');
}

export const stakeFormSchema = createFormSchema({
  values: StakeFormValues,
  request: StakeCreateRequest,
  toRequest: toStakeRequest,
  fieldFor: stakeFieldFor,
  rules: (v, issue) => stakeLikeIssues(v, issue, 'STAKE'),
});
