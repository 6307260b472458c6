import type { LedgerReconstruction } from '#contract/ledger.ts';
import { DateTime } from '../../../components/date-time.tsx';

/**
 * Said wherever a ledger the console rebuilt from a custody service is
 * shown: what it could not know, so no figure reads as more than it is.
 */
export function ReconstructionNote({
  reconstructed,
}: {
  reconstructed: LedgerReconstruction | undefined;
}) {
  if (!reconstructed) return null;
  return (
    <p
      data-testid="ledger-reconstructed"
      className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
    >
      Reconstructed from the custody service’s transactions and balances, as read{' '}
      <DateTime iso={reconstructed.syncedAt} />. Before <DateTime iso={reconstructed.knownFrom} />{' '}
      unknown: the custody service gives no earlier balances, so the first line is the opening
      balance worked back from today’s. USD is at the price stated when it was read, not at each
      movement’s time; a staking reward or a deposit it lists no transaction for shows as an
      adjustment.
    </p>
  );
}
