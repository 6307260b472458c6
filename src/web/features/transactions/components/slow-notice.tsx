import { chainLabel } from '#contract/chains.ts';
import type { Transaction } from '#contract/transaction.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { Panel } from '../../../components/panel.tsx';
import { humanize } from '../../../lib/labels.ts';
import { useNow } from '../../../lib/use-now.ts';
import { replaceBlocker } from '../replaceable.ts';
import { isSlow } from '../slow.ts';
import { RECHECK_MS } from './slow-flag.tsx';

// Apart from the list's badge (slow-flag.tsx), which is in every first load: the page's notice is not.
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
