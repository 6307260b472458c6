import * as z from 'zod/mini';
import { lenientEnum, PARTY_TYPES } from './enums.ts';
import { BankDetails, Party, PAYMENT_RAILS, TransactionFees } from './party-record.ts';

// The shared pieces, for those who import them from here.
export { BankDetails, PAYMENT_RAILS };

/**
 * Ramps and FX as the custody API answers them: quotes, the
 * intent a ramp was made from, deposit instructions and bank details as
 * shown. The description leaves ramps unshown; these shapes are what the
 * provider's SDKs read (docs/ramps.md). Written with zod/mini, like
 * every answer a page reads (ARCHITECTURE.md, "First load"); the request
 * bodies are in ramps.ts, which re-exports this module.
 */

/** The flows the sandbox prices: crypto → fiat, fiat → crypto, fiat → fiat. */
export const RAMP_KINDS = ['OFF_RAMP', 'ON_RAMP', 'FX'] as const;
export type RampKind = (typeof RAMP_KINDS)[number];

/** A party of an intent or a quote: a transaction's party (party-record.ts). */
export const IntentParty = Party;
export type IntentParty = Party;

/**
 * What a ramp was asked to do (the JS SDK's TransactionIntentRequest), as
 * recorded on the transaction: both SDK shapes are answered in this one.
 */
export const RampIntent = z.looseObject({
  source: z.optional(IntentParty),
  destination: z.optional(IntentParty),
  fromAsset: z.optional(z.string()),
  fromAmount: z.optional(z.string()),
  fromChain: z.optional(z.string()),
  fromPaymentRail: z.optional(lenientEnum(PAYMENT_RAILS)),
  toAsset: z.optional(z.string()),
  toAmount: z.optional(z.string()),
  toChain: z.optional(z.string()),
  toPaymentRail: z.optional(lenientEnum(PAYMENT_RAILS)),
});
export type RampIntent = z.infer<typeof RampIntent>;

/** A quote's fee, in the `from` asset: already inside `finalFromAmount`. Amount and asset always. */
export const RampFees = z.extend(TransactionFees, { amount: z.string(), asset: z.string() });
export type RampFees = z.infer<typeof RampFees>;

/** One side of a G3 quote: the asset, its amount, the vault on a digital asset's side. */
export const IntentAsset = z.looseObject({
  asset: z.string(),
  amount: z.optional(z.string()),
  vaultId: z.optional(z.string()),
});
export type IntentAsset = z.infer<typeof IntentAsset>;

/**
 * One provider's price. `finalFromAmount` is everything that leaves the
 * source (the fee included), `finalToAmount` what arrives; `rate` is
 * `to` per `from` before the fee. A quote is used once, before `expiresAt`.
 */
export const RampQuote = z.looseObject({
  quoteId: z.string(),
  subOrgId: z.optional(z.nullable(z.string())),
  kind: z.optional(lenientEnum(RAMP_KINDS)),
  rate: z.optional(z.string()),
  fees: z.optional(RampFees),
  fromAsset: z.optional(z.string()),
  fromChain: z.optional(z.string()),
  toAsset: z.optional(z.string()),
  toChain: z.optional(z.string()),
  finalFromAmount: z.optional(z.string()),
  finalToAmount: z.optional(z.string()),
  sourceName: z.optional(z.nullable(z.string())),
  /** ISO 8601 UTC. */
  expiresAt: z.optional(z.string()),
  /** How long the provider takes once the money is on its way, in seconds. */
  estCompletionTimeInSec: z.optional(z.int()),
  /** The smallest and largest `from` amount this pair takes (the sandbox's). */
  minFromAmount: z.optional(z.string()),
  maxFromAmount: z.optional(z.string()),
  /** The parties priced, as shown (a customer's bank account masked). */
  source: z.optional(Party),
  destination: z.optional(Party),
  /** G3's view of the two sides: what goes in and what comes out, with the vault when there is one. */
  input: z.optional(IntentAsset),
  output: z.optional(IntentAsset),
});
export type RampQuote = z.infer<typeof RampQuote>;

/**
 * A ramp's quote priced again after it expired (the sandbox's, beyond the
 * description): what the approvers had accepted, what it is now, and
 * whether the rate moved beyond the console's tolerance, in which case an
 * approver must see and accept the new quote (naming it) before it counts.
 */
export const RampRequote = z.looseObject({
  at: z.string(),
  /** At a decision (before it counts) or as the ramp executes after its final approval. */
  when: lenientEnum(['APPROVAL', 'EXECUTION'] as const),
  previousQuoteId: z.string(),
  quoteId: z.string(),
  previousRate: z.string(),
  rate: z.string(),
  previousFinalToAmount: z.optional(z.string()),
  finalToAmount: z.optional(z.string()),
  toAsset: z.optional(z.string()),
  /** The rate of the quote a person last accepted, which the new rate is judged against. */
  acceptedRate: z.string(),
  /** The tolerance it was judged by, in percent ("0.5"). */
  tolerancePercent: z.string(),
  /** The rate moved beyond the tolerance: an approver must accept this quote before it executes. */
  beyondTolerance: z.boolean(),
});
export type RampRequote = z.infer<typeof RampRequote>;

/**
 * POST …/transactions/v2/quote/: `{quotes}` for the JS SDK's G3 body, a bare
 * list for the Python SDK's v2 get_quote (docs/ramps.md).
 */
export const V2QuoteResponse = z.union([
  z.looseObject({ quotes: z.array(RampQuote) }),
  z.array(RampQuote),
]);
export type V2QuoteResponse = z.infer<typeof V2QuoteResponse>;

/**
 * POST …/transactions/quote/: every provider's quote, best first (most
 * arriving). The best quote's fields are repeated at the top level, for the
 * Python SDK generation that reads one quote there (docs/ramps.md).
 */
export const RampQuoteResponse = z.extend(
  z.partial(
    z.pick(RampQuote, {
      quoteId: true,
      finalToAmount: true,
      finalFromAmount: true,
      fees: true,
      sourceName: true,
      rate: true,
    }),
  ),
  { quotes: z.array(RampQuote) },
);
export type RampQuoteResponse = z.infer<typeof RampQuoteResponse>;

/**
 * GET …/transactions/ramp_exchange_rates/: each provider's price, best
 * first, in the older SDKs' shape (`source` is the provider's name). Each is
 * a stored quote, executed by its `quoteId` like any other; `rate` and
 * `expiresAt` are the quote's own, beyond what the SDKs' types read.
 */
export const RampExchangeRate = z.object({
  quoteId: z.string(),
  convertedAmount: z.string(),
  fees: z.object({ amount: z.string(), asset: z.string() }),
  source: z.string(),
  rate: z.optional(z.string()),
  expiresAt: z.optional(z.string()),
});
export const RampExchangeRatesResponse = z.array(RampExchangeRate);
export type RampExchangeRatesResponse = z.infer<typeof RampExchangeRatesResponse>;

/**
 * Where and how the payer sends the money of an on-ramp or FX, answered once
 * the transaction is approved (never before its four-eyes).
 */
export const DepositInstructions = z.looseObject({
  type: z.optional(lenientEnum(PARTY_TYPES)),
  paymentRail: z.optional(lenientEnum(PAYMENT_RAILS)),
  currency: z.optional(z.string()),
  /** Exactly what to send, in `currency`. */
  amount: z.optional(z.string()),
  bankDetails: z.optional(BankDetails),
  /** The payment reference the transfer must carry, so the provider can match it. */
  reference: z.optional(z.string()),
  asset: z.optional(z.string()),
  address: z.optional(z.string()),
  chain: z.optional(z.string()),
});
export type DepositInstructions = z.infer<typeof DepositInstructions>;
