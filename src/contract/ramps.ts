import { z } from 'zod';
import * as zm from 'zod/mini';
import { positiveDecimalChecks } from './decimal-checks.ts';
import { PositiveDecimalString } from './positive-decimal.ts';
import { PAYMENT_METHODS, PartyType } from './enums.ts';
import { PAYMENT_RAILS } from './ramp-record.ts';
import { CreateTransactionRequest, externalId, memo } from './transaction.ts';
import { SwapCreateRequest } from './trades.ts';

// The answers (quotes, intents, deposit instructions, bank details as shown).
export * from './ramp-record.ts';

/**
 * Ramp and FX requests, as both of the provider's SDK generations
 * send them (docs/ramps.md):
 *
 * - G1, the Python SDK's flat shape: `POST …/transactions/quote/` with the
 *   intent's fields at the top level plus `category` and `paymentMethod`
 *   (which may be absent or null), executed by `POST …/transactions/` with
 *   `category` ON_RAMP or OFF_RAMP and the `quoteId`;
 * - G2, the JS SDK's intent: `POST …/transactions/quote/ {intent, subOrgId?}`,
 *   executed by `POST …/transactions/intent/create/ {intent, quoteId,
 *   externalId, memo}`.
 *
 * Strict like every request (an unknown field is refused, naming it); null
 * means "not given" at every depth (custody/routes/parse-body.ts). Classic
 * zod with the decimal rules: loaded with the forms, never the first load.
 */

const nonEmpty = (field: string) => z.string().trim().min(1, `${field} is required`);
const text = (field: string) =>
  z.string().max(200, `${field} must be at most 200 characters`).optional();
const asset = (field: string) =>
  z
    .string()
    .trim()
    .min(1, `${field} must not be empty`)
    .max(20, `${field} must be at most 20 characters`);

export const PaymentRailInput = z.enum(PAYMENT_RAILS, {
  message: `must be one of ${PAYMENT_RAILS.join(', ')}`,
});

/**
 * Bank details a client may send on a party (every key either SDK
 * generation writes). On a `BANK_ACCOUNT` or `EXTERNAL_BANK_ACCOUNT` party
 * naming an account by id they describe rather than choose it: the stored
 * account wins, and its numbers are never echoed back.
 */
export const BankDetailsInput = z.strictObject({
  bankAccountId: text('bankDetails.bankAccountId'),
  bankName: text('bankDetails.bankName'),
  bankCode: text('bankDetails.bankCode'),
  beneficiaryName: text('bankDetails.beneficiaryName'),
  beneficiaryAddress: text('bankDetails.beneficiaryAddress'),
  accountName: text('bankDetails.accountName'),
  accountNumber: text('bankDetails.accountNumber'),
  accountNumberMasked: text('bankDetails.accountNumberMasked'),
  routingNumber: text('bankDetails.routingNumber'),
  paymentRail: text('bankDetails.paymentRail'),
  bankAddress: text('bankDetails.bankAddress'),
  swiftCode: text('bankDetails.swiftCode'),
  swiftBic: text('bankDetails.swiftBic'),
  iban: text('bankDetails.iban'),
  currency: text('bankDetails.currency'),
  country: text('bankDetails.country'),
});

/**
 * A party of a ramp: `type` and `id` choose it, as in TransferPartyData.
 * VAULT, CONTACT and BANK_ACCOUNT need an id; an EXTERNAL_BANK_ACCOUNT with
 * an id names an approved bank account (the G1 off-ramp's destination),
 * without one it is the payer's own bank (an on-ramp's or FX's source);
 * EXTERNAL_ADDRESS takes `id`, `address` or `value`. `name`, `provider`,
 * `chain`, `paymentRail`, `subOrgId`, `exchange`, `bank` and `bankDetails`
 * describe it and are checked or ignored by the backend, never trusted.
 */
export const RampPartyInput = z
  .strictObject({
    type: PartyType,
    id: z.string().trim().min(1, 'id must not be empty').optional(),
    value: z.string().trim().min(1, 'value must not be empty').optional(),
    address: z.string().trim().min(1, 'address must not be empty').optional(),
    name: text('name'),
    exchange: text('exchange'),
    provider: text('provider'),
    chain: text('chain'),
    subOrgId: text('subOrgId'),
    paymentRail: PaymentRailInput.optional(),
    bankDetails: BankDetailsInput.optional(),
    bank: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((party, ctx) => {
    const needsId = ['VAULT', 'CONTACT', 'BANK_ACCOUNT'].includes(party.type);
    const external = party.type === 'EXTERNAL_ADDRESS';
    if (needsId && !party.id)
      ctx.addIssue({ code: 'custom', path: ['id'], message: 'id is required' });
    if (external && !party.id && !party.address && !party.value)
      ctx.addIssue({
        code: 'custom',
        path: ['id'],
        message: 'id is required: the external address',
      });
  })
  .transform((party) => {
    const id =
      party.id ?? (party.type === 'EXTERNAL_ADDRESS' ? (party.address ?? party.value) : undefined);
    const described = {
      ...(party.name === undefined ? {} : { name: party.name }),
      ...(party.provider === undefined ? {} : { provider: party.provider }),
      ...(party.chain === undefined ? {} : { chain: party.chain }),
      ...(party.subOrgId === undefined ? {} : { subOrgId: party.subOrgId }),
      ...(party.paymentRail === undefined ? {} : { paymentRail: party.paymentRail }),
      ...(party.bankDetails === undefined ? {} : { bankDetails: party.bankDetails }),
    };
    return { type: party.type, ...(id === undefined ? {} : { id }), ...described };
  });
export type RampPartyInput = z.output<typeof RampPartyInput>;

const RouteAccount = z.strictObject({
  provider: nonEmpty('routeAccounts.provider'),
  id: nonEmpty('routeAccounts.id'),
});

/** The JS SDK's TransactionIntentRequest (G2): every key optional, unset ones null. */
export const RampIntentInput = z.strictObject({
  source: RampPartyInput.optional(),
  destination: RampPartyInput.optional(),
  routeAccounts: z.array(RouteAccount).max(10, 'routeAccounts takes at most 10').optional(),
  fromAsset: asset('fromAsset').optional(),
  fromAmount: PositiveDecimalString.optional(),
  fromChain: text('fromChain'),
  fromPaymentRail: PaymentRailInput.optional(),
  toAsset: asset('toAsset').optional(),
  toAmount: PositiveDecimalString.optional(),
  toChain: text('toChain'),
  toPaymentRail: PaymentRailInput.optional(),
});
export type RampIntentInput = z.output<typeof RampIntentInput>;

/** A quote prices one side: `fromAmount` or `toAmount`, not both, not neither. */
function oneAmount(
  value: { fromAmount?: string | undefined; toAmount?: string | undefined },
  ctx: z.RefinementCtx,
  prefix: string,
): void {
  if (value.fromAmount !== undefined && value.toAmount !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: [...(prefix ? [prefix] : []), 'toAmount'],
      message: `${prefix ? `${prefix}.` : ''}toAmount: give fromAmount or toAmount, not both`,
    });
  } else if (value.fromAmount === undefined && value.toAmount === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: [...(prefix ? [prefix] : []), 'fromAmount'],
      message: `${prefix ? `${prefix}.` : ''}fromAmount is required (or toAmount: the amount to arrive)`,
    });
  }
}

function bothAssets(
  value: { fromAsset?: string | undefined; toAsset?: string | undefined },
  ctx: z.RefinementCtx,
  prefix: string,
): void {
  for (const key of ['fromAsset', 'toAsset'] as const)
    if (value[key] === undefined)
      ctx.addIssue({
        code: 'custom',
        path: [prefix, key],
        message: `${prefix}.${key} is required`,
      });
}

/** G2: `{intent, subOrgId?}` (the JS SDK's getQuote; the Python SDK's get_quote). */
export const IntentQuoteRequest = z
  .strictObject({
    intent: RampIntentInput,
    subOrgId: text('subOrgId'),
  })
  .superRefine((body, ctx) => {
    bothAssets(body.intent, ctx, 'intent');
    oneAmount(body.intent, ctx, 'intent');
  });
export type IntentQuoteRequest = z.output<typeof IntentQuoteRequest>;

/** The categories a flat (G1) quote and a flat create take. */
export const RAMP_CATEGORIES = ['ON_RAMP', 'OFF_RAMP'] as const;
const RampCategory = z.enum(RAMP_CATEGORIES, {
  message: `must be one of ${RAMP_CATEGORIES.join(', ')}`,
});

/**
 * G1: the Python SDK's get_ramp_quote (and the older JS getRampQuote): the
 * intent's fields flat, with `category`. `paymentMethod` is read from an
 * attribute the Python type does not declare: absent or null is "not given".
 */
export const FlatQuoteRequest = z
  .strictObject({
    category: RampCategory,
    source: RampPartyInput.optional(),
    destination: RampPartyInput.optional(),
    fromAsset: asset('fromAsset'),
    fromAmount: PositiveDecimalString.optional(),
    fromChain: text('fromChain'),
    toAsset: asset('toAsset'),
    toAmount: PositiveDecimalString.optional(),
    toChain: text('toChain'),
    paymentMethod: z
      .enum(PAYMENT_METHODS, { message: `must be one of ${PAYMENT_METHODS.join(', ')}` })
      .optional(),
    subOrgId: text('subOrgId'),
  })
  .superRefine((body, ctx) => oneAmount(body, ctx, ''));
export type FlatQuoteRequest = z.output<typeof FlatQuoteRequest>;

/**
 * G3 (the newest JS SDK): one side of an intent, `{asset, amount?, vaultId?}`.
 * `vaultId` names the vault on a digital asset's side (a fiat vault is not
 * served).
 */
export const IntentAssetInput = z.strictObject({
  asset: asset('asset'),
  amount: PositiveDecimalString.optional(),
  vaultId: z.string().trim().min(1, 'vaultId must not be empty').optional(),
});

/**
 * G3's TransactionIntentRequest: `{input, output, source?, destination?}`,
 * the chains and rails on the parties (`chain`, `paymentRail`).
 */
export const V2IntentInput = z.strictObject({
  input: IntentAssetInput,
  output: IntentAssetInput,
  source: RampPartyInput.optional(),
  destination: RampPartyInput.optional(),
});
export type V2IntentInput = z.output<typeof V2IntentInput>;

/** G3: `POST …/transactions/v2/quote/ {intent: {input, output, source?, destination?}}` (the JS SDK's getQuote). */
export const V2QuoteRequest = z.strictObject({ intent: V2IntentInput }).superRefine((body, ctx) => {
  const { input, output } = body.intent;
  if (input.amount !== undefined && output.amount !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['intent', 'output', 'amount'],
      message: 'intent.output.amount: give input.amount or output.amount, not both',
    });
  else if (input.amount === undefined && output.amount === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['intent', 'input', 'amount'],
      message: 'intent.input.amount is required (or output.amount: the amount to arrive)',
    });
});
export type V2QuoteRequest = z.output<typeof V2QuoteRequest>;

/**
 * `POST …/transactions/v2/quote/`: the JS SDK's G3 body, or the Python SDK's
 * v2 get_quote, which posts the G2 intent there (and reads a bare list).
 */
export const V2QuoteBody = z.union([V2QuoteRequest, IntentQuoteRequest]);
export type V2QuoteBody = z.output<typeof V2QuoteBody>;

export function isV2Intent(intent: object): intent is V2IntentInput {
  return 'input' in intent || 'output' in intent;
}

/**
 * GET …/transactions/ramp_exchange_rates/ (the older SDKs'
 * getRampExchangeRates): an on-ramp of `amount` `currency` into `asset` on
 * `blockChain` credited to `vaultId`, or an off-ramp of `amount` `asset`
 * from that vault into `currency`. The JS SDK sends no `paymentMethod`; the
 * Python example does (the fiat side's rail).
 */
const queryText = (field: string, max: number) =>
  zm
    .string(`${field} is required`)
    .check(
      zm.trim(),
      zm.minLength(1, `${field} is required`),
      zm.maxLength(max, `${field} must be at most ${max} characters`),
    );
export const RampExchangeRatesQuery = zm.object({
  amount: zm.string('amount is required').check(...positiveDecimalChecks),
  currency: queryText('currency', 20),
  asset: queryText('asset', 20),
  category: zm.enum(RAMP_CATEGORIES, `must be one of ${RAMP_CATEGORIES.join(', ')}`),
  blockChain: queryText('blockChain', 40),
  vaultId: queryText('vaultId', 200),
  paymentMethod: zm.optional(
    zm.enum(PAYMENT_METHODS, `must be one of ${PAYMENT_METHODS.join(', ')}`),
  ),
});
export type RampExchangeRatesQuery = zm.infer<typeof RampExchangeRatesQuery>;

/** POST …/transactions/quote/: either shape (the server tells them apart by `intent`). */
export const RampQuoteRequest = z.union([IntentQuoteRequest, FlatQuoteRequest]);
export type RampQuoteRequest = z.output<typeof RampQuoteRequest>;

/**
 * POST …/transactions/intent/create/ (G2 and G3), and the Python SDK's v2
 * `POST …/transactions/execute/` with the same body. `quoteId` is required for every
 * ramp and FX (the sandbox prices nothing without a quote); the intent, when
 * sent, must be the quote's.
 */
export const IntentCreateRequest = z.strictObject({
  // G2's intent, or G3's (the newest JS SDK sends its own shape here).
  intent: z.union([V2IntentInput, RampIntentInput]).optional(),
  quoteId: nonEmpty('quoteId').optional(),
  externalId: externalId.optional(),
  memo: memo.optional(),
  subOrgId: text('subOrgId'),
});
export type IntentCreateRequest = z.output<typeof IntentCreateRequest>;

/**
 * A quote's answer as the Python SDK's ramp examples hand it back to the
 * create (`onRampResponseData`): one quote (its type reads `quoteId`,
 * `finalToAmount`, `fees`, `sourceName` at the top level) or the whole
 * answer `{quotes}`. Loose, unlike a request: it is our own answer echoed,
 * and a client keeps whatever fields we answered. Only the quote's id and the
 * amounts it promised are read, and held to the stored quote; nothing in it
 * is trusted.
 */
const EchoedQuote = z.looseObject({
  quoteId: z.string().trim().min(1, 'quoteId must not be empty').optional(),
  finalToAmount: z.string().optional(),
  finalFromAmount: z.string().optional(),
});
export const RampResponseData = EchoedQuote.extend({
  quotes: z.array(EchoedQuote).max(20, 'quotes takes at most 20').optional(),
});
export type RampResponseData = z.output<typeof RampResponseData>;

/**
 * The quote a G1 create executes: its `quoteId`, else the echoed answer's
 * (`onRampResponseData.quoteId`, or its first quote, the best, when the
 * client handed back the whole list without choosing).
 */
export function quoteIdOfRampCreate(body: {
  quoteId?: string | undefined;
  onRampResponseData?: RampResponseData | undefined;
}): string | undefined {
  const echoed = body.onRampResponseData;
  return body.quoteId ?? echoed?.quoteId ?? echoed?.quotes?.[0]?.quoteId;
}

/** The quote's answer (or a quoteId) must say which quote a G1 create executes. */
function namesAQuote(
  body: { quoteId?: string | undefined; onRampResponseData?: RampResponseData | undefined },
  ctx: z.RefinementCtx,
): void {
  if (quoteIdOfRampCreate(body) !== undefined) return;
  const echoed = body.onRampResponseData !== undefined;
  ctx.addIssue({
    code: 'custom',
    path: echoed ? ['onRampResponseData', 'quoteId'] : ['quoteId'],
    message: echoed
      ? 'onRampResponseData.quoteId is required: the quote answered by POST …/transactions/quote/ (or its quotes)'
      : 'quoteId is required (or onRampResponseData, the answer of POST …/transactions/quote/)',
  });
}

/**
 * G1's create fields beyond the parties: the quote by `quoteId`, or (the
 * Python SDK's examples) the quote request and answer as the client kept
 * them. The SDK names both `onRamp…` whichever way the ramp goes.
 */
const G1_EXECUTE = {
  quoteId: nonEmpty('quoteId').optional(),
  onRampRequestData: FlatQuoteRequest.optional(),
  onRampResponseData: RampResponseData.optional(),
  externalId: externalId.optional(),
  memo: memo.optional(),
};

/** G1 on-ramp: `POST …/transactions/` with the vault to credit and the quote. */
export const OnRampCreateRequest = z
  .strictObject({
    category: z.literal('ON_RAMP'),
    source: RampPartyInput.optional(),
    destination: RampPartyInput,
    ...G1_EXECUTE,
  })
  .superRefine(namesAQuote);

/**
 * G1 off-ramp: the vault paying and the approved bank account paid
 * (`EXTERNAL_BANK_ACCOUNT` or `BANK_ACCOUNT` + id), which the quote need not
 * have named: it is checked at create.
 */
export const OffRampCreateRequest = z
  .strictObject({
    category: z.literal('OFF_RAMP'),
    source: RampPartyInput,
    destination: RampPartyInput,
    ...G1_EXECUTE,
  })
  .superRefine(namesAQuote);

export const RampCreateRequest = z.discriminatedUnion('category', [
  OnRampCreateRequest,
  OffRampCreateRequest,
]);
export type RampCreateRequest = z.output<typeof RampCreateRequest>;

/**
 * The body of `POST …/transactions/` (endpoint 7): the four kinds of
 * transaction.ts, a G1 ramp executing a quote, or a swap executing a trade
 * quote (trades.ts).
 */
export const CreateTransactionOrRampRequest = z.discriminatedUnion('category', [
  ...CreateTransactionRequest.options,
  OnRampCreateRequest,
  OffRampCreateRequest,
  SwapCreateRequest,
]);
export type CreateTransactionOrRampRequest = z.output<typeof CreateTransactionOrRampRequest>;

export function isRampCreate(body: CreateTransactionOrRampRequest): body is RampCreateRequest {
  return (RAMP_CATEGORIES as readonly string[]).includes(body.category);
}

/** POST …/transactions/mark_deposit_done/: the payer says the on-ramp's or FX's money is on its way. */
export const MarkDepositDoneRequest = z.strictObject({
  transactionId: nonEmpty('transactionId'),
});
export type MarkDepositDoneRequest = z.output<typeof MarkDepositDoneRequest>;

/**
 * What the sandbox's providers convert, for the console's pickers: the fiat
 * currencies paid out and taken in, the digital assets bought and sold (on
 * every chain the sandbox lists them on), and the currencies each bank
 * account rail carries. A route outside these is refused by the quote
 * (UNSUPPORTED_ROUTE) whatever a client offers.
 */
export const RAMP_FIAT_CURRENCIES = ['USD', 'EUR', 'GBP'] as const;
export const RAMP_ASSETS = ['USDC', 'USDT'] as const;
export const RAIL_CURRENCIES: Readonly<
  Record<(typeof PAYMENT_METHODS)[number], readonly string[]>
> = {
  US_ACH: ['USD'],
  US_WIRE: ['USD'],
  SEPA: ['EUR'],
  SWIFT: ['USD', 'EUR', 'GBP'],
  BANK_TRANSFER: ['USD', 'EUR', 'GBP'],
};
