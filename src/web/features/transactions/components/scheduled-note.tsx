import type { Transaction } from '#contract/transaction.ts';
import { DateTime } from '../../../components/date-time.tsx';

/**
 * A scheduled transfer not yet sent: when it will be (the custody API's
 * `executeAt`), in the member's zone as every time is shown. Once signed it
 * is on its way and the note goes.
 */
export function ScheduledNote({ transaction: tx }: { transaction: Transaction }) {
  if (!tx.executeAt || (tx.status !== 'PENDING' && tx.status !== 'APPROVED')) return null;
  return (
    <span className="mt-1 block text-xs text-slate-800">
      Scheduled for <DateTime iso={tx.executeAt} />
    </span>
  );
}
