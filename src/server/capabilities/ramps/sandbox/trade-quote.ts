import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { chainInfo, CHAINS } from '#contract/chains.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { add, cmp, div, mul, round, scale, sub } from '#contract/decimal.ts';
import {
  DEFAULT_SLIPPAGE_PERCENT,
  MAX_SLIPPAGE_PERCENT,
  type GetTradeQuoteResponse,
  type TradeQuoteQuery,
  type TradeRecord,
  type TradeRequestData,
  type TradeResponseData,
} from '#contract/trades.ts';
import type { Database } from '../../../db/client.ts';
import { assets, tradeQuotes, vaults, wallets } from '../../../db/schema/sandbox.ts';
import { ENGINE_CODES, Problems } from '../../../custody/sandbox/engine/problems.ts';
import { driftFor, PROVIDERS, QUOTE_LIFETIME_MS } from './ramp-pricing.ts';
import { freeBalance } from './ramp-quote.ts';

/**
 * GET …/transactions/trade_quote/: every provider's price for swapping an
 * amount of one asset a vault holds into another, best first (docs/ramps.md, "Swaps").
 * Priced from the sandbox's asset prices with the ramps' minute drift and the
 * ramps' three providers (ramp-pricing.ts): each takes its spread off the
 * rate and its fee on top of the amount, in the source asset. Each answer is
 * stored as a quote that one create may execute before it expires.
 */

/** Places an amount is written to: the asset's own, at most 8 (a trade's promise, not wei). */
const placesOf = (decimals: number) => Math.min(decimals, 8);

/** The least a provider charges, in USD, converted into the source asset. */
const MIN_FEE_USD: Readonly<Record<string, string>> = {
  'Northwind Ramp': '1',
  'Meridian Pay': '2.5',
  'Harbor FX': '5',
};

/** A provider's spread and fee, as ramps charge them (ramp-pricing.ts's PROVIDERS). */
export interface TradePrice {
  provider: string;
  rate: string;
  fee: string;
  finalToAmount: string;
  minimumToAmount: string;
  completionSeconds: number;
}

/**
 * Each provider's price for `fromAmount`, best first (the most arriving).
 * Pure: the reference rate (USD price of the source over the target's, with
 * the minute's drift) is given.
 */
export function priceTrade(input: {
  fromAmount: string;
  fromPrice: string;
  reference: string;
  fromPlaces: number;
  toPlaces: number;
  slippagePercent: string;
}): TradePrice[] {
  const keep = sub('1', div(input.slippagePercent, '100', 10));
  const priced = PROVIDERS.map((provider) => {
    const rate = round(mul(input.reference, sub('1', provider.spread)), 12, 'down');
    const proportional = round(mul(input.fromAmount, provider.feeRate), input.fromPlaces, 'up');
    const least = div(MIN_FEE_USD[provider.name] ?? '1', input.fromPrice, input.fromPlaces, 'up');
    const fee = add(cmp(proportional, least) < 0 ? least : proportional, '0');
    const finalToAmount = add(round(mul(input.fromAmount, rate), input.toPlaces, 'down'), '0');
    return {
      provider: provider.name,
      rate: add(rate, '0'),
      fee,
      finalToAmount,
      minimumToAmount: add(round(mul(finalToAmount, keep), input.toPlaces, 'down'), '0'),
      completionSeconds: provider.completionSeconds,
    };
  }).filter((p) => cmp(p.finalToAmount, '0') > 0);
  return priced.sort((a, b) => cmp(b.finalToAmount, a.finalToAmount));
}

interface PricedAsset {
  decimals: number;
  usdPrice: string;
}

async function assetOn(db: Database, symbol: string, chain: string): Promise<PricedAsset | null> {
  const [row] = await db
    .select({ decimals: assets.decimals, usdPrice: assets.usdPrice })
    .from(assets)
    .where(and(eq(assets.symbol, symbol), eq(assets.blockChain, chain)))
    .limit(1);
  return row ?? null;
}

const DECIMAL_TEXT = /^\d+(\.\d+)?$/;

/** The query's text read as what it says: a positive amount, a slippage, whole minutes. */
function readQuery(query: TradeQuoteQuery) {
  const problems = new Problems();
  if (!DECIMAL_TEXT.test(query.fromAmount) || !/[1-9]/.test(query.fromAmount))
    problems.add(
      'fromAmount',
      ERROR_CODES.validation,
      `must be a positive decimal number, like "12.5"; got "${query.fromAmount}"`,
    );
  const slippage = query.slippage ?? DEFAULT_SLIPPAGE_PERCENT;
  if (!DECIMAL_TEXT.test(slippage) || cmp(slippage, MAX_SLIPPAGE_PERCENT) > 0)
    problems.add(
      'slippage',
      ERROR_CODES.validation,
      `is "${slippage}": a percentage from 0 to ${MAX_SLIPPAGE_PERCENT} ("0.5" is half a percent)`,
    );
  let expiryMinutes: number | undefined;
  if (query.expiryInMinutes !== undefined) {
    // eslint-disable-next-line no-restricted-syntax -- a count of minutes, checked digits only
    const minutes = /^\d{1,2}$/.test(query.expiryInMinutes) ? Number(query.expiryInMinutes) : 0;
    if (minutes < 1 || minutes > 60)
      problems.add(
        'expiryInMinutes',
        ERROR_CODES.validation,
        `is "${query.expiryInMinutes}": a whole number of minutes, 1 to 60`,
      );
    else expiryMinutes = minutes;
  }
  if (query.category !== undefined && query.category !== 'SWAP')
    problems.add(
      'category',
      ERROR_CODES.validation,
      `is ${query.category}: a trade quote is a SWAP (ramps are quoted with POST …/transactions/quote/)`,
    );
  if (query.paymentMethod !== undefined)
    problems.add(
      'paymentMethod',
      ERROR_CODES.validation,
      'a trade pays no bank: paymentMethod is for ramps (POST …/transactions/quote/)',
    );
  problems.throwIfAny();
  return { slippage, expiryMinutes };
}

/** The route a trade quote asks for, each rule checked and named by its query field. */
async function resolveTrade(db: Database, orgId: string, query: TradeQuoteQuery) {
  const { slippage, expiryMinutes } = readQuery(query);
  const problems = new Problems();
  const [vault] = await db
    .select({ id: vaults.id, vaultName: vaults.vaultName, subOrgId: vaults.subOrgId })
    .from(vaults)
    .where(and(eq(vaults.orgId, orgId), eq(vaults.id, query.vaultId)))
    .limit(1);
  if (!vault) {
    problems.add('vaultId', ENGINE_CODES.unknownVault, `no vault "${query.vaultId}" here`);
    problems.throwIfAny();
    throw new Error('unreachable');
  }
  const held = new Set(
    (
      await db
        .select({ chain: wallets.blockchain })
        .from(wallets)
        .where(eq(wallets.vaultId, vault.id))
    ).map((w) => w.chain),
  );
  const fromChain = query.blockChain ?? (await onlyChainOf(db, held, query.fromAsset));
  const toChain = query.toBlockchain ?? fromChain;
  const known = (field: string, chain: string | undefined) => {
    if (chain === undefined) return false;
    if (!chainInfo(chain)) {
      problems.add(
        field,
        ENGINE_CODES.unsupportedChain,
        `${chain} is not a chain the sandbox supports (${CHAINS.map((c) => c.value).join(', ')})`,
      );
      return false;
    }
    if (!held.has(chain)) {
      problems.add(
        field,
        ENGINE_CODES.noWallet,
        `vault "${vault.vaultName}" has no wallet on ${chain}`,
      );
      return false;
    }
    return true;
  };
  if (fromChain === undefined)
    problems.add(
      'blockChain',
      ERROR_CODES.validation,
      `is required: ${query.fromAsset} is held on more than one chain of vault "${vault.vaultName}", or on none`,
    );
  const fromKnown = known('blockChain', fromChain);
  const toKnown = toChain !== fromChain ? known('toBlockchain', toChain) : fromKnown;
  const from = fromKnown && fromChain ? await assetOn(db, query.fromAsset, fromChain) : null;
  const to = toKnown && toChain ? await assetOn(db, query.toAsset, toChain) : null;
  if (fromKnown && !from)
    problems.add(
      'fromAsset',
      ENGINE_CODES.unknownAsset,
      `asset ${query.fromAsset} does not exist on ${fromChain}`,
    );
  if (toKnown && !to)
    problems.add(
      'toAsset',
      ENGINE_CODES.unknownAsset,
      `asset ${query.toAsset} does not exist on ${toChain}`,
    );
  if (query.fromAsset === query.toAsset && fromChain === toChain)
    problems.add(
      'toAsset',
      ERROR_CODES.unsupportedRoute,
      `is ${query.fromAsset}, the asset sold: a trade swaps one asset for another`,
    );
  if (from && scale(query.fromAmount) > from.decimals)
    problems.add(
      'fromAmount',
      ENGINE_CODES.amountPrecision,
      `${query.fromAsset} has ${from.decimals} decimal places; ${query.fromAmount} has more`,
    );
  for (const [field, a] of [
    ['fromAsset', from],
    ['toAsset', to],
  ] as const)
    if (a && cmp(a.usdPrice, '0') <= 0)
      problems.add(
        field,
        ERROR_CODES.unsupportedRoute,
        `no provider prices ${field === 'fromAsset' ? query.fromAsset : query.toAsset}`,
      );
  problems.throwIfAny();
  if (!from || !to || !fromChain || !toChain) throw new Error('resolveTrade: unresolved');
  return { vault, fromChain, toChain, from, to, slippage, expiryMinutes };
}

/** The one chain of the vault's wallets the asset exists on, when the request names none. */
async function onlyChainOf(
  db: Database,
  held: ReadonlySet<string>,
  symbol: string,
): Promise<string | undefined> {
  const rows = await db
    .select({ chain: assets.blockChain })
    .from(assets)
    .where(eq(assets.symbol, symbol));
  const chains = rows.map((r) => r.chain).filter((c) => held.has(c));
  return chains.length === 1 ? chains[0] : undefined;
}

export async function quoteTrade(
  db: Database,
  orgId: string,
  query: TradeQuoteQuery,
  now: Date,
): Promise<GetTradeQuoteResponse> {
  const route = await resolveTrade(db, orgId, query);
  const fromPlaces = placesOf(route.from.decimals);
  const toPlaces = placesOf(route.to.decimals);
  const reference = round(
    mul(
      div(route.from.usdPrice, route.to.usdPrice, 18),
      add('1', driftFor(query.fromAsset, query.toAsset, now)),
    ),
    12,
    'down',
  );
  const fromAmount = add(query.fromAmount, '0');
  const priced = priceTrade({
    fromAmount,
    fromPrice: route.from.usdPrice,
    reference,
    fromPlaces,
    toPlaces,
    slippagePercent: route.slippage,
  });
  // The vault must be able to pay the cheapest: the amount and its fee, less what is held.
  const problems = new Problems();
  const cheapest = priced.map((p) => p.fee).sort(cmp)[0];
  const free = await freeBalance(db, route.vault.id, query.fromAsset, route.fromChain);
  if (!cheapest)
    problems.add(
      'fromAmount',
      ERROR_CODES.amountBelowMinimum,
      `${fromAmount} ${query.fromAsset} buys no ${query.toAsset}`,
    );
  else if (cmp(free, add(fromAmount, cheapest)) < 0)
    problems.add(
      'fromAmount',
      ERROR_CODES.insufficientBalance,
      `vault "${route.vault.vaultName}" can spend ${free} ${query.fromAsset} on ${route.fromChain}; this trade needs ${add(fromAmount, cheapest)} with the cheapest fee`,
    );
  problems.throwIfAny();

  const lifetimeMs = route.expiryMinutes ? route.expiryMinutes * 60_000 : QUOTE_LIFETIME_MS;
  const expiresAt = new Date(now.getTime() + lifetimeMs);
  const usd = (amount: string, price: string) => round(mul(amount, price), 2);
  const request: TradeRequestData = {
    fromAsset: query.fromAsset,
    fromAmount,
    toAsset: query.toAsset,
    slippage: route.slippage,
    blockChain: route.fromChain,
    toBlockchain: route.toChain,
    fromAmountUSD: usd(fromAmount, route.from.usdPrice),
    ...(route.expiryMinutes ? { expiryInMinutes: route.expiryMinutes } : {}),
  };
  const rows: Array<typeof tradeQuotes.$inferInsert> = [];
  const list: TradeResponseData[] = priced.map((p) => {
    const quoteId = randomUUID();
    const response: TradeResponseData = {
      quoteId,
      finalToAmount: p.finalToAmount,
      // The Python SDK's TradeQuoteDictData: the provider's own answer, the sandbox's here.
      quoteResponseDict: {
        quoteId,
        fromAmount,
        toAmount: p.finalToAmount,
        fromAsset: query.fromAsset,
        toAsset: query.toAsset,
        fees: { amount: p.fee, asset: query.fromAsset },
      },
      handler: p.provider,
      handlerCategory: 'OTC',
      sourceName: p.provider,
      unitToAssetAmount: p.rate,
      quotesValidTill: expiresAt.toISOString(),
      feeInUSD: usd(p.fee, route.from.usdPrice),
      finalToAmountUSD: usd(p.finalToAmount, route.to.usdPrice),
      stepsData: [],
      estCompletionTimeInSec: p.completionSeconds,
      autoSlippage: route.slippage,
      minimumToAmount: p.minimumToAmount,
      fees: { amount: p.fee, asset: query.fromAsset },
      fromAmount,
    };
    const trade: TradeRecord = {
      request,
      response,
      provider: p.provider,
      fromAsset: query.fromAsset,
      fromChain: route.fromChain,
      fromAmount,
      fee: p.fee,
      toAsset: query.toAsset,
      toChain: route.toChain,
      finalToAmount: p.finalToAmount,
      minimumToAmount: p.minimumToAmount,
      rate: p.rate,
      completionSeconds: p.completionSeconds,
    };
    rows.push({
      id: quoteId,
      orgId,
      subOrgId: route.vault.subOrgId,
      vaultId: route.vault.id,
      trade,
      expiresAt,
      createdAt: now,
    });
    return response;
  });
  await db.insert(tradeQuotes).values(rows);
  return { tradeRequestData: request, tradeResponseDataList: list };
}
