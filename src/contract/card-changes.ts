import {
  canonicalJson,
  FEE_HEADROOM,
  type ApprovalCardIntent,
  type CardDestination,
  type CardFeeCeiling,
  type CardQuote,
  type CardVault,
} from './approval-card.ts';
import { add, cmp, isDecimalString, mul } from './decimal.ts';
import { formatAmount } from './decimal-format.ts';

/**
 * What changed between two approval cards' intents, in words ("the amount
 * changed from 0.25 ETH to 0.3 ETH"), and whether each change voids a
 * signature over the first. One wording for both sides: the server stores it
 * on a vote that stopped counting, and the browser shows it when the card a
 * member was shown is no longer the card the server holds.
 *
 * What voids: what leaves, what the item is and on which chain, its source,
 * where it goes (by what identifies it, not its name), a contact's assets, the
 * decoded call, the quote, and a fee ceiling past what was signed (the fee
 * shown plus the headroom) or in another tier or asset. Names and the rule's
 * words are read afresh and are said, but do not void (the rule is frozen on
 * the item; its outcome cannot change).
 */

export interface CardChange {
  text: string;
  /** The change breaks a signature over the earlier card. */
  voids: boolean;
}

const same = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);

/** "CONTRACT_CALL" → "Contract call". */
function humanize(value: string): string {
  const sentence = value.toLowerCase().split('_').filter(Boolean).join(' ');
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
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

/** The destination by what identifies it: its kind, id, address, chain, rail and last 4. */
function destinationKey(d: CardDestination | null) {
  if (!d) return null;
  return {
    type: d.type,
    id: d.id,
    address: d.address,
    blockChain: d.blockChain,
    rail: d.rail,
    last4: d.last4,
  };
}

const amountText = (amount: string | null, asset: string | null) =>
  amount === null ? 'none' : `${formatAmount(amount)}${asset ? ` ${asset}` : ''}`;

const listText = (list: readonly string[] | null) =>
  list === null ? 'none' : list.length ? list.join(', ') : 'no assets';

const quoteText = (q: CardQuote | null) =>
  q
    ? `${q.quoteId}${q.arrivesAmount ? ` (arrives ${formatAmount(q.arrivesAmount)}${q.arrivesAsset ? ` ${q.arrivesAsset}` : ''})` : ''}`
    : 'none';

/** The fee in its asset; its tier too when the tier itself changed. */
const feeText = (f: CardFeeCeiling, withTier: boolean) =>
  `${formatAmount(f.maxFee)} ${f.asset}${withTier ? ` (${humanize(f.tier).toLowerCase()} tier)` : ''}`;

/** The fee now is past the ceiling signed (the fee shown plus the headroom), or in another asset, chain or tier. */
function feeVoids(signed: CardFeeCeiling | null, now: CardFeeCeiling | null): boolean {
  if (!now) return false;
  if (!signed) return true;
  if (signed.asset !== now.asset || signed.blockChain !== now.blockChain) return true;
  if (signed.tier !== now.tier) return true;
  if (!isDecimalString(signed.maxFee) || !isDecimalString(now.maxFee))
    return signed.maxFee !== now.maxFee;
  return cmp(now.maxFee, mul(signed.maxFee, add('1', FEE_HEADROOM))) > 0;
}

/** A fee ceiling that rose says so: it is the change an approver most needs to see. */
function feeChange(before: CardFeeCeiling | null, after: CardFeeCeiling | null): string | null {
  if (!before && !after) return null;
  if (!before || !after)
    return `the fee ceiling changed from ${before ? feeText(before, true) : 'none'} to ${after ? feeText(after, true) : 'none'}`;
  if (same(before, after)) return null;
  const order =
    before.asset === after.asset && isDecimalString(before.maxFee) && isDecimalString(after.maxFee)
      ? cmp(after.maxFee, before.maxFee)
      : 0;
  const verb = order > 0 ? 'rose' : order < 0 ? 'fell' : 'changed';
  const withTier = before.tier !== after.tier;
  return `the fee ceiling ${verb} from ${feeText(before, withTier)} to ${feeText(after, withTier)}`;
}

/** Every change from `before` to `after`, in the card's order; none for two equal intents. */
export function cardChanges(before: ApprovalCardIntent, after: ApprovalCardIntent): CardChange[] {
  const changes: CardChange[] = [];
  const say = (text: string, voids: boolean) => changes.push({ text, voids });
  /** A part whose words differ, or which differs in what binds though its words do not. */
  const part = (what: string, from: string, to: string, voids: boolean) => {
    if (from !== to) say(`${what} changed from ${from} to ${to}`, voids);
    else if (voids) say(`${what}’s details changed`, true);
  };

  const kindMoved =
    before.kind !== after.kind ||
    before.category !== after.category ||
    before.blockChain !== after.blockChain;
  part('what it is', whatOf(before), whatOf(after), kindMoved);

  const sourceMoved = !same(before.source?.id, after.source?.id);
  const [sourceFrom, sourceTo] = [vaultText(before.source), vaultText(after.source)];
  if (sourceMoved && sourceFrom === sourceTo)
    say(
      `the source vault changed from ${sourceFrom} (${before.source?.id ?? 'none'}) to ${sourceTo} (${after.source?.id ?? 'none'})`,
      true,
    );
  else part('the source vault', sourceFrom, sourceTo, sourceMoved);

  part(
    'the destination',
    destinationText(before.destination),
    destinationText(after.destination),
    !same(destinationKey(before.destination), destinationKey(after.destination)),
  );
  part('the asset', before.asset ?? 'none', after.asset ?? 'none', before.asset !== after.asset);
  if (before.amount !== after.amount)
    say(
      `the amount changed from ${amountText(before.amount, before.asset)} to ${amountText(after.amount, after.asset)}`,
      true,
    );
  part(
    'the assets',
    listText(before.assets),
    listText(after.assets),
    !same(before.assets, after.assets),
  );
  const fee = feeChange(before.feeCeiling, after.feeCeiling);
  if (fee) say(fee, feeVoids(before.feeCeiling, after.feeCeiling));
  part(
    'the contract call',
    before.call?.description ?? 'none',
    after.call?.description ?? 'none',
    !same(before.call, after.call),
  );
  part(
    'the quote',
    quoteText(before.quote),
    quoteText(after.quote),
    !same(before.quote, after.quote),
  );
  // A payment run binds its rows through their digest: any row edited is a different run.
  const runText = (r: ApprovalCardIntent['run']) =>
    r ? `${r.rowCount} rows (${r.rowsDigest.slice(0, 8)}…)` : 'none';
  part('the run', runText(before.run), runText(after.run), !same(before.run, after.run));
  // A change to the console itself (a staff change, a policy publish): what it alters binds.
  part(
    'the change',
    before.change?.summary ?? 'none',
    after.change?.summary ?? 'none',
    !same(before.change, after.change),
  );
  const ruleText = (r: ApprovalCardIntent['rule']) => (r ? `“${r.name}” (${r.summary})` : 'none');
  part('the approval rule', ruleText(before.rule), ruleText(after.rule), false);
  // Something the words above do not name (an approved contact's date, a rule's version):
  // still a different card, so still said.
  if (changes.length === 0 && !same(before, after))
    say('the card was worked out again and differs in a detail', false);
  return changes;
}

/** The changes' words alone: what the dialog lists. */
export function describeCardChanges(
  before: ApprovalCardIntent,
  after: ApprovalCardIntent,
): string[] {
  return cardChanges(before, after).map((c) => c.text);
}

/**
 * Null while `now` still holds what `signed` bound; otherwise why not, every
 * voiding change said ("the amount changed from 1 ETH to 2 ETH").
 */
export function intentChange(signed: ApprovalCardIntent, now: ApprovalCardIntent): string | null {
  const voiding = cardChanges(signed, now).filter((c) => c.voids);
  return voiding.length ? voiding.map((c) => c.text).join('; ') : null;
}

/** The list as one sentence, first letter capital: "The amount changed …; the fee ceiling rose …." */
export function changesSentence(changes: readonly string[]): string {
  if (changes.length === 0) return 'Nothing it shows changed.';
  const text = changes.join('; ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
