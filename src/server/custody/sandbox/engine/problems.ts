import { ERROR_CODES } from '#contract/common.ts';
import { ApiError } from '#contract/api-error.ts';

/**
 * Collects every rule a request breaks, so one 400 names all of them: each
 * with the field it concerns and a code saying which rule.
 */
export class Problems {
  private readonly list: Array<{ field: string; code: string; message: string }> = [];

  add(field: string, code: string, message: string): void {
    this.list.push({ field, code, message });
  }

  has(field: string): boolean {
    return this.list.some((p) => p.field === field || p.field.startsWith(`${field}.`));
  }

  get empty(): boolean {
    return this.list.length === 0;
  }

  /** Throws a 400 whose `code` is the first rule broken and whose `fields` list them all. */
  throwIfAny(): void {
    const [first] = this.list;
    if (!first) return;
    throw new ApiError(
      400,
      first.code || ERROR_CODES.validation,
      this.list.map((p) => `${p.field}: ${p.message}`).join('; '),
      this.list.map(({ field, message }) => ({ field, message })),
    );
  }
}

/** Stable codes of the engine's rules (src/contract/common.ts has the generic ones). */
export const ENGINE_CODES = {
  unsupportedChain: 'UNSUPPORTED_CHAIN',
  unknownAsset: 'ASSET_NOT_ON_CHAIN',
  amountPrecision: 'AMOUNT_PRECISION',
  sourceType: 'INVALID_SOURCE_TYPE',
  destinationType: 'INVALID_DESTINATION_TYPE',
  invalidAddress: 'INVALID_ADDRESS',
  partyAddressMismatch: 'PARTY_ADDRESS_MISMATCH',
  unknownVault: 'UNKNOWN_VAULT',
  noWallet: 'NO_WALLET_ON_CHAIN',
  unknownContact: 'UNKNOWN_CONTACT',
  contactNotApproved: 'CONTACT_NOT_APPROVED',
  contactWrongChain: 'CONTACT_WRONG_CHAIN',
  contactAsset: 'ASSET_NOT_ALLOWED_FOR_CONTACT',
  contactOtherSubOrg: 'CONTACT_OF_ANOTHER_SUB_ORG',
  sameParty: 'SAME_SOURCE_AND_DESTINATION',
  feePayerNotSupported: 'FEE_PAYER_NOT_SUPPORTED',
  stakeNotSupported: 'STAKE_NOT_SUPPORTED',
  unstakeExceedsStaked: 'UNSTAKE_EXCEEDS_STAKED',
  delegateNotSupported: 'DELEGATE_RESOURCE_NOT_SUPPORTED',
  resourceTypeNotSupported: 'RESOURCE_TYPE_NOT_SUPPORTED',
  nativeAssetRequired: 'NATIVE_ASSET_REQUIRED',
  contractCallNotSupported: 'CONTRACT_CALL_NOT_SUPPORTED',
  contractDataMismatch: 'CONTRACT_DATA_MISMATCH',
  contractDataTooDeep: 'CONTRACT_DATA_TOO_DEEP',
  duplicateExternalId: ERROR_CODES.duplicateExternalId,
  notReplaceableStatus: 'NOT_REPLACEABLE_STATUS',
  replacementNotSupported: 'REPLACEMENT_NOT_SUPPORTED',
  replacementExists: 'REPLACEMENT_EXISTS',
  noOrganization: 'NO_ORGANIZATION',
  executeAtOutOfRange: 'EXECUTE_AT_OUT_OF_RANGE',
} as const;

/**
 * A sandbox with no organization (an empty database before seeding) can hold
 * nothing. One answer for every create: 409, the state of the sandbox, not a
 * missing resource the caller named.
 */
export function noOrganization(): ApiError {
  return new ApiError(409, ENGINE_CODES.noOrganization, 'The sandbox has no organization yet');
}
