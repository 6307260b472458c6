import { canonicalJson, FEE_HEADROOM, type ApprovalCardIntent } from '#contract/approval-card.ts';
import { add, cmp, isDecimalString, mul } from '#contract/decimal.ts';

/**
 * Whether a card computed now still holds what a member signed, and if not,
 * why in words. What leaves, where it goes, on which chain, the decoded call,
 * the quote, the item's kind and source, and a contact's assets must be as
 * signed. The fee ceiling may move with the market while the item waits (the
 * estimate of its tier now): a lower fee is still within what was signed, a
 * higher one is not. Names and the rule's words are read afresh and do not
 * decide (the rule is frozen on the item; its outcome cannot change).
 */

const same = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);

function where(d: ApprovalCardIntent['destination']): string {
  if (!d) return 'nowhere';
  const named = d.name ?? d.address ?? d.id ?? d.type ?? 'unknown';
  if (d.last4) return `${named} (…${d.last4})`;
  return d.address && d.name ? `${d.name} (${d.address})` : named;
}

/** The destination by what identifies it: its kind, id, address, chain, rail and last 4. */
function destinationKey(d: ApprovalCardIntent['destination']) {
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

function feeText(fee: ApprovalCardIntent['feeCeiling']): string {
  return fee ? `${fee.maxFee} ${fee.asset}` : 'none';
}

/** The fee now is more than the ceiling signed (the fee shown plus the headroom), or in another asset or tier. */
function feeRose(
  signed: ApprovalCardIntent['feeCeiling'],
  now: ApprovalCardIntent['feeCeiling'],
): boolean {
  if (!now) return false;
  if (!signed) return true;
  if (signed.asset !== now.asset || signed.blockChain !== now.blockChain) return true;
  if (signed.tier !== now.tier) return true;
  if (!isDecimalString(signed.maxFee) || !isDecimalString(now.maxFee))
    return signed.maxFee !== now.maxFee;
  return cmp(now.maxFee, mul(signed.maxFee, add('1', FEE_HEADROOM))) > 0;
}

/** Null while `now` still holds what `signed` bound; otherwise why not ("the amount changed from 1 to 2"). */
export function intentChange(signed: ApprovalCardIntent, now: ApprovalCardIntent): string | null {
  if (signed.kind !== now.kind || signed.category !== now.category)
    return `the item is now a ${now.category.toLowerCase()}, not the ${signed.category.toLowerCase()} signed`;
  if (!same(signed.source?.id, now.source?.id))
    return `the source changed from ${signed.source?.name ?? signed.source?.id ?? 'none'} to ${now.source?.name ?? now.source?.id ?? 'none'}`;
  if (!same(destinationKey(signed.destination), destinationKey(now.destination)))
    return `the destination changed from ${where(signed.destination)} to ${where(now.destination)}`;
  if (signed.blockChain !== now.blockChain)
    return `the chain changed from ${signed.blockChain ?? 'none'} to ${now.blockChain ?? 'none'}`;
  if (signed.asset !== now.asset)
    return `the asset changed from ${signed.asset ?? 'none'} to ${now.asset ?? 'none'}`;
  if (signed.amount !== now.amount)
    return `the amount changed from ${signed.amount ?? 'none'} to ${now.amount ?? 'none'}`;
  if (!same(signed.assets, now.assets))
    return `the assets changed from ${(signed.assets ?? []).join(', ') || 'none'} to ${(now.assets ?? []).join(', ') || 'none'}`;
  if (!same(signed.call, now.call))
    return `the contract call changed: it now reads “${now.call?.description ?? 'no call'}”`;
  if (!same(signed.quote, now.quote))
    return `the quote changed from ${signed.quote?.quoteId ?? 'none'} to ${now.quote?.quoteId ?? 'none'}`;
  if (feeRose(signed.feeCeiling, now.feeCeiling))
    return signed.feeCeiling && now.feeCeiling && signed.feeCeiling.tier !== now.feeCeiling.tier
      ? `the fee tier changed from ${signed.feeCeiling.tier} to ${now.feeCeiling.tier}`
      : `the fee ceiling rose from ${feeText(signed.feeCeiling)} to ${feeText(now.feeCeiling)}`;
  return null;
}
