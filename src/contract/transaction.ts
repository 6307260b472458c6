import { z } from 'zod';
import { sameAddress } from './addresses.ts';
import { PositiveDecimalString } from './positive-decimal.ts';
import { displayTextProblem, type DisplayTextKind } from './display-text.ts';
import { FeeTier, PartyType, ResourceType } from './enums.ts';

// The transaction as answered, its filters and the creatable kinds.
export * from './transaction-record.ts';

// ---------------------------------------------------------------------------
// Requests: strict. Unknown fields are refused so a typo never goes unnoticed.
// ---------------------------------------------------------------------------

const nonEmpty = (field: string) => z.string().trim().min(1, `${field} is required`);

/**
 * A party in a request (TransferPartyData): `type` and `id`. The provider's
 * SDKs also send `value`, `name`, `address`, `exchange` and `bank` (docs/api-clients.md,
 * "What the sandbox accepts from SDK clients"): `address` must be the party's
 * address, and on an EXTERNAL_ADDRESS party `value` (the older SDKs' name for
 * it) and `address` may stand for `id`, the address itself; `name`,
 * `exchange`, `bank`, and `value` on a vault or contact, describe rather than
 * choose the party and are ignored.
 */
export const TransferPartyData = z
  .strictObject({
    type: PartyType,
    id: z.string().trim().min(1, 'id must not be empty').optional(),
    value: z.string().trim().min(1, 'value must not be empty').optional(),
    address: z.string().trim().min(1, 'address must not be empty').optional(),
    name: z.string().max(200, 'name must be at most 200 characters').optional(),
    exchange: z.string().max(200, 'exchange must be at most 200 characters').optional(),
    bank: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((party, ctx) => {
    const external = party.type === 'EXTERNAL_ADDRESS';
    const named = external
      ? (['id', 'address', 'value'] as const).filter((k) => party[k] !== undefined)
      : party.id === undefined
        ? []
        : (['id'] as const);
    const [first, ...others] = named;
    if (!first) {
      ctx.addIssue({
        code: 'invalid_type',
        expected: 'string',
        input: undefined,
        path: ['id'],
        message: external ? 'id is required: the external address' : 'id is required',
      });
      return;
    }
    for (const key of others) {
      if (!sameAddress(party[key] ?? '', party[first] ?? ''))
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `${key} must be the same address as ${first}`,
        });
    }
  })
  .transform((party) => ({
    type: party.type,
    id: party.id ?? party.address ?? party.value ?? '',
    ...(party.address === undefined ? {} : { address: party.address }),
  }));
export type TransferPartyData = z.output<typeof TransferPartyData>;

// The Python SDK sends `"gasParams": {}` when none is chosen: the default tier (HIGH) then.
export const GasParams = z.strictObject({ feeTier: z.optional(FeeTier) });
export const FeePayer = z.strictObject({ id: nonEmpty('feePayer.id') });

/** Text an approver reads must read as stored (display-text.ts). */
const shownAsIs =
  (field: string, kind: DisplayTextKind = 'one-line') =>
  (value: string, ctx: z.RefinementCtx) => {
    const problem = displayTextProblem(field, value, kind);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  };

// Control characters (\p{Cc}) are refused as the list's externalId filter
// refuses them: a transaction created with one could never be found by it.
// Invisible and text-direction characters (\p{Cf}) would make two ids look alike.
export const externalId = z
  .string()
  .trim()
  .min(1, 'externalId must not be empty when given')
  .max(128, 'externalId must be at most 128 characters')
  .refine((value) => !/\p{Cc}/u.test(value), 'externalId must not contain control characters')
  .superRefine((value, ctx) => {
    if (/\p{Cc}/u.test(value)) return;
    shownAsIs('externalId')(value, ctx);
  });
/** How long a memo may be, in characters: the forms count toward it. */
export const MEMO_MAX_LENGTH = 500;
// A memo may run over several lines; it may not hide or reorder what it says.
export const memo = z
  .string()
  .max(MEMO_MAX_LENGTH, `memo must be at most ${MEMO_MAX_LENGTH} characters`)
  .superRefine(shownAsIs('memo', 'multi-line'));
const blockChain = nonEmpty('blockChain');
const asset = nonEmpty('asset');

export const TransferCreateRequest = z.strictObject({
  category: z.literal('TRANSFER'),
  source: TransferPartyData,
  destination: TransferPartyData,
  amount: PositiveDecimalString,
  asset,
  blockChain,
  externalId: externalId.optional(),
  memo: memo.optional(),
  feePayer: FeePayer.optional(),
  gasParams: GasParams.optional(),
  /**
   * When to send it (the JS SDK's schedule): not signed before then, approvals
   * collected before. How far ahead it may be is the custody side's rule
   * (the sandbox: 30 days, engine/create.ts).
   */
  executeAt: z
    .string()
    .datetime({
      offset: true,
      message: 'executeAt must be an ISO 8601 time with its zone, like "2030-01-01T12:00:00Z"',
    })
    .optional(),
});
export type TransferCreateRequest = z.infer<typeof TransferCreateRequest>;

/**
 * Hex of whole bytes. An odd count of digits (the JS SDK's raw-signing example
 * sends 33) is refused rather than padded: a leading and a trailing 0 make two
 * different messages, and a signer must sign exactly the bytes its client built.
 */
const hex = (field: string) =>
  z.string().superRefine((value, ctx) => {
    const digits = value.replace(/^0x/, '');
    if (!/^[0-9a-fA-F]+$/.test(digits))
      ctx.addIssue({ code: 'custom', message: `${field} must be hex bytes, like "0xa9059cbb..."` });
    else if (digits.length % 2 === 1)
      ctx.addIssue({
        code: 'custom',
        message: `${field} has ${digits.length} hex digits: it must be whole bytes, two hex digits per byte, exactly as your client built them (the sandbox does not guess where a missing 0 goes)`,
      });
  });

export const EvmCallData = z.strictObject({
  callData: hex('data.callData'),
  toAddress: z.string().trim().min(1).optional(),
});
export const IcpCanisterCall = z.strictObject({
  canisterId: nonEmpty('data.canisterId'),
  method: nonEmpty('data.method'),
  arg: z.string(),
});
export const RawSigning = z.strictObject({ messageHex: hex('data.messageHex') });
export const MethodAndParams = z.strictObject({
  method: nonEmpty('data.method'),
  params: z.record(z.string(), z.unknown()),
});
export const ContractCallData = z.union([
  EvmCallData,
  IcpCanisterCall,
  RawSigning,
  MethodAndParams,
]);
export type ContractCallData = z.infer<typeof ContractCallData>;

export const ContractCallCreateRequest = z.strictObject({
  category: z.literal('CONTRACT_CALL'),
  vaultId: nonEmpty('vaultId'),
  blockChain,
  amount: PositiveDecimalString.optional(),
  data: ContractCallData.optional(),
  externalId: externalId.optional(),
  memo: memo.optional(),
  gasParams: GasParams.optional(),
  creationOptions: z.strictObject({ skipPreprocessSimulation: z.boolean().optional() }).optional(),
});
export type ContractCallCreateRequest = z.infer<typeof ContractCallCreateRequest>;

/**
 * A stake's sub-category: STAKE (the default, as the description's body has
 * none) or UNSTAKE, the provider's own sub-category for taking a stake back.
 */
const STAKE_SUB_CATEGORIES = ['STAKE', 'UNSTAKE'] as const;

export const StakeCreateRequest = z.strictObject({
  category: z.literal('STAKE'),
  subCategory: z
    .enum(STAKE_SUB_CATEGORIES, { message: 'subCategory must be STAKE or UNSTAKE' })
    .optional(),
  source: TransferPartyData,
  asset,
  blockChain,
  amount: PositiveDecimalString,
  resourceType: z.optional(ResourceType),
  externalId: externalId.optional(),
  memo: memo.optional(),
  gasParams: GasParams.optional(),
});
export type StakeCreateRequest = z.infer<typeof StakeCreateRequest>;

export const DelegateResourceCreateRequest = z.strictObject({
  category: z.literal('DELEGATE_RESOURCE'),
  source: TransferPartyData,
  destination: TransferPartyData,
  asset,
  blockChain,
  amount: PositiveDecimalString,
  resourceType: ResourceType,
  externalId: externalId.optional(),
  memo: memo.optional(),
  gasParams: GasParams.optional(),
});
export type DelegateResourceCreateRequest = z.infer<typeof DelegateResourceCreateRequest>;

/** One path, `category` selects the kind (endpoint 7). */
export const CreateTransactionRequest = z.discriminatedUnion('category', [
  TransferCreateRequest,
  ContractCallCreateRequest,
  StakeCreateRequest,
  DelegateResourceCreateRequest,
]);
export type CreateTransactionRequest = z.infer<typeof CreateTransactionRequest>;

export const ReplaceTransactionRequest = z.strictObject({
  transactionId: nonEmpty('transactionId'),
});
export type ReplaceTransactionRequest = z.infer<typeof ReplaceTransactionRequest>;

/**
 * Endpoint 8 estimates a transfer. The sandbox also estimates the other three
 * kinds from the fields that decide their fee (docs/api-rules.md, "Fee tiers"), so every
 * create form can show a fee before sending: each is its create body without
 * the fields that only record intent (externalId, memo, tier, options).
 */
const notPriced = { externalId: true, memo: true, gasParams: true } as const;
export const EstimateFeeRequest = z.discriminatedUnion('category', [
  TransferCreateRequest.omit({ ...notPriced, feePayer: true, executeAt: true }),
  ContractCallCreateRequest.omit({ ...notPriced, creationOptions: true }),
  StakeCreateRequest.omit(notPriced),
  DelegateResourceCreateRequest.omit(notPriced),
]);
export type EstimateFeeRequest = z.infer<typeof EstimateFeeRequest>;
