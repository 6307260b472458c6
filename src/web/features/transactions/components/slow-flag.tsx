import type { Transaction } from '#contract/transaction.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { useNow } from '../../../lib/use-now.ts';
import { replaceBlocker } from '../replaceable.ts';
import { isSlow } from '../slow.ts';

/** How often a transaction on the chain is judged again: its usual time is minutes long. */
export const RECHECK_MS = 5_000;

/** The list's flag, in the status cell: slower than usual, and whether a replacement may help. */
export function SlowBadge({ transaction: tx }: { transaction: Transaction }) {
  const now = useNow(RECHECK_MS);
  if (!isSlow(tx, now)) return null;
  return (
    <span className="mt-1 block">
      <Badge tone="warning" wrap className="max-w-52" data-testid="slow-flag">
        {replaceBlocker(tx) === null
          ? 'Slower than usual — replace it with a higher fee?'
          : 'Slower than usual'}
      </Badge>
    </span>
  );
}
