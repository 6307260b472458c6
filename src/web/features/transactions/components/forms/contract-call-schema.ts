import { z } from 'zod';
import { addressProblem } from '#contract/addresses.ts';
import { chainInfo, type ContractCallVariant } from '#contract/chains.ts';
import { FeeTier } from '#contract/enums.ts';
import {
  ContractCallCreateRequest,
  EvmCallData,
  IcpCanisterCall,
  MethodAndParams,
  RawSigning,
  type ContractCallData,
} from '#contract/transaction.ts';
import { createFormSchema, head, newExternalId, optional, referenceAndTier } from './form-rules.ts';

/**
 * The contract-call form (7b): a vault, a chain, and the `data` variant that
 * chain takes, each variant checked by its own contract schema. Skipping the
 * preprocessing simulation needs a written reason, which the console server
 * records in the audit log (it travels in a header, not in the body).
 */
export const ContractCallFormValues = z.object({
  vaultId: z.string(),
  blockChain: z.string(),
  amount: z.string(),
  callData: z.string(),
  toAddress: z.string(),
  canisterId: z.string(),
  method: z.string(),
  arg: z.string(),
  messageHex: z.string(),
  /** JSON text of the parameters object, as the member types it. */
  params: z.string(),
  skipSimulation: z.boolean(),
  skipReason: z.string(),
  externalId: z.string(),
  feeTier: FeeTier,
});
export type ContractCallFormValues = z.infer<typeof ContractCallFormValues>;
type Field = keyof ContractCallFormValues;

export const SKIP_REASON_MIN = 10;
export const SKIP_REASON_MAX = 500;

export function contractCallDefaults(): ContractCallFormValues {
  return {
    vaultId: '',
    blockChain: '',
    amount: '',
    callData: '',
    toAddress: '',
    canisterId: '',
    method: '',
    arg: '',
    messageHex: '',
    params: '{}',
    skipSimulation: false,
    skipReason: '',
    externalId: newExternalId(),
    // The middle tier, as every create form opens (form-rules.ts).
    feeTier: 'MEDIUM',
  };
}

const VARIANT_SCHEMAS = {
  evm: EvmCallData,
  icp: IcpCanisterCall,
  rawSigning: RawSigning,
  methodParams: MethodAndParams,
} as const;

/** The field that speaks for the whole `data` of a variant (where a mismatch is shown). */
const VARIANT_LEAD: Record<NonNullable<ContractCallVariant>, Field> = {
  evm: 'callData',
  icp: 'canisterId',
  rawSigning: 'messageHex',
  methodParams: 'method',
};

export function variantOf(blockChain: string): ContractCallVariant {
  return chainInfo(blockChain)?.contractCall ?? null;
}

/** The parameters as an object, or why the text is not one. */
export function parseParams(text: string): { value: Record<string, unknown> } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text.trim() === '' ? '{}' : text);
  } catch (error) {
    return { error: `not valid JSON: ${error instanceof Error ? error.message : 'parse error'}` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return { error: 'must be a JSON object, like {"to": "T…", "amount": "1"}' };
  return { value: value as Record<string, unknown> };
}

function dataOf(v: ContractCallFormValues): ContractCallData | undefined {
  const variant = variantOf(v.blockChain);
  if (variant === 'evm') {
    const toAddress = optional(v.toAddress);
    return { callData: v.callData.trim(), ...(toAddress ? { toAddress } : {}) };
  }
  if (variant === 'icp')
    return { canisterId: v.canisterId.trim(), method: v.method.trim(), arg: v.arg };
  if (variant === 'rawSigning') return { messageHex: v.messageHex.trim() };
  if (variant === 'methodParams') {
    const params = parseParams(v.params);
    return { method: v.method.trim(), params: 'value' in params ? params.value : {} };
  }
  return undefined;
}

export function toContractCallRequest(v: ContractCallFormValues): ContractCallCreateRequest {
  const amount = optional(v.amount);
  const data = dataOf(v);
  return {
    category: 'CONTRACT_CALL',
    vaultId: v.vaultId,
    blockChain: v.blockChain,
    ...(amount ? { amount } : {}),
    ...(data ? { data } : {}),
    ...referenceAndTier(v),
    ...(v.skipSimulation ? { creationOptions: { skipPreprocessSimulation: true } } : {}),
  };
}

export function contractCallFieldFor(
  path: string,
  v: Pick<ContractCallFormValues, 'blockChain'>,
): Field | undefined {
  const first = head(path);
  if (first === 'data') {
    const inner = path.split('.')[1];
    const own = [
      'callData',
      'toAddress',
      'canisterId',
      'method',
      'arg',
      'messageHex',
      'params',
    ] as const;
    const variant = variantOf(v.blockChain);
    return own.find((f) => f === inner) ?? (variant ? VARIANT_LEAD[variant] : 'blockChain');
  }
  if (first === 'gasParams') return 'feeTier';
  if (first === 'creationOptions') return 'skipSimulation';
  const own = ['vaultId', 'blockChain', 'amount', 'externalId'] as const;
  return own.find((f) => f === first);
}

export const contractCallFormSchema = createFormSchema({
  values: ContractCallFormValues,
  request: ContractCallCreateRequest,
  toRequest: toContractCallRequest,
  fieldFor: contractCallFieldFor,
  rules: (v, issue, contract) => {
    if (!v.vaultId) issue('vaultId', 'choose the vault that makes the call');
    const chain = chainInfo(v.blockChain);
    const variant = variantOf(v.blockChain);
    if (!v.blockChain) issue('blockChain', 'choose a chain');
    else if (chain && !variant) issue('blockChain', `${chain.label} runs no contract calls`);

    if (variant === 'evm') {
      if (v.callData.trim() === '') issue('callData', 'enter the call data');
      const to = optional(v.toAddress);
      const problem = to ? addressProblem(v.blockChain, to) : null;
      if (problem) issue('toAddress', problem);
    }
    if (variant === 'icp') {
      if (!v.canisterId.trim()) issue('canisterId', 'enter the canister id');
      if (!v.method.trim()) issue('method', 'enter the method');
    }
    if (variant === 'rawSigning' && v.messageHex.trim() === '')
      issue('messageHex', 'enter the message to sign');
    if (variant === 'methodParams') {
      if (!v.method.trim()) issue('method', 'enter the method');
      const params = parseParams(v.params);
      if ('error' in params) issue('params', params.error);
    }
    const data = dataOf(v);
    if (variant && data)
      contract(VARIANT_SCHEMAS[variant] as z.ZodType<unknown>, data, (path) =>
        contractCallFieldFor(`data.${path}`, v),
      );

    if (v.skipSimulation) {
      const reason = v.skipReason.trim();
      if (reason.length < SKIP_REASON_MIN)
        issue(
          'skipReason',
          `write why the simulation must be skipped (at least ${SKIP_REASON_MIN} characters); it goes in the audit log`,
        );
      else if (reason.length > SKIP_REASON_MAX)
        issue('skipReason', `at most ${SKIP_REASON_MAX} characters`);
    }
  },
});
