import { add, cmp, div, mul, round, sum } from '#contract/decimal.ts';
import type { Holding, VaultHolding, VaultHoldingsResponse } from '#contract/overview.ts';
import type { Vault } from '#contract/reference.ts';
import type { CustodyBackend, CustodyContext } from '../../custody/backend.ts';
import { isNotFound } from '../../console/scope-rules.ts';

/**
 * The vaults in the caller's scope with what each holds, valued: the custody
 * API's own reads (the vault list, then each vault's detailed_balances),
 * through the scoped backend, so a restricted member reads only their
 * sub-organizations' vaults and a sub-organization outside them is 404.
 *
 * The value of a holding is the custody service's `balanceInUSD` (the
 * sandbox: balance × the asset's reference price, to the cent); a holding
 * it gives no value is listed and left out of every total. Totals are sums
 * through the decimal module, never floating point.
 */

/** Vault pages read, 100 each: 10,000 vaults, beyond any organization. */
const MAX_VAULT_PAGES = 100;
/** Detailed balances asked for at once. */
const BALANCE_READS_AT_ONCE = 8;

export interface ValuedVaults {
  vaults: VaultHolding[];
  totalUsd: string;
}

/** Every vault the scope (and `subOrgId`, the scope switcher's) lets the caller read. */
export async function vaultsInScope(
  backend: CustodyBackend,
  ctx: CustodyContext,
  subOrgId: string | undefined,
): Promise<Vault[]> {
  const vaults: Vault[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_VAULT_PAGES; pages += 1) {
    const page = await backend.listVaults(ctx, { limit: 100, cursor, subOrgId });
    vaults.push(...page.results);
    if (!page.hasNext || !page.nextCursor || page.nextCursor === cursor) break;
    cursor = page.nextCursor;
  }
  return vaults.filter((v) => v.id && !v.isDeleted);
}

async function valued(
  backend: CustodyBackend,
  ctx: CustodyContext,
  vault: Vault & { id: string },
): Promise<VaultHolding> {
  const chains = [
    ...new Set((vault.wallets ?? []).flatMap((w) => (w.blockchain ? [w.blockchain] : []))),
  ];
  const base = {
    id: vault.id,
    name: vault.vaultName ?? vault.id,
    vaultType: vault.vaultType ?? null,
    subOrgId: vault.subOrgId ?? null,
    chains,
  };
  let lines;
  try {
    lines = await backend.getDetailedBalances(ctx, vault.id);
  } catch (error) {
    // A vault gone between the list and its read is not one to show.
    if (isNotFound(error)) throw error;
    return { ...base, usd: '0', holdings: [], unread: true };
  }
  const holdings: Holding[] = lines.map((line) => ({
    symbol: line.symbol,
    chain: line.chain ?? null,
    balance: line.balance,
    price: line.price ?? null,
    usd: line.balanceInUSD ?? null,
  }));
  return {
    ...base,
    usd: sum(holdings.flatMap((h) => (h.usd === null ? [] : [h.usd]))),
    holdings,
  };
}

/** The vaults valued, in the list's order, and the sum of their values. */
export async function valueVaults(
  backend: CustodyBackend,
  ctx: CustodyContext,
  subOrgId: string | undefined,
): Promise<ValuedVaults> {
  const listed = (await vaultsInScope(backend, ctx, subOrgId)) as Array<Vault & { id: string }>;
  const vaults: VaultHolding[] = [];
  for (let i = 0; i < listed.length; i += BALANCE_READS_AT_ONCE) {
    const batch = await Promise.all(
      listed.slice(i, i + BALANCE_READS_AT_ONCE).map((vault) =>
        valued(backend, ctx, vault).catch((error: unknown) => {
          if (isNotFound(error)) return null;
          throw error;
        }),
      ),
    );
    for (const vault of batch) if (vault) vaults.push(vault);
  }
  return { vaults, totalUsd: sum(vaults.map((v) => v.usd)) };
}

/** `part` as a percentage of `whole`, to two places; 0 when the whole is nothing. */
export function percentOf(part: string, whole: string): string {
  if (cmp(whole, '0') <= 0) return '0.00';
  return round(div(mul(part, '100'), whole, 6), 2);
}

export function vaultHoldingsAnswer(
  valuedVaults: ValuedVaults,
  meta: Pick<VaultHoldingsResponse, 'pricedAt' | 'priceSource'>,
): VaultHoldingsResponse {
  const vaults = [...valuedVaults.vaults].sort(
    (a, b) => a.name.localeCompare(b.name, 'en') || a.id.localeCompare(b.id),
  );
  return { ...meta, totalUsd: valuedVaults.totalUsd, vaults };
}

/** Sums `value` into `map` under `key` (decimal strings). */
export function addTo(map: Map<string, string>, key: string, value: string): void {
  map.set(key, add(map.get(key) ?? '0', value));
}
