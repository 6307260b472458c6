import { mul, neg, round } from '#contract/decimal.ts';
import type { OperationStatus, OperationType } from '#contract/enums.ts';
import type { BalanceChange, Operation, Party } from '#contract/transaction.ts';
import type { BankAccountSeedRow } from './bank-account-data.ts';

/**
 * Parties, fees and the operations/balanceChanges of a finished transaction:
 * negative for the debited party, positive for the credited one, and the
 * network fee as its own negative change in the chain's native asset.
 */

export function externalParty(address: string, chain: string, name?: string): Party {
  return { type: 'EXTERNAL_ADDRESS', address, chain, ...(name ? { name } : {}) };
}

/** Names the bank, never the account number. */
export function bankAccountParty(account: BankAccountSeedRow): Party {
  return {
    type: 'BANK_ACCOUNT',
    id: account.id,
    name: `${account.accountName} (${account.bankName})`,
    ...(account.subOrgId ? { subOrgId: account.subOrgId } : {}),
  };
}

export function usdValue(amount: string, usdPrice: string): string {
  return round(mul(amount, usdPrice), 2);
}

/** One step of value movement. Off-chain legs (a bank deposit or payout) move no on-chain balance. */
export interface Leg {
  type: OperationType;
  source: Party;
  destination: Party;
  asset?: string;
  amount?: string;
  chain: string;
  onChain: boolean;
}

export interface FeeCharge {
  payer: Party;
  asset: string;
  amount: string;
  chain: string;
}

function legChanges(leg: Leg): BalanceChange[] {
  if (!leg.onChain || !leg.asset || !leg.amount) return [];
  return [
    { party: leg.source, asset: leg.asset, amount: neg(leg.amount), chain: leg.chain },
    { party: leg.destination, asset: leg.asset, amount: leg.amount, chain: leg.chain },
  ];
}

function feeChange(fee: FeeCharge): BalanceChange {
  return { party: fee.payer, asset: fee.asset, amount: neg(fee.amount), chain: fee.chain };
}

/**
 * Operations (sequence from 1) and the net balanceChanges of a completed
 * transaction. The fee rides on the first on-chain operation; a transaction
 * that moves no value (a contract call, an approval) still has one operation
 * carrying its fee.
 */
export function settle(
  legs: readonly Leg[],
  fee: FeeCharge,
  fallback: { source: Party; destination?: Party },
  status: OperationStatus = 'COMPLETED',
): { operations: Operation[]; changes: BalanceChange[] } {
  const effective: Leg[] =
    legs.length > 0
      ? [...legs]
      : [
          {
            type: 'TRANSFER',
            source: fallback.source,
            destination: fallback.destination ?? fallback.source,
            chain: fee.chain,
            onChain: true,
          },
        ];
  const feeIndex = Math.max(
    effective.findIndex((l) => l.onChain),
    0,
  );
  const changes: BalanceChange[] = [];
  const operations = effective.map((leg, i): Operation => {
    const opChanges = [...legChanges(leg), ...(i === feeIndex ? [feeChange(fee)] : [])];
    changes.push(...opChanges);
    return {
      sequence: i + 1,
      type: leg.type,
      status,
      source: leg.source,
      destination: leg.destination,
      balanceChanges: { changes: opChanges },
    };
  });
  return { operations, changes };
}

export function feeOnly(fee: FeeCharge): BalanceChange[] {
  return [feeChange(fee)];
}
