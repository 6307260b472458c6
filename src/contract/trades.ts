import { z } from 'zod';
import * as zm from 'zod/mini';
import { positiveDecimalChecks } from './decimal-checks.ts';
import { CreateTransactionRequest, externalId, memo } from './transaction.ts';

/**
 * Trades (swaps) as the provider's SDKs ask for them (docs/ramps.md, "Swaps"):
 *
 * - `GET …/transactions/trade_quote/` with the request in the query
 *   (`vaultId`, `fromAsset`, `toAsset`, `fromAmount`, `blockChain`,
 *   `toBlockchain`, `slippage`, …; the Python SDK's `get_trade_quote`, the
 *   JS SDK's `getTradeQuote`), answered `{tradeRequestData,
 *   tradeResponseDataList}`: the request as priced and one answer per
 *   provider, best first;
 * - `POST …/transactions/` with category SWAP, the `vaultId`, the
 *   `tradeRequestData` and the one `tradeResponseData` chosen, each handed
 *   back as it was answered (`create_trade_transaction`,
 *   `createTradeTransaction`).
 *
 * Strict like every request; null means "not given" at every depth (the
 * Python SDK's `asdict` writes every key). Classic zod: loaded with the forms.
 */

const nonEmpty = (field: string) => z.string().trim().min(1, `${field} is required`);
const asset = (field: string) =>
  z
    .string(`${field} is required`)
    .trim()
    .min(1, `${field} is required`)
    .max(20, `${field} must be at most 20 characters`);
const chain = (field: string) =>
  z
    .string()
    .trim()
    .min(1, `${field} must not be empty`)
    .max(40, `${field} must be at most 40 characters`);
const positive = (field: string) =>
  z.string(`${field} is required`).check(...positiveDecimalChecks);
const decimalText = (field: string) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, `${field} must be a decimal number written as a string, like "0.5"`);
/** Minutes written as the query writes them ("5") or as the answer gives them back (5). */
const minutes = (field: string) =>
  z.union(
    [
      z.int().min(1).max(60),
      z
        .string()
        .regex(/^\d{1,2}$/)
        // eslint-disable-next-line no-restricted-syntax -- minutes, not an amount
        .transform((v) => Number.parseInt(v, 10)),
    ],
    { message: `${field} must be a whole number of minutes, 1 to 60` },
  );

/** The most a trade may slip from its promise, in percent. */
export const MAX_SLIPPAGE_PERCENT = '50';
/** Slippage when the request names none, in percent. */
export const DEFAULT_SLIPPAGE_PERCENT = '0.5';

/**
 * The query of `GET …/trade_quote/`: every key either SDK writes (unset
 * ones left out of the query). A query is text: the amount, slippage and
 * expiry are checked by the sandbox, naming each field. `category` and
 * `paymentMethod` are the Python SDK's, for its ramps; a trade takes neither.
 */
const queryText = (field: string) =>
  zm.string(`${field} is required`).check(zm.trim(), zm.minLength(1, `${field} is required`));
export const TradeQuoteQuery = zm.object({
  vaultId: queryText('vaultId'),
  fromAsset: queryText('fromAsset'),
  toAsset: queryText('toAsset'),
  fromAmount: queryText('fromAmount'),
  blockChain: zm.optional(queryText('blockChain')),
  toBlockchain: zm.optional(queryText('toBlockchain')),
  slippage: zm.optional(queryText('slippage')),
  expectedToAmount: zm.optional(zm.string()),
  expiryInMinutes: zm.optional(queryText('expiryInMinutes')),
  category: zm.optional(zm.string()),
  paymentMethod: zm.optional(zm.string()),
});
export type TradeQuoteQuery = zm.infer<typeof TradeQuoteQuery>;

/** The request as priced (the SDKs' TradeQuoteRequestData), answered and handed back at create. */
export const TradeRequestData = z.strictObject({
  fromAsset: asset('tradeRequestData.fromAsset'),
  fromAmount: positive('tradeRequestData.fromAmount'),
  toAsset: asset('tradeRequestData.toAsset'),
  slippage: decimalText('tradeRequestData.slippage').optional(),
  blockChain: chain('tradeRequestData.blockChain').optional(),
  toBlockchain: chain('tradeRequestData.toBlockchain').optional(),
  fromAmountUSD: decimalText('tradeRequestData.fromAmountUSD').optional(),
  destinationAddress: z.string().max(200).optional(),
  chainId: z.string().max(40).optional(),
  fromAssetLogoURL: z.string().max(2000).optional(),
  toAssetLogoURL: z.string().max(2000).optional(),
  expectedToAmountUSD: decimalText('tradeRequestData.expectedToAmountUSD').optional(),
  expiryInMinutes: minutes('tradeRequestData.expiryInMinutes').optional(),
});
export type TradeRequestData = z.output<typeof TradeRequestData>;

export const TradeFee = z.strictObject({
  amount: z.string().max(60).optional(),
  asset: z.string().max(20).optional(),
});

/**
 * One provider's answer (the SDKs' TradeQuoteResponseData). `quoteId` names
 * the stored quote a create executes: the JS SDK's type leaves it out, but
 * the client hands back the object it was answered, which carries it.
 */
export const TradeResponseData = z.strictObject({
  quoteId: nonEmpty('tradeResponseData.quoteId'),
  finalToAmount: z.string('tradeResponseData.finalToAmount is required').max(60),
  quoteResponseDict: z.union([z.string().max(20_000), z.record(z.string(), z.unknown())]),
  handler: z.string().max(100),
  sourceName: z.string().max(100),
  handlerCategory: z.string().max(100).optional(),
  unitToAssetAmount: z.string().max(60).optional(),
  approvedFinalToAmount: z.string().max(60).optional(),
  quotesValidTill: z.string().max(40).optional(),
  feeInUSD: z.string().max(60).optional(),
  finalToAmountUSD: z.string().max(60).optional(),
  stepsData: z.array(z.unknown()).max(20).optional(),
  sourceLogoURL: z.string().max(2000).optional(),
  estCompletionTimeInSec: z.union([z.int(), z.string().max(12)]).optional(),
  autoSlippage: z.string().max(20).optional(),
  minimumToAmount: z.string().max(60).optional(),
  fees: TradeFee.optional(),
  fromAmount: z.string().max(60).optional(),
  paymentMethod: z.string().max(40).optional(),
});
export type TradeResponseData = z.output<typeof TradeResponseData>;

export const GetTradeQuoteResponse = z.looseObject({
  tradeRequestData: z.looseObject({
    ...TradeRequestData.shape,
    fromAmount: z.string(),
  }),
  tradeResponseDataList: z.array(
    z.looseObject({
      ...TradeResponseData.shape,
      quoteId: z.string(),
      finalToAmount: z.string(),
    }),
  ),
});
export type GetTradeQuoteResponse = z.output<typeof GetTradeQuoteResponse>;

/** `POST …/transactions/` with category SWAP: the vault, the request as quoted, the answer chosen. */
export const SwapCreateRequest = z.strictObject({
  category: z.literal('SWAP'),
  vaultId: nonEmpty('vaultId'),
  tradeRequestData: TradeRequestData,
  tradeResponseData: TradeResponseData,
  blockChain: chain('blockChain').optional(),
  externalId: externalId.optional(),
  memo: memo.optional(),
});
export type SwapCreateRequest = z.output<typeof SwapCreateRequest>;

/** What an approval card may be previewed for: a create body, or a swap executing its trade quote. */
export const CardPreviewRequest = z.discriminatedUnion('category', [
  ...CreateTransactionRequest.options,
  SwapCreateRequest,
]);
export type CardPreviewRequest = z.output<typeof CardPreviewRequest>;

export function isSwapCreate(body: { category: string }): body is SwapCreateRequest {
  return body.category === 'SWAP';
}

/**
 * A swap as the sandbox keeps it, on its quote and then on its transaction:
 * the request as priced and the answer given (handed back unchanged at
 * create), and what executing it moves. The vault pays `fromAmount` and
 * `fee` of `fromAsset` on `fromChain`, and receives `finalToAmount` of
 * `toAsset` on `toChain`.
 */
export interface TradeRecord {
  request: TradeRequestData;
  response: TradeResponseData;
  provider: string;
  fromAsset: string;
  fromChain: string;
  fromAmount: string;
  fee: string;
  toAsset: string;
  toChain: string;
  finalToAmount: string;
  minimumToAmount: string;
  rate: string;
  completionSeconds: number;
}
