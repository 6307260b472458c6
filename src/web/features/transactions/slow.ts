import type { Transaction } from '#contract/transaction.ts';

/**
 * Whether a transaction is past its fee tier's usual time: the server's
 * verdict when it answered (`slowerThanUsual`, on its clock), or, since a
 * stuck transaction changes nothing that would make the page read it again,
 * `now` past the instant the server said (`slowAfter`). `now` comes from
 * `useNow`, so a server render and its hydration agree.
 */
export function isSlow(
  tx: Pick<Transaction, 'slowerThanUsual' | 'slowAfter'>,
  now: number,
): boolean {
  if (tx.slowerThanUsual) return true;
  const after = Date.parse(tx.slowAfter ?? '');
  return Number.isFinite(after) && now >= after;
}
