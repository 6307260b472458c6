import { chainInfo, CHAINS } from '#contract/chains.ts';
import { isTerminalStatus } from '#contract/enums.ts';
import { isReplaceableCategory, UNREPLACEABLE_REASON } from '#contract/replacement.ts';
import type { Transaction } from '#contract/transaction-record.ts';
import { humanize } from '../../lib/labels.ts';

/** Why `tx` has no replacement ever (a ramp, or someone else's), or null when it may have one. */
export function neverReplaceable(tx: Transaction): string | null {
  if (!isReplaceableCategory(tx.category))
    return `${humanize(tx.category)} transactions cannot be replaced: ${UNREPLACEABLE_REASON}.`;
  if (tx.transactionType === 'INCOMING')
    return 'it is incoming: only its sender, who signed it, can replace it.';
  return null;
}

/** Why `tx` cannot be replaced now, or null when it can. The server checks the same. */
export function replaceBlocker(tx: Transaction): string | null {
  const never = neverReplaceable(tx);
  if (never) return never;
  const chain = chainInfo(tx.blockChain);
  if (!chain?.supportsReplacement) {
    const able = CHAINS.filter((c) => c.supportsReplacement)
      .map((c) => c.label)
      .join(', ');
    return `${chain?.label ?? tx.blockChain ?? 'This chain'} does not support replacing a transaction (only ${able} do).`;
  }
  if (tx.status !== 'SUBMITTED') {
    return `Only a submitted transaction can be replaced; this one is ${humanize(tx.status).toLowerCase()}.`;
  }
  const inFlight = tx.replacements?.find((r) => !isTerminalStatus(r.status));
  if (inFlight) {
    return `A replacement is already in flight (${inFlight.id}, ${humanize(inFlight.status).toLowerCase()}).`;
  }
  return null;
}
