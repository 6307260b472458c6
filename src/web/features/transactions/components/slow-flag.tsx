import { chainLabel } from '#contract/chains.ts';
import type { Transaction } from '#contract/transaction.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { Panel } from '../../../components/panel.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { humanize } from '../../../lib/labels.ts';
import { useNow } from '../../../lib/use-now.ts';
import { replaceBlocker } from '../replaceable.ts';
import { isSlow } from '../slow.ts';

/** How often a transaction on the chain is judged again: its usual time is minutes long. */
const RECHECK_MS = 5_000;

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

/**
 * The transaction page's notice: how long it has waited against its tier's
 * usual time, and the way to the replacement (the Replacement panel's
 * dialog), or why there is none.
 */
export function SlowNotice({ transaction: tx }: { transaction: Transaction }) {
  const now = useNow(RECHECK_MS);
  if (!isSlow(tx, now) || !tx.slowAfter) return null;
  const tier = humanize(tx.gasParams?.feeTier ?? 'HIGH').toLowerCase();
  const blocker = replaceBlocker(tx);
  return (
    <Panel title="Slower than usual" tone="attention">
      <p className="mt-2 text-sm text-slate-900" data-testid="slow-notice">
        {humanize(tx.status)} since{' '}
        {tx.updatedAt ? <DateTime iso={tx.updatedAt} /> : 'an unknown time'}. At the {tier} fee on{' '}
        {chainLabel(tx.blockChain)} it would usually have completed by{' '}
        <DateTime iso={tx.slowAfter} />.
      </p>
      {blocker === null ? (
        <p className="mt-2 text-sm text-slate-900">
          Replace it with a higher fee?{' '}
          <a
            href="#replacement"
            className="font-medium text-blue-800 underline hover:text-blue-900"
          >
            Go to Replacement
          </a>
        </p>
      ) : (
        <p className="mt-2 text-sm text-slate-800">A replacement cannot help: {blocker}</p>
      )}
    </Panel>
  );
}
