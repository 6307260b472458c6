import type { ChainInfo } from '#contract/chains.ts';
import type { ContractCallData } from '#contract/transaction.ts';

/** A contract call's `data` (7b): which variant it is, and how deep it may nest. */

export function dataVariant(data: ContractCallData): NonNullable<ChainInfo['contractCall']> {
  if ('callData' in data) return 'evm';
  if ('canisterId' in data) return 'icp';
  if ('messageHex' in data) return 'rawSigning';
  return 'methodParams';
}

/**
 * Whether a chain takes this variant of `data`: its own, and on an EVM chain a
 * raw signing too (the SDKs' raw-signing examples sign on ETHEREUM).
 */
export function takesVariant(
  chain: ChainInfo,
  variant: NonNullable<ChainInfo['contractCall']>,
): boolean {
  return variant === chain.contractCall || (chain.kind === 'EVM' && variant === 'rawSigning');
}

/** Deeper than any real call's parameters, and far below what PostgreSQL's jsonb can hold. */
export const MAX_DATA_DEPTH = 32;

/** How deep a parsed JSON value nests, without recursion (a hostile body can nest 100,000 deep). */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_DATA_DEPTH) return deepest;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
}

export const VARIANT_SHAPES: Record<NonNullable<ChainInfo['contractCall']>, string> = {
  evm: 'EVM call data {callData, toAddress?}',
  icp: 'ICP canister call {canisterId, method, arg}',
  rawSigning: 'raw signing {messageHex}',
  methodParams: 'method and parameters {method, params}',
};
