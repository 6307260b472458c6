import type {
  ApprovalCardIntent,
  CardDestination,
  CardFeeCeiling,
  CardQuote,
  CardVault,
} from '#contract/approval-card.ts';
import { cmp } from '#contract/decimal.ts';
import { formatAmount } from '#contract/decimal-format.ts';
import { humanize } from './labels.ts';

/**
 * What changed between the approval card a member was shown and the card the
 * server holds now, in words ("the amount changed from 0.25 ETH to 0.3 ETH").
 * A decision is never sent on a card the member was not shown: when the
 * server answers CARD_CHANGED, the dialog says this list before asking again.
 * Only the intent is compared: it is what a signature binds (the status —
 * prices, balances, the quorum — moves on its own and is never signed).
 */
export function describeCardChanges(
  before: ApprovalCardIntent,
  after: ApprovalCardIntent,
): string[] {
  const changes: string[] = [];
  const changed = (what: string, from: string, to: string) => {
    if (from !== to) changes.push(`${what} changed from ${from} to ${to}`);
  };
  changed('what it is', whatOf(before), whatOf(after));
  changed('the source vault', vaultText(before.source), vaultText(after.source));
  changed(
    'the destination',
    destinationText(before.destination),
    destinationText(after.destination),
  );
  changed('the asset', before.asset ?? 'none', after.asset ?? 'none');
  if (before.amount !== after.amount)
    changes.push(
      `the amount changed from ${amountText(before.amount, before.asset)} to ${amountText(after.amount, after.asset)}`,
    );
  changed('the assets', listText(before.assets), listText(after.assets));
  const fee = feeChange(before.feeCeiling, after.feeCeiling);
  if (fee) changes.push(fee);
  changed(
    'the contract call',
    before.call?.description ?? 'none',
    after.call?.description ?? 'none',
  );
  if (
    before.call &&
    after.call &&
    before.call.description === after.call.description &&
    JSON.stringify(before.call) !== JSON.stringify(after.call)
  )
    changes.push('the contract call’s details changed');
  changed('the quote', quoteText(before.quote), quoteText(after.quote));
  changed(
    'the approval rule',
    before.rule ? `“${before.rule.name}” (${before.rule.summary})` : 'none',
    after.rule ? `“${after.rule.name}” (${after.rule.summary})` : 'none',
  );
  // Something the words above do not name (an approved contact's date, a rule's version):
  // still a different card, so still said.
  if (changes.length === 0 && JSON.stringify(before) !== JSON.stringify(after))
    changes.push('the card was worked out again and differs in a detail');
  return changes;
}

/** The list as one sentence, first letter capital: "The amount changed …; the fee ceiling rose …." */
export function changesSentence(changes: readonly string[]): string {
  if (changes.length === 0) return 'Nothing it shows changed.';
  const text = changes.join('; ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

const whatOf = (i: ApprovalCardIntent) =>
  `${humanize(i.category) || humanize(i.kind)}${i.blockChain ? ` on ${i.blockChain}` : ''}`;

const vaultText = (v: CardVault | null) => (v ? (v.name ?? `vault ${v.id}`) : 'none');

function destinationText(d: CardDestination | null): string {
  if (!d) return 'none';
  const name = d.name ?? humanize(d.type ?? 'unnamed');
  const where = d.address ?? (d.last4 ? `ending ${d.last4}` : null);
  return where ? `${name} (${where})` : name;
}

const amountText = (amount: string | null, asset: string | null) =>
  amount === null ? 'none' : `${formatAmount(amount)}${asset ? ` ${asset}` : ''}`;

const listText = (list: readonly string[] | null) =>
  list === null ? 'none' : list.length ? list.join(', ') : 'no assets';

const quoteText = (q: CardQuote | null) =>
  q
    ? `${q.quoteId}${q.arrivesAmount ? ` (arrives ${formatAmount(q.arrivesAmount)}${q.arrivesAsset ? ` ${q.arrivesAsset}` : ''})` : ''}`
    : 'none';

const feeText = (f: CardFeeCeiling) =>
  `${formatAmount(f.maxFee)} ${f.asset} (${humanize(f.tier).toLowerCase()} tier)`;

/** A fee ceiling that rose says so: it is the change an approver most needs to see. */
function feeChange(before: CardFeeCeiling | null, after: CardFeeCeiling | null): string | null {
  if (!before && !after) return null;
  if (!before || !after)
    return `the fee ceiling changed from ${before ? feeText(before) : 'none'} to ${after ? feeText(after) : 'none'}`;
  if (
    before.maxFee === after.maxFee &&
    before.asset === after.asset &&
    before.tier === after.tier &&
    before.blockChain === after.blockChain
  )
    return null;
  const order = before.asset === after.asset ? cmp(after.maxFee, before.maxFee) : 0;
  const verb = order > 0 ? 'rose' : order < 0 ? 'fell' : 'changed';
  return `the fee ceiling ${verb} from ${feeText(before)} to ${feeText(after)}`;
}
