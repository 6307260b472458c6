import { z } from 'zod';
import { chainInfo } from '../../../../../contract/chains.ts';
import { RESOURCE_TYPES } from '../../../../../contract/enums.ts';
import { StakeCreateRequest } from '../../../../../contract/transaction.ts';
import {
  addContractIssues,
  EXTERNAL_ID_REQUIRED,
  checkAmountAgainst,
  head,
  optional,
  sendFormDefaults,
  sendFormShape,
  type FormContext,
} from './form-rules.ts';

/**
 * The stake form (7c): a vault stakes its chain's native asset, with a TRON
 * resource type where the chain has them. Checked by the contract's
 * StakeCreateRequest and turned into it on submit.
 */
export const StakeFormValues = z.object({
  ...sendFormShape,
  /** '' = none (the only choice off TRON). */
  resourceType: z.union([z.literal(''), z.enum(RESOURCE_TYPES)]),
});
export type StakeFormValues = z.infer<typeof StakeFormValues>;

export function stakeDefaults(): StakeFormValues {
  return { ...sendFormDefaults(), resourceType: '' };
}

export function toStakeRequest(v: StakeFormValues): StakeCreateRequest {
  const externalId = optional(v.externalId);
  const memo = optional(v.memo);
  return {
    category: 'STAKE',
    source: { type: 'VAULT', id: v.sourceVaultId },
    asset: v.asset,
    blockChain: v.blockChain,
    amount: v.amount.trim(),
    ...(v.resourceType ? { resourceType: v.resourceType } : {}),
    ...(externalId ? { externalId } : {}),
    ...(memo ? { memo } : {}),
    gasParams: { feeTier: v.feeTier },
  };
}

export function stakeFieldFor(path: string): keyof StakeFormValues | undefined {
  const first = head(path);
  if (first === 'source') return 'sourceVaultId';
  if (first === 'gasParams') return 'feeTier';
  const own = ['blockChain', 'asset', 'amount', 'resourceType', 'memo', 'externalId'] as const;
  return own.find((f) => f === first);
}

/** Rules a stake and a delegation share: the chain, its native asset and the TRON resource. */
export function stakeLikeIssues(
  v: { sourceVaultId: string; blockChain: string; asset: string; resourceType: string },
  issue: (
    field: 'sourceVaultId' | 'blockChain' | 'asset' | 'resourceType',
    message: string,
  ) => void,
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

export function stakeFormSchema(ctx: FormContext = {}) {
  return StakeFormValues.superRefine((v, refine) => {
    const flagged = new Set<string>();
    const issue = (field: keyof StakeFormValues, message: string) => {
      if (flagged.has(field)) return;
      flagged.add(field);
      refine.addIssue({ code: 'custom', path: [field], message });
    };
    stakeLikeIssues(v, issue, 'STAKE');
    if (!v.externalId.trim()) issue('externalId', EXTERNAL_ID_REQUIRED);
    addContractIssues(StakeCreateRequest, toStakeRequest(v), stakeFieldFor, flagged, refine);
    if (!flagged.has('amount'))
      checkAmountAgainst(v.amount.trim(), ctx, (message) => issue('amount', message));
  }).transform(toStakeRequest);
}
