import { add, cmp, isNegative, isZero, neg } from '#contract/decimal.ts';
import type { LedgerMovementKind } from '#contract/ledger.ts';
import type { Party, Transaction } from '#contract/transaction-record.ts';

/**
 * What a custody API's transaction did to the console's vaults, as ledger
 * movements, pure: the balance changes of a transaction that reached the
 * chain (completed, or failed with changes: a reverted call still burned its
 * fee), each on one of our vaults, the fee a movement of its own, as the
 * sandbox books its own.
 */

export interface TransactionMovement {
  /** Its place among the transaction's movements: with the id, it names the movement. */
  seq: number;
  vaultId: string;
  asset: string;
  chain: string;
  kind: Extract<LedgerMovementKind, 'AMOUNT' | 'FEE'>;
  amount: string;
  counterparty: Party | null;
}

/** Whether a transaction has moved balances for good: nothing about it changes after. */
export function hasSettled(tx: Transaction): boolean {
  if (tx.status === 'COMPLETED') return true;
  return tx.status === 'FAILED' && (tx.balanceChanges?.changes?.length ?? 0) > 0;
}

/** Whether a transaction may still move balances: not ended yet. */
export function mayStillSettle(tx: Transaction): boolean {
  return tx.status !== 'COMPLETED' && tx.status !== 'FAILED' && tx.status !== 'DECLINED';
}

export function movementsOf(tx: Transaction, ours: ReadonlySet<string>): TransactionMovement[] {
  if (!hasSettled(tx)) return [];
  const planned: Omit<TransactionMovement, 'seq'>[] = [];
  for (const c of tx.balanceChanges?.changes ?? []) {
    const vaultId = c.party?.type === 'VAULT' ? c.party.id : undefined;
    const chain = c.chain ?? tx.blockChain;
    if (!vaultId || !ours.has(vaultId) || !c.asset || !chain || !c.amount || isZero(c.amount))
      continue;
    planned.push({
      vaultId,
      asset: c.asset,
      chain,
      kind: 'AMOUNT',
      amount: c.amount,
      counterparty: (isNegative(c.amount) ? tx.destination : tx.source) ?? null,
    });
  }
  const feeAmount = tx.fees?.amount;
  const feeAsset = tx.fees?.asset;
  if (feeAmount && feeAsset && !isZero(feeAmount)) splitFee(planned, feeAsset, feeAmount, tx);
  return planned.map((m, seq) => ({ ...m, seq }));
}

/**
 * The fee is the change of exactly the fee on its asset (the custody API
 * lists it as a change of its own, on whichever of our vaults paid it);
 * else the first debit larger than it carried it, split in two. A fee paid
 * by no vault of ours is not ours to book.
 */
function splitFee(
  planned: Omit<TransactionMovement, 'seq'>[],
  asset: string,
  amount: string,
  tx: Transaction,
) {
  const onFeeAsset = (m: Omit<TransactionMovement, 'seq'>) =>
    m.asset === asset && isNegative(m.amount);
  const exact = planned.findLastIndex((m) => onFeeAsset(m) && cmp(m.amount, neg(amount)) === 0);
  const found = planned[exact];
  if (found) {
    planned[exact] = { ...found, kind: 'FEE', counterparty: null };
    return;
  }
  // The transaction's own vault pays its fee when it is among those debited.
  const larger = (m: Omit<TransactionMovement, 'seq'>) =>
    onFeeAsset(m) && cmp(m.amount, neg(amount)) < 0;
  let carrier = planned.findIndex((m) => m.vaultId === tx.vaultId && larger(m));
  if (carrier < 0) carrier = planned.findIndex(larger);
  const carried = planned[carrier];
  if (!carried) return;
  planned.splice(
    carrier,
    1,
    { ...carried, amount: add(carried.amount, amount) },
    { ...carried, amount: neg(amount), kind: 'FEE', counterparty: null },
  );
}
