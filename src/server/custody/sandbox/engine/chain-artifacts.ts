import { randomBytes } from 'node:crypto';
import { and, eq, isNotNull, max } from 'drizzle-orm';
import { chainInfo } from '#contract/chains.ts';
import { transactions, wallets } from '../../../db/schema/sandbox.ts';
import type { Executor } from './transitions.ts';

/** What broadcasting leaves behind: a hash shaped like the chain's, and the EVM nonce. */

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function newTxHash(blockChain: string): string {
  switch (chainInfo(blockChain)?.kind) {
    case 'EVM':
      return `0x${randomBytes(32).toString('hex')}`;
    case 'SOLANA':
      // A base58 signature of 64 bytes is 87–88 characters.
      return [...randomBytes(88)].map((b) => BASE58[b % BASE58.length]).join('');
    default:
      return randomBytes(32).toString('hex');
  }
}

/**
 * The next nonce of a vault's address on an EVM chain: one more than the
 * highest it has broadcast. Locking the vault's wallet row first makes two
 * broadcasts from one address take turns, so they never share a nonce
 * (only a replacement does, on purpose).
 */
export async function nextNonce(
  db: Executor,
  vaultId: string,
  blockChain: string,
): Promise<number> {
  await db
    .select({ id: wallets.id })
    .from(wallets)
    .where(and(eq(wallets.vaultId, vaultId), eq(wallets.blockchain, blockChain)))
    .for('update');
  const [row] = await db
    .select({ highest: max(transactions.nonce) })
    .from(transactions)
    .where(
      and(
        eq(transactions.vaultId, vaultId),
        eq(transactions.blockChain, blockChain),
        eq(transactions.transactionType, 'OUTGOING'),
        isNotNull(transactions.nonce),
      ),
    );
  return row?.highest === null || row?.highest === undefined ? 0 : row.highest + 1;
}
