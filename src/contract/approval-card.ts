import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import * as z from 'zod/mini';
import { IsoTimestamp } from './common.ts';
import { add, cmp, isDecimalString, mul } from './decimal.ts';
import { FeeTier } from './enums.ts';

/**
 * The approval card: everything an approver decides on, computed by the
 * server once for every approvable item (GET /api/console/approval_cards/{id})
 * and for a draft the initiator is about to send (POST …/approval_cards/preview/),
 * and shown by the browser exactly as answered.
 *
 * It has two halves. The **intent** is what a signature will bind: what
 * leaves, what it may cost, where it goes, the decoded call, the quote, and
 * the rule the item is judged under. Nothing in it moves on its own while the
 * item waits, so the same item (or its draft) gives the same intent and the
 * same digest. The **status** is what is true now and moves: the USD value at
 * today's price, each vault's balance before → after, the quorum so far and
 * the ages. A signature never covers the status.
 *
 * `canonicalJson` and `intentDigest` are the one way to write and hash an
 * intent, on both sides (SHA-256 over the canonical JSON, hex).
 */

/**
 * The item's approvable kind: TRANSACTION, BANK_ACCOUNT, CONTACT, or a kind
 * the console holds itself. A name's form, not a list (as the database holds
 * it), so a new kind's card reads everywhere without a change here.
 */
const ApprovalCardKind = z.string().check(z.regex(/^[A-Z][A-Z_]{0,39}$/));

/** A vault of ours, by name and id. */
export const CardVault = z.strictObject({
  id: z.string(),
  name: z.nullable(z.string()),
});
export type CardVault = z.infer<typeof CardVault>;

/**
 * Where the money (or the approval) goes: its name as resolved; an address,
 * or a bank account by rail and the last 4 digits of its number (never the
 * full number); whether it is one of our vaults; whether it is an approved
 * contact, and since when.
 */
export const CardDestination = z.strictObject({
  /** VAULT, CONTACT, EXTERNAL_ADDRESS, BANK_ACCOUNT… as the custody API names the party. */
  type: z.nullable(z.string()),
  id: z.nullable(z.string()),
  name: z.nullable(z.string()),
  address: z.nullable(z.string()),
  blockChain: z.nullable(z.string()),
  rail: z.nullable(z.string()),
  last4: z.nullable(z.string()),
  /** One of our own vaults. */
  ours: z.boolean(),
  approvedContact: z.boolean(),
  /** When the contact was approved; null when it is none, or the backend does not tell. */
  approvedContactSince: z.nullable(IsoTimestamp),
});
export type CardDestination = z.infer<typeof CardDestination>;

/**
 * The most the network fee may be: the fee of the item's tier as the server
 * works it out (approval-cost.ts: the tier's estimate while it waits, the fee
 * charged once signed), in the asset it is paid in. Its USD value moves with
 * the price, so it is in the status.
 */
export const CardFeeCeiling = z.strictObject({
  /**
   * The tier it pays at (the custody API's default, HIGH, when the body names
   * none: a created item records it, so a draft and its item read alike).
   */
  tier: FeeTier,
  maxFee: z.string(),
  asset: z.string(),
  blockChain: z.nullable(z.string()),
});
export type CardFeeCeiling = z.infer<typeof CardFeeCeiling>;

/** A contract call as read from its data: what it does in words, and its parts when decoded. */
export const CardCall = z.strictObject({
  /** "Unlimited USDC approval to 0x1111…0582". */
  description: z.string(),
  /** The contract called. */
  contract: z.nullable(z.string()),
  /** "approve(address,uint256)"; null when the data is not one the console decodes. */
  function: z.nullable(z.string()),
  spender: z.nullable(z.string()),
  /** The amount the call names, in the token's smallest units as written in the data. */
  amount: z.nullable(z.string()),
  unlimited: z.boolean(),
});
export type CardCall = z.infer<typeof CardCall>;

/** A ramp's or FX's quote: the provider's price, bound as quoted. */
export const CardQuote = z.strictObject({
  quoteId: z.string(),
  provider: z.nullable(z.string()),
  rate: z.nullable(z.string()),
  arrivesAmount: z.nullable(z.string()),
  arrivesAsset: z.nullable(z.string()),
  expiresAt: z.nullable(z.string()),
});
export type CardQuote = z.infer<typeof CardQuote>;

/** The approval rule the item falls under (frozen on it when it was made), in one line. */
export const CardRule = z.strictObject({
  name: z.string(),
  /** "2 approvals from admins", "Blocked". */
  summary: z.string(),
  policyVersion: z.int(),
});
export type CardRule = z.infer<typeof CardRule>;

/**
 * A payment run as approved once for all its rows: its source vaults, what
 * leaves per asset, its value and fees as checked, and the digest of the rows
 * as they will be paid (a row edited after a vote changes it, and the vote
 * stops counting). Present only on a PAYMENT_RUN's card, so every other
 * kind's digest is unchanged.
 */
export const CardRun = z.strictObject({
  name: z.string(),
  rowCount: z.int(),
  rowsDigest: z.string(),
  sourceVaults: z.array(CardVault),
  totals: z.array(
    z.strictObject({ asset: z.string(), blockChain: z.string(), amount: z.string() }),
  ),
  /** The USD value the rule was judged at; null when an asset had no price (the rule fails closed). */
  totalUsd: z.nullable(z.string()),
  fees: z.array(z.strictObject({ asset: z.string(), blockChain: z.string(), amount: z.string() })),
  feesUsd: z.nullable(z.string()),
});
export type CardRun = z.infer<typeof CardRun>;

/**
 * A payment run schedule's pre-approval: when it pays, and the cap its
 * occurrences are paid within without a vote of their own (the most one
 * occurrence may pay in USD, the only assets and destinations it may pay).
 * Present only on a PAYMENT_RUN_SCHEDULE's card; with `run` (its rows'
 * digest), it is what the approvers sign, so a new cap or new rows is a new
 * card and a new approval.
 */
export const CardSchedule = z.strictObject({
  timing: z.string(),
  maxTotalUsd: z.string(),
  assets: z.array(z.string()),
  destinations: z.array(z.string()),
});
export type CardSchedule = z.infer<typeof CardSchedule>;

/** One thing a change to the console itself alters: "Role: initiator → approver". */
export const CardChangeLine = z.strictObject({
  label: z.string(),
  /** Null: it did not exist before (a new member, a rule added). */
  before: z.nullable(z.string()),
  /** Null: it will not exist after (a rule removed, a factor reset). */
  after: z.nullable(z.string()),
});
export type CardChangeLine = z.infer<typeof CardChangeLine>;

/**
 * What a change to the console itself does (a staff change, a policy
 * publish): one line saying what it is, then each thing it alters, before →
 * after. Bound by the signature as the rest of the intent.
 */
export const CardChange = z.strictObject({
  summary: z.string(),
  lines: z.array(CardChangeLine),
});
export type CardChange = z.infer<typeof CardChange>;

/**
 * What a signature binds. Every field is always present (null when it does
 * not apply), but `run` and `change`, which only a payment run and the
 * console's own changes carry: left out, the intents and digests of every
 * other kind read as before they existed.
 */
export const ApprovalCardIntent = z.strictObject({
  kind: ApprovalCardKind,
  /** TRANSFER, CONTRACT_CALL, OFF_RAMP…; BANK_ACCOUNT or CONTACT for those kinds. */
  category: z.string(),
  source: z.nullable(CardVault),
  destination: z.nullable(CardDestination),
  asset: z.nullable(z.string()),
  blockChain: z.nullable(z.string()),
  amount: z.nullable(z.string()),
  /** A contact's assets it may receive once approved. */
  assets: z.nullable(z.array(z.string())),
  feeCeiling: z.nullable(CardFeeCeiling),
  call: z.nullable(CardCall),
  quote: z.nullable(CardQuote),
  rule: z.nullable(CardRule),
  run: z.optional(CardRun),
  schedule: z.optional(CardSchedule),

  change: z.optional(CardChange),
});
export type ApprovalCardIntent = z.infer<typeof ApprovalCardIntent>;

/** One vault's balance of one asset, before the item and after it. */
export const CardBalanceChange = z.strictObject({
  vault: CardVault,
  asset: z.string(),
  blockChain: z.nullable(z.string()),
  /** Null when the balance could not be read. */
  before: z.nullable(z.string()),
  /** Negative for what leaves. */
  change: z.string(),
  after: z.nullable(z.string()),
});
export type CardBalanceChange = z.infer<typeof CardBalanceChange>;

/** Who has approved, by name, and when. */
export const CardApprover = z.strictObject({
  name: z.string(),
  at: IsoTimestamp,
});
export type CardApprover = z.infer<typeof CardApprover>;

/**
 * A decision that no longer counts: the card was computed again before the
 * item moved on and no longer matched what was signed.
 */
export const CardVoidedVote = z.strictObject({
  name: z.string(),
  at: IsoTimestamp,
  /** "the fee ceiling rose from 0.0021 ETH to 0.0050 ETH". */
  because: z.string(),
});
export type CardVoidedVote = z.infer<typeof CardVoidedVote>;

export const CardQuorum = z.strictObject({
  required: z.int().check(z.nonnegative()),
  blocked: z.boolean(),
  approvedBy: z.array(CardApprover),
  /** "waiting for one more of: Bob Admin (admins)"; null once nothing waits. */
  waitingOn: z.nullable(z.string()),
  /** Decisions made on an earlier card, which do not count. */
  voided: z.optional(z.array(CardVoidedVote)),
});
export type CardQuorum = z.infer<typeof CardQuorum>;

/** What is true now and moves: never signed. */
export const ApprovalCardStatus = z.strictObject({
  /** The item; null on a preview (nothing is made yet). */
  entityId: z.nullable(z.string()),
  /** PENDING, APPROVED…; null on a preview. */
  state: z.nullable(z.string()),
  createdAt: z.nullable(z.string()),
  /** When this card was computed: its prices and balances are of that moment. */
  computedAt: IsoTimestamp,
  /** The amount's USD value now, and the price of one unit it was worked out at. */
  amountUsd: z.nullable(z.string()),
  priceUsd: z.nullable(z.string()),
  feeCeilingUsd: z.nullable(z.string()),
  balances: z.array(CardBalanceChange),
  /** Null on a preview and on a kind with no frozen rule. */
  quorum: z.nullable(CardQuorum),
});
export type ApprovalCardStatus = z.infer<typeof ApprovalCardStatus>;

export const ApprovalCard = z.strictObject({
  intent: ApprovalCardIntent,
  status: ApprovalCardStatus,
});
export type ApprovalCard = z.infer<typeof ApprovalCard>;

/** GET /api/console/approval_cards/{entityId}/ and the preview: the card and its intent's digest. */
export const ApprovalCardResponse = z.strictObject({
  card: ApprovalCard,
  /** `intentDigest(card.intent)`: SHA-256 hex. */
  digest: z.string(),
});
export type ApprovalCardResponse = z.infer<typeof ApprovalCardResponse>;

/**
 * JSON with every object's keys sorted (by UTF-16 code unit, as JS sorts),
 * undefined members left out, no spaces; strings (decimal amounts included)
 * written exactly as they are. Arrays keep their order: it is meaningful.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('canonicalJson: a number must be finite');
      return JSON.stringify(value);
    case 'object': {
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: a ${typeof value} has no JSON form`);
  }
}

/**
 * How far above the fee a card shows the network fee may rise and still be
 * within what an approver agreed to: the ceiling signed is the fee shown plus
 * this share. A tier's estimate moves a few percent every half minute in calm
 * markets and several times over in congestion; the first is not a change of
 * what was approved, the second is.
 */
export const FEE_HEADROOM = '0.25';

/**
 * Whether `now` is `shown` with nothing but its fee moved, and the fee at most
 * the ceiling `shown` binds (its fee plus the headroom): the same card to
 * decide on, though its digest differs.
 */
export function onlyFeeMoved(shown: ApprovalCardIntent, now: ApprovalCardIntent): boolean {
  const a = shown.feeCeiling;
  const b = now.feeCeiling;
  if (!a || !b) return false;
  if (a.asset !== b.asset || a.tier !== b.tier || a.blockChain !== b.blockChain) return false;
  if (canonicalJson({ ...shown, feeCeiling: null }) !== canonicalJson({ ...now, feeCeiling: null }))
    return false;
  if (!isDecimalString(a.maxFee) || !isDecimalString(b.maxFee)) return a.maxFee === b.maxFee;
  return cmp(b.maxFee, mul(a.maxFee, add('1', FEE_HEADROOM))) <= 0;
}

/** SHA-256 (hex) of the intent's canonical JSON: what a signature over the card will bind. */
export function intentDigest(intent: ApprovalCardIntent): string {
  return bytesToHex(sha256(utf8ToBytes(canonicalJson(intent))));
}

/** The digest's short form people compare by eye: its first 8 and last 4 hex digits. */
export function shortDigest(digest: string): string {
  return digest.length > 12 ? `${digest.slice(0, 8)}…${digest.slice(-4)}` : digest;
}
