import { z } from 'zod';
import { chainInfo } from '../../../../../contract/chains.ts';
import {
  TransferCreateRequest,
  type TransferPartyData,
} from '../../../../../contract/transaction.ts';
import {
  addContractIssues,
  checkAddress,
  EXTERNAL_ID_REQUIRED,
  checkAmountAgainst,
  head,
  optional,
  sendFormDefaults,
  sendFormShape,
  type FormContext,
} from './form-rules.ts';

/**
 * The transfer form (7a): what a person picks, as flat strings, checked by
 * the contract's TransferCreateRequest after the picker rules below and
 * turned into that request on submit.
 */
export const DESTINATION_KINDS = ['CONTACT', 'VAULT', 'EXTERNAL_ADDRESS'] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

/** Where it goes, as transfers and delegations pick it. */
export const destinationShape = {
  destinationKind: z.enum(DESTINATION_KINDS),
  destinationContactId: z.string(),
  destinationVaultId: z.string(),
  destinationAddress: z.string(),
};

export function destinationDefaults() {
  return {
    destinationKind: 'CONTACT' as const,
    destinationContactId: '',
    destinationVaultId: '',
    destinationAddress: '',
  };
}

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

interface DestinationValues {
  destinationKind: DestinationKind;
  destinationContactId: string;
  destinationVaultId: string;
  destinationAddress: string;
}

/** Which form field holds the destination of each kind (transfers and delegations alike). */
export function destinationField(kind: DestinationKind): keyof DestinationValues {
  if (kind === 'VAULT') return 'destinationVaultId';
  if (kind === 'EXTERNAL_ADDRESS') return 'destinationAddress';
  return 'destinationContactId';
}

export function destinationParty(v: DestinationValues): TransferPartyData {
  const field = destinationField(v.destinationKind);
  return { type: v.destinationKind, id: v[field].trim() };
}

export function toTransferRequest(v: TransferFormValues): TransferCreateRequest {
  const externalId = optional(v.externalId);
  const memo = optional(v.memo);
  return {
    category: 'TRANSFER',
    source: { type: 'VAULT', id: v.sourceVaultId },
    destination: destinationParty(v),
    amount: v.amount.trim(),
    asset: v.asset,
    blockChain: v.blockChain,
    ...(externalId ? { externalId } : {}),
    ...(memo ? { memo } : {}),
    ...(v.feePayerVaultId ? { feePayer: { id: v.feePayerVaultId } } : {}),
    gasParams: { feeTier: v.feeTier },
  };
}

/** The form field a request path (or a server `fields` entry) is about. */
export function transferFieldFor(
  path: string,
  v: Pick<TransferFormValues, 'destinationKind'>,
): keyof TransferFormValues | undefined {
  switch (head(path)) {
    case 'source':
      return 'sourceVaultId';
    case 'destination':
      return destinationField(v.destinationKind);
    case 'feePayer':
      return 'feePayerVaultId';
    case 'gasParams':
      return 'feeTier';
    case 'amount':
    case 'asset':
    case 'blockChain':
    case 'memo':
    case 'externalId':
      return head(path) as keyof TransferFormValues;
    default:
      return undefined;
  }
}

export function transferFormSchema(ctx: FormContext = {}) {
  return TransferFormValues.superRefine((v, refine) => {
    const flagged = new Set<string>();
    const issue = (field: keyof TransferFormValues, message: string) => {
      if (flagged.has(field)) return;
      flagged.add(field);
      refine.addIssue({ code: 'custom', path: [field], message });
    };
    if (!v.sourceVaultId) issue('sourceVaultId', 'choose the vault to send from');
    if (!v.externalId.trim()) issue('externalId', EXTERNAL_ID_REQUIRED);
    if (!v.blockChain) issue('blockChain', 'choose a chain');
    if (!v.asset) issue('asset', 'choose an asset');
    if (v.destinationKind === 'CONTACT' && !v.destinationContactId)
      issue('destinationContactId', 'choose an approved contact');
    if (v.destinationKind === 'VAULT') {
      if (!v.destinationVaultId) issue('destinationVaultId', 'choose the vault to send to');
      else if (v.destinationVaultId === v.sourceVaultId)
        issue('destinationVaultId', 'choose a vault other than the source');
    }
    if (v.destinationKind === 'EXTERNAL_ADDRESS' && v.blockChain) {
      const problem = checkAddress(v.blockChain, v.destinationAddress);
      if (problem) issue('destinationAddress', problem);
    }
    if (v.feePayerVaultId && v.blockChain && !chainInfo(v.blockChain)?.supportsFeePayer)
      issue('feePayerVaultId', 'this chain does not let another vault pay the fee');
    addContractIssues(
      TransferCreateRequest,
      toTransferRequest(v),
      (path) => transferFieldFor(path, v),
      flagged,
      refine,
    );
    if (!flagged.has('amount'))
      checkAmountAgainst(v.amount.trim(), ctx, (message) => issue('amount', message));
  }).transform(toTransferRequest);
}
