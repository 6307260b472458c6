import type {
  RampExchangeRatesQuery,
  RampExchangeRatesResponse,
  RampQuoteResponse,
} from '#contract/ramps.ts';
import type { RouteRequest } from './ramp-route.ts';

/**
 * The older SDKs' exchange rates are the flat quote asked another way: the
 * vault is the credited side of an on-ramp and the paying side of an
 * off-ramp, `amount` is what leaves (the fiat of an on-ramp, the asset of an
 * off-ramp), and `paymentMethod` is the fiat side's rail. So the rates are
 * the quotes' own, and each `quoteId` executes like any other. `names` says
 * which query field each of the route's fields came from, so a refusal names
 * what the client sent.
 */
export function routeFromExchangeRates(query: RampExchangeRatesQuery): {
  route: RouteRequest;
  names: Record<string, string>;
} {
  const vault = { type: 'VAULT' as const, id: query.vaultId };
  const onRamp = query.category === 'ON_RAMP';
  const vaultSide = onRamp ? 'destination' : 'source';
  const route: RouteRequest = onRamp
    ? {
        prefix: '',
        category: 'ON_RAMP',
        destination: vault,
        fromAsset: query.currency,
        fromAmount: query.amount,
        fromRail: query.paymentMethod,
        toAsset: query.asset,
        toChain: query.blockChain,
      }
    : {
        prefix: '',
        category: 'OFF_RAMP',
        source: vault,
        fromAsset: query.asset,
        fromAmount: query.amount,
        fromChain: query.blockChain,
        toAsset: query.currency,
        toRail: query.paymentMethod,
      };
  return {
    route,
    names: {
      fromAsset: onRamp ? 'currency' : 'asset',
      toAsset: onRamp ? 'asset' : 'currency',
      fromAmount: 'amount',
      fromChain: 'blockChain',
      toChain: 'blockChain',
      [vaultSide]: 'vaultId',
      [`${vaultSide}.id`]: 'vaultId',
      [`${vaultSide}.type`]: 'vaultId',
    },
  };
}

/** The quotes, best first, as the older SDKs read them. */
export function exchangeRates(answer: RampQuoteResponse): RampExchangeRatesResponse {
  return answer.quotes.map((q) => ({
    quoteId: q.quoteId,
    // The sandbox prices every one of these; the shape's own leaves them optional.
    convertedAmount: q.finalToAmount ?? '',
    fees: { amount: q.fees?.amount ?? '0', asset: q.fees?.asset ?? q.fromAsset ?? '' },
    source: q.sourceName ?? '',
    ...(q.rate !== undefined ? { rate: q.rate } : {}),
    ...(q.expiresAt !== undefined ? { expiresAt: q.expiresAt } : {}),
  }));
}
