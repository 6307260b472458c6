import { z } from 'zod';
import { chainInfo } from '#contract/chains.ts';
import { TransferCreateRequest } from '#contract/transaction.ts';
import {
  destinationDefaults,
  destinationFieldFor,
  destinationIssues,
  destinationParty,
  destinationShape,
} from './destination-schema.ts';
import {
  createFormSchema,
  sendFormDefaults,
  sendFormShape,
  sendRequestPart,
} from './form-rules.ts';

/**
 * The transfer form (7a): what a person picks, as flat strings, checked by
 * the contract's TransferCreateRequest after the picker rules below and
 * turned into that request on submit.
 */
export const TransferFormValues = z.object({
  ...sendFormShape,
  ...destinationShape,
  /** '' = the source vault pays its own fee. */
  feePayerVaultId: z.string(),
});
export type TransferFormValues = z.infer<typeof TransferFormValues>;

export function transferDefaults(): TransferFormValues {
  return { ...sendFormDefaults(), ...destinationDefaults(), feePayerVaultId: '' };
}

export function toTransferRequest(v: TransferFormValues): TransferCreateRequest {
  return {
    category: 'TRANSFER',
    ...sendRequestPart(v),
    destination: destinationParty(v),
    ...(v.feePayerVaultId ? { feePayer: { id: v.feePayerVaultId } } : {}),
  };
}

/** The form field a request path (or a server `fields` entry) is about. */
export const transferFieldFor = destinationFieldFor({ feePayer: 'feePayerVaultId' });

export const transferFormSchema = createFormSchema({
  values: TransferFormValues,
  request: TransferCreateRequest,
  toRequest: toTransferRequest,
  fieldFor: transferFieldFor,
  rules: (v, issue, _contract, ctx) => {
    if (!v.sourceVaultId) issue('sourceVaultId', 'choose the vault to send from');
    if (!v.blockChain) issue('blockChain', 'choose a chain');
    if (!v.asset) issue('asset', 'choose an asset');
    destinationIssues(v, issue, 'send', ctx);
    if (v.feePayerVaultId && v.blockChain && !chainInfo(v.blockChain)?.supportsFeePayer)
      issue('feePayerVaultId', 'this chain does not let another vault pay the fee');
  },
});
