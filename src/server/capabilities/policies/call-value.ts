import { readCallData } from '#contract/call-data.ts';
import { add, div } from '#contract/decimal.ts';

/**
 * What a contract call is worth to a rule: the native amount it sends plus the
 * tokens it moves or lets another move (README, "Approval policies"). Only the
 * well-known token functions on a known asset's contract can be valued; an
 * unlimited approval, an unknown function, another chain's call format, or a
 * token the custody backend does not know cannot, and a rule then treats the
 * call as unpriced: every USD threshold and outflow cap matches (fail closed).
 * Pure: the caller looks up the token and prices its amount between the steps.
 */

/** What a call's data moves, read before anything is priced. */
export type CallMovement =
  /** No token moves (no data, or an allowance lowered): only the native amount counts. */
  | { kind: 'none' }
  /** `units` (the token's smallest units) of the token whose contract is `contract`. */
  | { kind: 'token'; contract: string; units: string }
  /** Cannot be valued: matches every USD threshold. `reason` says why, for the log and tests. */
  | { kind: 'unvalued'; reason: string };

/** The functions whose amount is what may leave the vault: sent, pulled, or allowed to be. */
const MOVES_AMOUNT = new Set(['transfer', 'transferFrom', 'approve', 'increaseAllowance']);

/** Reads what a contract call's `data` moves; `data` as the create body or the stored row has it. */
export function callMovement(data: unknown): CallMovement {
  if (data === undefined || data === null) return { kind: 'none' };
  if (typeof data !== 'object') return { kind: 'unvalued', reason: 'data is not an object' };
  const { callData, toAddress } = data as { callData?: unknown; toAddress?: unknown };
  if (typeof callData !== 'string')
    return { kind: 'unvalued', reason: 'not an EVM call: what it moves cannot be read' };
  const reading = readCallData(callData);
  if (reading.kind === 'raw') return { kind: 'unvalued', reason: reading.reason };
  const { call } = reading;
  if (call.name === 'decreaseAllowance') return { kind: 'none' };
  if (!MOVES_AMOUNT.has(call.name))
    return { kind: 'unvalued', reason: `${call.name} has no amount to value` };
  if (call.unlimited)
    return { kind: 'unvalued', reason: 'an unlimited approval: every token may be taken' };
  if (typeof toAddress !== 'string' || toAddress.trim() === '')
    return { kind: 'unvalued', reason: 'no contract address: the token is not known' };
  const amount = call.args.find((a) => a.type === 'uint256');
  if (!amount) return { kind: 'unvalued', reason: `${call.name} names no amount` };
  return { kind: 'token', contract: toAddress.trim().toLowerCase(), units: amount.value };
}

/** `units` of a token with `decimals` places, as an amount of the token (exact). */
export function tokenAmount(units: string, decimals: number): string {
  if (decimals === 0) return units;
  const amount = div(units, `1${'0'.repeat(decimals)}`, decimals);
  return amount.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

/**
 * The call's value in USD, or null when it cannot be valued: `nativeUsd` is
 * what its native amount is worth ('0' when it sends none, null unpriced),
 * `tokenUsd` what the moved token amount (`tokenAmount` of the movement's
 * units) is worth, null when the token is unknown or unpriced.
 */
export function contractCallUsd(
  nativeUsd: string | null,
  movement: CallMovement,
  tokenUsd: string | null,
): string | null {
  if (nativeUsd === null || movement.kind === 'unvalued') return null;
  if (movement.kind === 'none') return nativeUsd;
  return tokenUsd === null ? null : add(nativeUsd, tokenUsd);
}

/** Where a call's token is looked up and priced: the custody backend's assets and prices. */
export interface CallPricing {
  /** The known asset whose contract on the call's chain is `contract`, or null. */
  token(contract: string): Promise<{ asset: string; decimals: number } | null>;
  /** `amount` of `asset` on the call's chain in USD, or null when it has no price. */
  usd(asset: string, amount: string): Promise<string | null>;
}

/** A contract call's value (contractCallUsd), its token looked up and priced through `pricing`. */
export async function valueContractCall(
  nativeUsd: string | null,
  data: unknown,
  pricing: CallPricing,
): Promise<string | null> {
  const movement = callMovement(data);
  if (nativeUsd === null || movement.kind !== 'token')
    return contractCallUsd(nativeUsd, movement, null);
  const token = await pricing.token(movement.contract);
  const tokenUsd = token
    ? await pricing.usd(token.asset, tokenAmount(movement.units, token.decimals))
    : null;
  return contractCallUsd(nativeUsd, movement, tokenUsd);
}
