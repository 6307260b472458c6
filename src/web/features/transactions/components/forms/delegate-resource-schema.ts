import { z } from 'zod';
import { DelegateResourceCreateRequest } from '../../../../../contract/transaction.ts';
import {
  addContractIssues,
  checkAddress,
  EXTERNAL_ID_REQUIRED,
  checkAmountAgainst,
  head,
  optional,
  type FormContext,
} from './form-rules.ts';
import { StakeFormValues, stakeDefaults, stakeLikeIssues } from './stake-schema.ts';
import {
  destinationDefaults,
  destinationField,
  destinationParty,
  destinationShape,
} from './transfer-schema.ts';

/**
 * The delegate-resource form (7d): a stake's fields plus the party that
 * receives the bandwidth or energy, with the resource type required.
 */
export const DelegateResourceFormValues = z.object({
  ...StakeFormValues.shape,
  ...destinationShape,
});
export type DelegateResourceFormValues = z.infer<typeof DelegateResourceFormValues>;

export function delegateResourceDefaults(): DelegateResourceFormValues {
  // Resources are TRON's: the chain and its native asset are the only choice.
  return { ...stakeDefaults(), blockChain: 'TRON', asset: 'TRX', ...destinationDefaults() };
}

export function toDelegateResourceRequest(
  v: DelegateResourceFormValues,
): DelegateResourceCreateRequest {
  const externalId = optional(v.externalId);
  const memo = optional(v.memo);
  return {
    category: 'DELEGATE_RESOURCE',
    source: { type: 'VAULT', id: v.sourceVaultId },
    destination: destinationParty(v),
    asset: v.asset,
    blockChain: v.blockChain,
    amount: v.amount.trim(),
    // '' fails the contract's enum, which the form reports on resourceType.
    resourceType: v.resourceType as DelegateResourceCreateRequest['resourceType'],
    ...(externalId ? { externalId } : {}),
    ...(memo ? { memo } : {}),
    gasParams: { feeTier: v.feeTier },
  };
}

export function delegateResourceFieldFor(
  path: string,
  v: Pick<DelegateResourceFormValues, 'destinationKind'>,
): keyof DelegateResourceFormValues | undefined {
  const first = head(path);
  if (first === 'source') return 'sourceVaultId';
  if (first === 'destination') return destinationField(v.destinationKind);
  if (first === 'gasParams') return 'feeTier';
  const own = ['blockChain', 'asset', 'amount', 'resourceType', 'memo', 'externalId'] as const;
  return own.find((f) => f === first);
}

export function delegateResourceFormSchema(ctx: FormContext = {}) {
  return DelegateResourceFormValues.superRefine((v, refine) => {
    const flagged = new Set<string>();
    const issue = (field: keyof DelegateResourceFormValues, message: string) => {
      if (flagged.has(field)) return;
      flagged.add(field);
      refine.addIssue({ code: 'custom', path: [field], message });
    };
    stakeLikeIssues(v, issue, 'DELEGATE_RESOURCE');
    if (!v.externalId.trim()) issue('externalId', EXTERNAL_ID_REQUIRED);
    if (v.destinationKind === 'CONTACT' && !v.destinationContactId)
      issue('destinationContactId', 'choose an approved contact');
    if (v.destinationKind === 'VAULT') {
      if (!v.destinationVaultId) issue('destinationVaultId', 'choose the vault to delegate to');
      else if (v.destinationVaultId === v.sourceVaultId)
        issue('destinationVaultId', 'choose a vault other than the source');
    }
    if (v.destinationKind === 'EXTERNAL_ADDRESS' && v.blockChain) {
      const problem = checkAddress(v.blockChain, v.destinationAddress);
      if (problem) issue('destinationAddress', problem);
    }
    addContractIssues(
      DelegateResourceCreateRequest,
      toDelegateResourceRequest(v),
      (path) => delegateResourceFieldFor(path, v),
      flagged,
      refine,
    );
    if (!flagged.has('amount'))
      checkAmountAgainst(v.amount.trim(), ctx, (message) => issue('amount', message));
  }).transform(toDelegateResourceRequest);
}
