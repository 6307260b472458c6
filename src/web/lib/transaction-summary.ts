import { describeContractCall } from '#contract/call-data.ts';
import { chainLabel } from '#contract/chains.ts';
import { formatAmount } from '#contract/decimal-format.ts';
import type { Transaction } from '#contract/transaction-record.ts';
import { humanize, partyLabel } from './labels.ts';

/** Zero written any way ("0", "0.000"): a contract call that sends no native value. */
const ZERO = /^0*(\.0*)?$/;

/**
 * A transaction in one line, as every place that summarises one says it (the
 * inbox row, the transactions list, a create form's review): "Transfer of
 * 1,000 USDC to Exchange on Ethereum"; a contract call by what it does
 * ("Unlimited USDC approval to 0x1111…0582 on Ethereum"), never as "Contract
 * call of 0", which hides an approval of every token the vault holds.
 */
export function describeTransaction(
  tx: Pick<Transaction, 'category' | 'amount' | 'asset' | 'blockChain' | 'destination' | 'data'>,
): string {
  const chain = chainLabel(tx.blockChain);
  if (tx.category === 'CONTRACT_CALL') {
    const on = chain ? ` on ${chain}` : '';
    const what = describeContractCall(tx.data, tx.blockChain);
    if (!what) return `Contract call${on}, its data not returned by the custody API`;
    if (!tx.amount || ZERO.test(tx.amount)) return `${what}${on}`;
    const value = `${formatAmount(tx.amount)} ${tx.asset ?? ''}`.trimEnd();
    return `${what}, sending ${value}${on ? `,${on}` : ''}`;
  }
  const kind = humanize(tx.category) || 'Transaction';
  const amount = tx.amount ? ` of ${formatAmount(tx.amount)} ${tx.asset ?? ''}`.trimEnd() : '';
  const to = partyLabel(tx.destination);
  return `${kind}${amount}${to ? ` to ${to}` : ''}${chain ? ` on ${chain}` : ''}`;
}
