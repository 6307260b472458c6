import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import { CHAINS } from '#contract/chains.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { Asset, SubOrg, SupportedChain, Vault, VaultBalances } from '#contract/reference.ts';
import type { Database } from '../../../db/client.ts';
import { assets, subOrgs, vaultBalances, vaults, wallets } from '../../../db/schema/sandbox.ts';
import { ApiError } from '#contract/api-error.ts';
import type { Page } from '#contract/common.ts';
import type { SubOrgListQuery, VaultListQuery, VaultPage } from '../port.ts';
import { containsPattern, namePattern } from '../../../custody/sandbox/contains-pattern.ts';
import { chainLogo } from '../../../custody/sandbox/chain-logos.ts';
import {
  after,
  afterOldest,
  decodeCursor,
  keysetPage,
  newestFirst,
  oldestFirst,
} from '../../../custody/sandbox/keyset.ts';
import {
  canonicalDecimal,
  toWireSubOrg,
  toWireVault,
  type VaultRow,
  type WalletRow,
} from '../../../custody/sandbox/mappers.ts';

/** The supporting reads the forms need: vaults, balances, assets, chains, sub-orgs. */

const EMPTY_PAGE = { results: [], hasNext: false, nextCursor: null } as const;

async function withWallets(db: Database, rows: VaultRow[]): Promise<Vault[]> {
  if (rows.length === 0) return [];
  const walletRows = await db
    .select()
    .from(wallets)
    .where(
      inArray(
        wallets.vaultId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(wallets.blockchain));
  const byVault = new Map<string, WalletRow[]>();
  for (const w of walletRows) byVault.set(w.vaultId, [...(byVault.get(w.vaultId) ?? []), w]);
  return rows.map((r) => toWireVault(r, byVault.get(r.id) ?? []));
}

/**
 * A page of vaults, newest first or (`reverse`) oldest first, after a cursor
 * or (the older SDKs) the `page`th page of `limit`: pages counted by OFFSET,
 * which a list of vaults is short enough for. A numbered page also counts
 * every match, as those SDKs' answer requires.
 */
export async function listVaults(
  db: Database,
  orgId: string | null,
  query: VaultListQuery,
): Promise<VaultPage> {
  const kind = query.reverse ? 'vaults_oldest_first' : 'vaults';
  const position = query.cursor ? decodeCursor(kind, query.cursor) : undefined;
  if (!orgId) return { ...EMPTY_PAGE, results: [], ...(query.page ? { count: 0 } : {}) };
  const matching: Array<SQL | undefined> = [
    eq(vaults.orgId, orgId),
    query.vaultName ? ilike(vaults.vaultName, containsPattern(query.vaultName)) : undefined,
    // A staff member's scope; see console/scope-rules.ts.
    query.subOrgId ? eq(vaults.subOrgId, query.subOrgId) : undefined,
    query.subOrgIds ? inArray(vaults.subOrgId, query.subOrgIds) : undefined,
  ];
  const conditions = [
    ...matching,
    position ? (query.reverse ? afterOldest : after)(vaults, position) : undefined,
  ];
  const skip = query.page ? (query.page - 1) * query.limit : 0;
  const page = await keysetPage(
    kind,
    query.limit,
    (take) =>
      db
        .select()
        .from(vaults)
        .where(and(...conditions))
        .orderBy(...(query.reverse ? oldestFirst(vaults) : newestFirst(vaults)))
        .limit(take)
        .offset(skip),
    (row) => row,
  );
  // Wallets for the whole page in one query rather than one per vault.
  const results = await withWallets(db, page.results);
  if (!query.page) return { ...page, results };
  const [total] = await db
    .select({ n: count() })
    .from(vaults)
    .where(and(...matching));
  return { ...page, results, count: total?.n ?? 0 };
}

async function findVault(db: Database, orgId: string | null, vaultId: string): Promise<VaultRow> {
  const [row] = orgId
    ? await db
        .select()
        .from(vaults)
        .where(and(eq(vaults.orgId, orgId), eq(vaults.id, vaultId)))
        .limit(1)
    : [];
  if (!row) throw new ApiError(404, ERROR_CODES.notFound, `No vault with id "${vaultId}"`);
  return row;
}

export async function getVault(
  db: Database,
  orgId: string | null,
  vaultId: string,
): Promise<Vault> {
  const row = await findVault(db, orgId, vaultId);
  const [vault] = await withWallets(db, [row]);
  if (!vault) throw new ApiError(404, ERROR_CODES.notFound, `No vault with id "${vaultId}"`);
  return vault;
}

export async function getVaultBalances(
  db: Database,
  orgId: string | null,
  vaultId: string,
): Promise<VaultBalances> {
  await findVault(db, orgId, vaultId);
  const rows = await db
    .select()
    .from(vaultBalances)
    .where(eq(vaultBalances.vaultId, vaultId))
    .orderBy(asc(vaultBalances.asset), asc(vaultBalances.chain));
  const balances: VaultBalances = {};
  for (const row of rows) {
    balances[row.asset] = { ...balances[row.asset], [row.chain]: canonicalDecimal(row.amount) };
  }
  return balances;
}

/** Chain order as in src/contract/chains.ts, the native asset first, then by symbol. */
export async function listAssets(db: Database): Promise<Asset[]> {
  const rows = await db.select().from(assets);
  const chainOrder = new Map(CHAINS.map((c, i) => [c.value, i]));
  rows.sort(
    (a, b) =>
      (chainOrder.get(a.blockChain) ?? CHAINS.length) -
        (chainOrder.get(b.blockChain) ?? CHAINS.length) ||
      a.blockChain.localeCompare(b.blockChain) ||
      (b.isNative ? 1 : 0) - (a.isNative ? 1 : 0) ||
      a.symbol.localeCompare(b.symbol),
  );
  return rows.map((r) => ({
    name: r.name,
    symbol: r.symbol,
    blockChain: r.blockChain,
    decimals: r.decimals,
    details: { decimals: r.decimals, isNative: r.isNative },
  }));
}

export function listSupportedChains(): SupportedChain[] {
  return CHAINS.map((c) => ({
    value: c.value,
    label: c.label,
    logo: chainLogo(c.value, c.nativeAsset),
  }));
}

export async function createSubOrg(
  db: Database,
  orgId: string,
  name: string,
  now: Date,
): Promise<SubOrg> {
  const [row] = await db
    .insert(subOrgs)
    .values({ id: randomUUID(), orgId, name, createdAt: now })
    .returning();
  if (!row) throw new Error('createSubOrg: nothing inserted');
  return toWireSubOrg(row);
}

export async function listSubOrgs(
  db: Database,
  orgId: string | null,
  query: SubOrgListQuery,
): Promise<Page<SubOrg>> {
  const position = query.cursor ? decodeCursor('sub_orgs', query.cursor) : undefined;
  if (!orgId) return { ...EMPTY_PAGE, results: [] };
  return keysetPage(
    'sub_orgs',
    query.limit,
    (take) =>
      db
        .select()
        .from(subOrgs)
        .where(
          and(
            eq(subOrgs.orgId, orgId),
            query.name ? ilike(subOrgs.name, namePattern(query.name)) : undefined,
            position ? after(subOrgs, position) : undefined,
          ),
        )
        .orderBy(...newestFirst(subOrgs))
        .limit(take),
    toWireSubOrg,
  );
}
