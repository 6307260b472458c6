import type { RampQuoteResponse } from '#contract/ramps.ts';
import type { GetTradeQuoteResponse, TradeQuoteQuery } from '#contract/trades.ts';
import type { RouteRequest } from './ramp-route.ts';

/**
 * The Python SDK's create_ramp_transaction quotes a ramp through
 * get_trade_quote (`category` ON_RAMP or OFF_RAMP, `paymentMethod` the fiat
 * side's rail): the flat quote asked another way, as the exchange rates
 * are. The vault is the credited side of an on-ramp and the paying side of
 * an off-ramp; each answer's `quoteId` is a stored quote the create
 * executes. `names` says which query field each of the route's fields came
 * from, so a refusal names what the client sent.
 */
export function routeFromTradeQuote(
  query: TradeQuoteQuery,
  category: 'ON_RAMP' | 'OFF_RAMP',
): { route: RouteRequest; names: Record<string, string> } {
  const vault = { type: 'VAULT' as const, id: query.vaultId };
  const onRamp = category === 'ON_RAMP';
  const vaultSide = onRamp ? 'destination' : 'source';
  const route: RouteRequest = {
    prefix: '',
    category,
    [vaultSide]: vault,
    fromAsset: query.fromAsset,
    fromAmount: query.fromAmount,
    fromChain: query.blockChain,
    toAsset: query.toAsset,
    toChain: query.toBlockchain,
    ...(onRamp ? { fromRail: query.paymentMethod } : { toRail: query.paymentMethod }),
  };
  return {
    route,
    names: {
      fromChain: 'blockChain',
      toChain: 'toBlockchain',
      fromRail: 'paymentMethod',
      toRail: 'paymentMethod',
      [vaultSide]: 'vaultId',
      [`${vaultSide}.id`]: 'vaultId',
      [`${vaultSide}.type`]: 'vaultId',
    },
  };
}

/** The ramp's quotes, best first, in the trade quote's answer. */
export function rampTradeQuotes(
  query: TradeQuoteQuery,
  answer: RampQuoteResponse,
): GetTradeQuoteResponse {
  return {
    tradeRequestData: {
      fromAsset: query.fromAsset,
      fromAmount: query.fromAmount,
      toAsset: query.toAsset,
      ...(query.blockChain ? { blockChain: query.blockChain } : {}),
      ...(query.toBlockchain ? { toBlockchain: query.toBlockchain } : {}),
    },
    tradeResponseDataList: answer.quotes.map((q) => ({
      quoteId: q.quoteId,
      // The sandbox prices every one of these; the shape's own leaves them optional.
      finalToAmount: q.finalToAmount ?? '',
      quoteResponseDict: { quoteId: q.quoteId },
      handler: q.sourceName ?? '',
      sourceName: q.sourceName ?? '',
      handlerCategory: query.category ?? '',
      ...(q.rate !== undefined ? { unitToAssetAmount: q.rate } : {}),
      ...(q.expiresAt !== undefined ? { quotesValidTill: q.expiresAt } : {}),
      ...(q.estCompletionTimeInSec !== undefined
        ? { estCompletionTimeInSec: q.estCompletionTimeInSec }
        : {}),
      ...(q.fees ? { fees: { amount: q.fees.amount, asset: q.fees.asset } } : {}),
      fromAmount: q.finalFromAmount ?? query.fromAmount,
      ...(query.paymentMethod ? { paymentMethod: query.paymentMethod } : {}),
    })),
  };
}
