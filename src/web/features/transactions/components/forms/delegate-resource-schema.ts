import { z } from 'zod';
import { DelegateResourceCreateRequest } from '#contract/transaction.ts';
import {
  destinationDefaults,
  destinationFieldFor,
  destinationIssues,
  destinationParty,
  destinationShape,
} from './destination-schema.ts';
import { createFormSchema, sendRequestPart } from './form-rules.ts';
import { StakeFormValues, stakeDefaults, stakeLikeIssues } from './stake-schema.ts';

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
  return {
    category: 'DELEGATE_RESOURCE',
    ...sendRequestPart(v),
    destination: destinationParty(v),
    // '' fails the contract's enum, which the form reports on resourceType.
    resourceType: v.resourceType as DelegateResourceCreateRequest['resourceType'],
  };
}

export const delegateResourceFieldFor = destinationFieldFor({ resourceType: 'resourceType' });

export const delegateResourceFormSchema = createFormSchema({
  values: DelegateResourceFormValues,
  request: DelegateResourceCreateRequest,
  toRequest: toDelegateResourceRequest,
  fieldFor: delegateResourceFieldFor,
  rules: (v, issue, _contract, ctx) => {
    stakeLikeIssues(v, issue, 'DELEGATE_RESOURCE');
    destinationIssues(v, issue, 'delegate', ctx);
  },
});
