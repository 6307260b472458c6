import { ApiError } from '#contract/api-error.ts';
import { pathOf } from '#contract/endpoint.ts';
import { getDetailedBalances } from '#contract/endpoints/vaults.ts';
import { paths } from '#contract/paths.ts';
import { AssetListResponse, type Asset } from '#contract/reference.ts';
import { chainInfo } from '#contract/chains.ts';
import type { Page, PageRequest } from '#contract/common.ts';
import { add, cmp, div, isDecimalString, mul, round } from '#contract/decimal.ts';
import type { Transaction, TransactionFilters } from '#contract/transaction.ts';
import { DetailedBalanceList, type DetailedBalance } from '#contract/vault.ts';
import type { CustodyContext } from '../../../custody/call-context.ts';
import type { UpstreamDeps } from '../../../custody/upstream/upstream-deps.ts';
import { valueContractCall } from '../call-value.ts';
import type { PoliciesPort } from '../port.ts';

/**
 * The figures a policy rule needs, in upstream mode (docs/policies.md).
 * Prices are the custody API's own: the `price` of each line of a
 * vault's detailed_balances (or its `balanceInUSD` over its `balance`), kept
 * PRICE_TTL_MS per asset and chain, so most creates cost no extra call. An
 * asset the answer gives no price is left unpriced: the rule that needs its
 * value then matches (fail closed). The 24-hour outflow is summed from the
 * custody API's transactions list (the vault's, newest first); when it
 * cannot be told in OUTFLOW_MAX_PAGES pages, or a transaction in the window
 * has no value, it is unknown and the cap matches (fail closed). A token's
 * contract is known from the `tokenAddress` of the calling vault's balance
 * lines, its decimals from the custody API's asset list (kept as long): a
 * contract call is valued by the token amount it moves (call-value.ts), and
 * one the answers do not let us value is unpriced.
 */

/** How long a price read from the custody API is used for, per asset and chain. */
export const PRICE_TTL_MS = 60_000;
/** Transactions read for one vault's 24 hours: 10 pages of 100. */
export const OUTFLOW_MAX_PAGES = 10;
const OUTFLOW_PAGE = 100;
/** Prices kept at most: enough for every asset on every chain an organization holds. */
const MAX_PRICES = 5_000;

export type PoliciesUpstreamDeps = Pick<UpstreamDeps, 'clock' | 'call'> & {
  listTransactions(
    ctx: CustodyContext,
    query: PageRequest & TransactionFilters,
  ): Promise<Page<Transaction>>;
};

/** The USD price of one unit on a balance line, or null when the custody API gives none. */
export function priceOfLine(line: DetailedBalance): string | null {
  const price = line.price?.trim();
  if (price && isDecimalString(price) && cmp(price, '0') > 0) return price;
  const usd = line.balanceInUSD?.trim();
  const balance = line.balance.trim();
  if (
    usd &&
    isDecimalString(usd) &&
    isDecimalString(balance) &&
    cmp(balance, '0') > 0 &&
    cmp(usd, '0') > 0
  )
    return div(usd, balance, 18)
      .replace(/(\.\d*?)0+$/, '$1')
      .replace(/\.$/, '');
  return null;
}

export function policiesUpstream(deps: PoliciesUpstreamDeps): PoliciesPort {
  const { clock, call } = deps;
  const prices = new Map<string, { price: string | null; at: number }>();
  /** By chain and contract address (lower case): the symbol of the balance line naming it. */
  const tokens = new Map<string, { symbol: string; at: number }>();
  let assetDecimals: { bySymbol: Map<string, number>; at: number } | undefined;
  const keyOf = (asset: string, chain: string) => `${asset}\u0000${chain}`;
  const fresh = (at: number) => clock.now().getTime() - at < PRICE_TTL_MS;

  function cached(asset: string, chain: string): { price: string | null } | undefined {
    const entry = prices.get(keyOf(asset, chain));
    if (!entry) return undefined;
    if (clock.now().getTime() - entry.at >= PRICE_TTL_MS) {
      prices.delete(keyOf(asset, chain));
      return undefined;
    }
    return entry;
  }

  /** Reads the vault's balances once and keeps the price of every line it answers. */
  async function readPrices(ctx: CustodyContext, vaultId: string): Promise<void> {
    const lines = await call(ctx, DetailedBalanceList, {
      method: 'GET',
      path: pathOf(getDetailedBalances, { vaultId }),
      retry: true,
    });
    const at = clock.now().getTime();
    for (const line of lines) {
      if (!line.chain) continue;
      if (prices.size >= MAX_PRICES) prices.delete(prices.keys().next().value as string);
      prices.set(keyOf(line.symbol, line.chain), { price: priceOfLine(line), at });
      const contract = line.tokenAddress?.trim().toLowerCase();
      if (!contract) continue;
      if (tokens.size >= MAX_PRICES) tokens.delete(tokens.keys().next().value as string);
      tokens.set(keyOf(contract, line.chain), { symbol: line.symbol, at });
    }
  }

  /** An asset's decimals as the custody API's asset list gives them (`decimals`, or in `details`). */
  function decimalsOfAsset(asset: Asset): number | null {
    const details = asset.details as { decimals?: unknown } | null | undefined;
    const given = asset.decimals ?? details?.decimals;
    return typeof given === 'number' && Number.isInteger(given) && given >= 0 && given <= 77
      ? given
      : null;
  }

  async function decimalsOf(ctx: CustodyContext, symbol: string, chain: string) {
    if (!assetDecimals || !fresh(assetDecimals.at)) {
      const list = await call(ctx, AssetListResponse, {
        method: 'GET',
        path: paths.assets(),
        retry: true,
      });
      const bySymbol = new Map<string, number>();
      for (const asset of list) {
        const decimals = decimalsOfAsset(asset);
        if (asset.symbol && asset.blockChain && decimals !== null)
          bySymbol.set(keyOf(asset.symbol, asset.blockChain), decimals);
      }
      assetDecimals = { bySymbol, at: clock.now().getTime() };
    }
    return assetDecimals.bySymbol.get(keyOf(symbol, chain)) ?? null;
  }

  async function tokenAt(
    ctx: CustodyContext,
    chain: string,
    contract: string,
    vaultId: string | undefined,
  ): Promise<{ asset: string; decimals: number } | null> {
    const key = keyOf(contract.trim().toLowerCase(), chain);
    let known = tokens.get(key);
    if ((!known || !fresh(known.at)) && vaultId) {
      try {
        await readPrices(ctx, vaultId);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
      known = tokens.get(key);
    }
    if (!known || !fresh(known.at)) return null;
    const decimals = await decimalsOf(ctx, known.symbol, chain);
    return decimals === null ? null : { asset: known.symbol, decimals };
  }

  async function priceOf(
    ctx: CustodyContext,
    asset: string,
    chain: string,
    vaultId: string | undefined,
  ): Promise<string | null> {
    const known = cached(asset, chain);
    if (known) return known.price;
    // Priced from the vault that pays: it holds what it sends, so its balances name the asset.
    if (!vaultId) return null;
    try {
      await readPrices(ctx, vaultId);
    } catch (error) {
      // An unknown vault is the create's to refuse, with its own message and field.
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
    return cached(asset, chain)?.price ?? null;
  }

  async function usdValue(
    ctx: CustodyContext,
    asset: string,
    blockChain: string,
    amount: string,
    vaultId?: string,
  ): Promise<string | null> {
    const price = await priceOf(ctx, asset, blockChain, vaultId);
    return price === null ? null : round(mul(amount, price), 6);
  }

  /** What a listed transaction took from the vault in USD, or null when it cannot be told. */
  async function valueOf(ctx: CustodyContext, t: Transaction, vaultId: string) {
    const chain = t.blockChain ?? '';
    if (t.category === 'CONTRACT_CALL') {
      // Without its data on the record, what the call moved cannot be read.
      if (t.data === undefined) return null;
      const native = chainInfo(chain)?.nativeAsset;
      const sendsNative = t.amount !== undefined && t.amount !== null && /[1-9]/.test(t.amount);
      const nativeUsd = !sendsNative
        ? '0'
        : (t.amountInUSD ??
          (native ? await usdValue(ctx, native, chain, t.amount ?? '0', vaultId) : null));
      return valueContractCall(nativeUsd, t.data, {
        token: (contract) => tokenAt(ctx, chain, contract, vaultId),
        usd: (asset, amount) => usdValue(ctx, asset, chain, amount, vaultId),
      });
    }
    if (t.amountInUSD) return t.amountInUSD;
    if (t.asset && t.amount) return usdValue(ctx, t.asset, chain, t.amount, vaultId);
    return null;
  }

  return {
    usdValue,
    tokenAt: (ctx, chain, contract, vaultId) => tokenAt(ctx, chain, contract, vaultId),
    async vaultOutflowUsd(ctx, vaultId, since) {
      let total = '0';
      let cursor: string | undefined;
      for (let page = 0; page < OUTFLOW_MAX_PAGES; page += 1) {
        const answer = await deps.listTransactions(ctx, {
          limit: OUTFLOW_PAGE,
          cursor,
          vaultId,
          createdAtGte: since.toISOString(),
        });
        let older = false;
        for (const t of answer.results) {
          const created = t.createdAt ? Date.parse(t.createdAt) : Number.NaN;
          if (created < since.getTime()) {
            older = true;
            continue;
          }
          // The filters are the custody API's "when supported": held here as well.
          if (t.vaultId !== vaultId || t.transactionType === 'INCOMING') continue;
          if (t.status === 'DECLINED' || t.status === 'FAILED') continue;
          const value = await valueOf(ctx, t, vaultId);
          if (value === null) return null;
          total = add(total, value);
        }
        cursor = answer.nextCursor ?? undefined;
        // Newest first: a page reaching before the window ends the read.
        if (older || !answer.hasNext || !cursor) return total;
      }
      return null;
    },
  };
}
