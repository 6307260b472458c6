import type { FeeTier } from '#contract/enums.ts';
import type { Party, TransactionFees } from '#contract/transaction.ts';
import type { Leg } from '../seed/movements.ts';
import type { RawSignature } from './raw-signing.ts';

/**
 * What the simulator needs to finish a transaction, fixed when it is created
 * and kept in `transactions.simulation`: the value movements it will settle,
 * who pays the network fee, whether the chain will revert it, and (from
 * signing on) the amounts reserved on our vaults. Keeping it on the row is
 * what lets a restarted server finish exactly what the last one started.
 */
export interface SimulationPlan {
  /** Value movements on completion, in order; the network fee is added separately. */
  legs: Leg[];
  /** The party charged the network fee (the source vault, a fee-payer vault, or an outside sender). */
  feePayer: Party;
  /** Set when the chain will revert it: the `error` it ends FAILED with, fee still charged. */
  revert?: string;
  /** Reserved on our vaults at signing (amount + fee); released when it ends. */
  holds?: Hold[];
  /** A raw signing's signature, made at signing (raw-signing.ts). */
  signature?: RawSignature;
  /** A scheduled transfer's time (ISO): approved before it, it is not signed until then. */
  executeAt?: string;
}

export interface Hold {
  vaultId: string;
  asset: string;
  chain: string;
  amount: string;
}

/** What signing reserves: every on-chain debit of one of our vaults, and the fee on its payer. */
export function holdsFor(plan: SimulationPlan, fee: TransactionFees, chain: string): Hold[] {
  const holds: Hold[] = plan.legs.flatMap((leg) =>
    leg.onChain && leg.source.type === 'VAULT' && leg.source.id && leg.asset && leg.amount
      ? [{ vaultId: leg.source.id, asset: leg.asset, chain: leg.chain, amount: leg.amount }]
      : [],
  );
  if (plan.feePayer.type === 'VAULT' && plan.feePayer.id && fee.amount && fee.asset)
    holds.push({ vaultId: plan.feePayer.id, asset: fee.asset, chain, amount: fee.amount });
  return holds;
}

export function readPlan(value: unknown): SimulationPlan | null {
  if (!value || typeof value !== 'object') return null;
  const plan = value as Partial<SimulationPlan>;
  if (!Array.isArray(plan.legs) || !plan.feePayer) return null;
  return plan as SimulationPlan;
}

/**
 * Documented magic values that make the sandbox's chain revert a contract
 * call, so clients can exercise their failure paths:
 * - EVM `callData` or raw-signing `messageHex` containing the bytes `deadbeef`;
 * - an ICP or method-and-params call whose `method` contains `revert`;
 * - any transaction whose `memo` contains `[simulate:revert]`.
 */
const REVERT_CALL_BYTES = 'deadbeef';
const REVERT_METHOD_WORD = 'revert';
const REVERT_MEMO_TAG = '[simulate:revert]';

export function simulatedRevert(input: {
  data?: Record<string, unknown> | null | undefined;
  memo?: string | null | undefined;
}): string | undefined {
  const data = input.data ?? {};
  const hexField = [data.callData, data.messageHex].find((v) => typeof v === 'string');
  if (typeof hexField === 'string' && hexField.toLowerCase().includes(REVERT_CALL_BYTES))
    return 'Execution reverted: the sandbox reverts call data containing 0xdeadbeef';
  if (typeof data.method === 'string' && data.method.toLowerCase().includes(REVERT_METHOD_WORD))
    return `Execution reverted: the sandbox reverts method "${data.method}"`;
  if (input.memo?.toLowerCase().includes(REVERT_MEMO_TAG))
    return `Execution reverted: the memo asked the sandbox to revert (${REVERT_MEMO_TAG})`;
  return undefined;
}

/**
 * A documented magic value for a transaction stuck on the chain: a LOW fee
 * tier transaction whose `memo` contains `[simulate:stuck]` stays SUBMITTED
 * until a replacement takes its nonce (or, should the replacement die before
 * broadcast, until it is woken and included). Congestion makes a LOW fee wait
 * only an hour of chain time, which a fast SANDBOX_TIME_SCALE turns into
 * seconds: too short for a person (or a browser test) to replace it.
 */
const STUCK_MEMO_TAG = '[simulate:stuck]';

export function simulatedStuck(row: { feeTier: FeeTier | null; memo: string | null }): boolean {
  return row.feeTier === 'LOW' && (row.memo?.toLowerCase().includes(STUCK_MEMO_TAG) ?? false);
}
