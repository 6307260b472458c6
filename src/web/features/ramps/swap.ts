import { chainLabel } from '#contract/chains.ts';
import { cmp } from '#contract/decimal.ts';
import { isDecimalString } from '#contract/decimal-format.ts';
import type { Asset } from '#contract/reference.ts';
import {
  DEFAULT_SLIPPAGE_PERCENT,
  MAX_SLIPPAGE_PERCENT,
  type GetTradeQuoteResponse,
  type SwapCreateRequest,
  type TradeQuoteQuery,
} from '#contract/trades.ts';

/**
 * A swap on the Convert page in plain terms: what may be sold (what the
 * vault holds), what it may become (another asset on the same chain), the
 * checks a person sees beside each field, and the request and create body
 * built from them. Amounts are decimal strings, compared through the decimal
 * module only.
 */

export interface SwapValues {
  vaultId: string;
  /** "USDC|ETHEREUM": the asset sold and its chain, chosen together from the vault's balances. */
  from: string;
  toAsset: string;
  amount: string;
  /** Percent the arriving amount may slip below the quote's promise. */
  slippage: string;
  memo: string;
  externalId: string;
}

export type SwapField = 'vaultId' | 'from' | 'toAsset' | 'amount' | 'slippage';

export const swapDefaults = (): SwapValues => ({
  vaultId: '',
  from: '',
  toAsset: '',
  amount: '',
  slippage: DEFAULT_SLIPPAGE_PERCENT,
  memo: '',
  externalId: `console-${globalThis.crypto.randomUUID()}`,
});

export const fromKey = (asset: string, chain: string) => `${asset}|${chain}`;

export function splitFrom(from: string): { asset: string; chain: string } | null {
  const [asset, chain] = from.split('|');
  return asset && chain ? { asset, chain } : null;
}

type Balances = Record<string, Record<string, string>>;

/** What the vault can sell: each asset and chain it holds more than nothing of, with the balance. */
export function swapSourceOptions(balances: Balances | undefined) {
  if (!balances) return [];
  return Object.entries(balances)
    .flatMap(([asset, chains]) =>
      Object.entries(chains)
        .filter(([, amount]) => isDecimalString(amount) && cmp(amount, '0') > 0)
        .map(([chain, amount]) => ({
          value: fromKey(asset, chain),
          label: `${asset} on ${chainLabel(chain) || chain} (holds ${amount})`,
        })),
    )
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** What it may become: every other asset listed on the same chain. */
export function swapTargetOptions(assets: readonly Asset[], from: string) {
  const side = splitFrom(from);
  if (!side) return [];
  const seen = new Set<string>();
  return assets
    .filter((a) => a.blockChain === side.chain && a.symbol && a.symbol !== side.asset)
    .flatMap((a) => {
      const symbol = a.symbol ?? '';
      if (seen.has(symbol)) return [];
      seen.add(symbol);
      return [{ value: symbol, label: a.name ? `${symbol} (${a.name})` : symbol }];
    });
}

/** Each field's problem, in the words shown beside it; empty when the swap can be quoted. */
export function swapProblems(
  values: SwapValues,
  balance: string | undefined,
): Partial<Record<SwapField, string>> {
  const problems: Partial<Record<SwapField, string>> = {};
  if (!values.vaultId) problems.vaultId = 'Choose the vault that sells';
  if (!splitFrom(values.from)) problems.from = 'Choose what the vault sells';
  if (!values.toAsset) problems.toAsset = 'Choose what it becomes';
  const amount = values.amount.trim();
  if (!amount) problems.amount = 'Enter how much to sell';
  else if (!isDecimalString(amount) || cmp(amount, '0') <= 0)
    problems.amount = 'Enter a positive amount in digits, like 125.50';
  else if (balance !== undefined && cmp(amount, balance) > 0)
    problems.amount = `The vault holds ${balance}: sell at most that (the provider's fee comes on top)`;
  const slippage = values.slippage.trim();
  if (
    !isDecimalString(slippage) ||
    cmp(slippage, '0') < 0 ||
    cmp(slippage, MAX_SLIPPAGE_PERCENT) > 0
  )
    problems.slippage = `Enter a percentage from 0 to ${MAX_SLIPPAGE_PERCENT}, like 0.5`;
  return problems;
}

/** The quote request the SDKs send (GET …/trade_quote/), one chain on both sides. */
export function tradeQuery(values: SwapValues): TradeQuoteQuery | null {
  const side = splitFrom(values.from);
  if (!side) return null;
  return {
    vaultId: values.vaultId,
    fromAsset: side.asset,
    toAsset: values.toAsset,
    fromAmount: values.amount.trim(),
    blockChain: side.chain,
    toBlockchain: side.chain,
    slippage: values.slippage.trim(),
  };
}

export type TradeQuote = GetTradeQuoteResponse['tradeResponseDataList'][number];

/** Best first: the most arriving, then the highest minimum after slippage. */
export function bestTradesFirst(quotes: readonly TradeQuote[]): TradeQuote[] {
  return [...quotes].sort(
    (a, b) =>
      cmp(b.finalToAmount, a.finalToAmount) ||
      cmp(b.minimumToAmount ?? '0', a.minimumToAmount ?? '0'),
  );
}

/** The create body that executes one quote: the request and the answer handed back as answered. */
export function swapBody(
  values: SwapValues,
  answer: GetTradeQuoteResponse,
  quote: TradeQuote,
): SwapCreateRequest {
  const memo = values.memo.trim();
  return {
    category: 'SWAP',
    vaultId: values.vaultId,
    tradeRequestData: answer.tradeRequestData,
    tradeResponseData: quote,
    externalId: values.externalId,
    ...(memo ? { memo } : {}),
  } as SwapCreateRequest;
}
