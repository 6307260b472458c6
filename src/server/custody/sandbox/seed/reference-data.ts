import type { InferInsertModel } from 'drizzle-orm';
import { CHAINS, type ChainInfo } from '#contract/chains.ts';
import type { ContactStatus, VaultType } from '#contract/enums.ts';
import type { VaultMember } from '#contract/reference.ts';
import type {
  assets,
  contacts,
  organizations,
  subOrgs,
  vaultBalances,
  vaults,
  wallets,
} from '../../../db/schema/sandbox.ts';
import { fakeAddress, type SeedRandom } from './random.ts';
import { newWalletAddress } from '../wallet-keys.ts';

/**
 * The organization a first-time user finds: sub-organizations, vaults with a
 * wallet on every chain and balances, assets, and contacts in every status.
 */

// Native prices match the fee model's (fee-model-profiles.ts), so a fee's USD
// value and a transfer's agree.
export interface AssetSpec {
  symbol: string;
  name: string;
  blockChain: string;
  decimals: number;
  isNative: boolean;
  usdPrice: string;
  /** Integer range of a typical transfer, for plausible seed amounts. */
  typical: readonly [number, number];
  /**
   * A token's contract on an EVM chain (its mainnet address, lower case): a
   * contract call to it is valued by the token amount it moves
   * (capabilities/policies/call-value.ts), and balances name it.
   */
  contract?: string;
}

const STABLE_RANGE = [50, 250_000] as const;

export const ASSET_CATALOG: readonly AssetSpec[] = [
  {
    symbol: 'ETH',
    name: 'Ether',
    blockChain: 'ETHEREUM',
    decimals: 18,
    isNative: true,
    usdPrice: '3000',
    typical: [0, 40],
  },
  {
    symbol: 'USDC',
    name: 'USD Coin',
    blockChain: 'ETHEREUM',
    decimals: 6,
    isNative: false,
    usdPrice: '1',
    typical: STABLE_RANGE,
    contract: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  },
  {
    symbol: 'USDT',
    name: 'Tether USD',
    blockChain: 'ETHEREUM',
    decimals: 6,
    isNative: false,
    usdPrice: '1',
    typical: STABLE_RANGE,
    contract: '0xdac17f958d2ee523a2206206994597c13d831ec7',
  },
  {
    symbol: 'POL',
    name: 'Polygon Ecosystem Token',
    blockChain: 'POLYGON',
    decimals: 18,
    isNative: true,
    usdPrice: '0.4',
    typical: [10, 60_000],
  },
  {
    symbol: 'USDC',
    name: 'USD Coin',
    blockChain: 'POLYGON',
    decimals: 6,
    isNative: false,
    usdPrice: '1',
    typical: STABLE_RANGE,
    contract: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359',
  },
  {
    symbol: 'ETH',
    name: 'Ether',
    blockChain: 'BASE',
    decimals: 18,
    isNative: true,
    usdPrice: '3000',
    typical: [0, 25],
  },
  {
    symbol: 'USDC',
    name: 'USD Coin',
    blockChain: 'BASE',
    decimals: 6,
    isNative: false,
    usdPrice: '1',
    typical: STABLE_RANGE,
    contract: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
  },
  {
    symbol: 'BTC',
    name: 'Bitcoin',
    blockChain: 'BITCOIN',
    decimals: 8,
    isNative: true,
    usdPrice: '60000',
    typical: [0, 4],
  },
  {
    symbol: 'SOL',
    name: 'Solana',
    blockChain: 'SOLANA',
    decimals: 9,
    isNative: true,
    usdPrice: '150',
    typical: [1, 2_500],
  },
  {
    symbol: 'USDC',
    name: 'USD Coin',
    blockChain: 'SOLANA',
    decimals: 6,
    isNative: false,
    usdPrice: '1',
    typical: STABLE_RANGE,
  },
  {
    symbol: 'TRX',
    name: 'TRON',
    blockChain: 'TRON',
    decimals: 6,
    isNative: true,
    usdPrice: '0.12',
    typical: [100, 800_000],
  },
  {
    symbol: 'USDT',
    name: 'Tether USD',
    blockChain: 'TRON',
    decimals: 6,
    isNative: false,
    usdPrice: '1',
    typical: STABLE_RANGE,
  },
  {
    symbol: 'ICP',
    name: 'Internet Computer',
    blockChain: 'ICP',
    decimals: 8,
    isNative: true,
    usdPrice: '10',
    typical: [1, 6_000],
  },
];

export function assetsOn(chain: string): AssetSpec[] {
  return ASSET_CATALOG.filter((a) => a.blockChain === chain);
}

/** The catalogue's token whose contract on `chain` is `contract` (any case), if one is. */
export function tokenByContract(chain: string, contract: string): AssetSpec | undefined {
  const address = contract.trim().toLowerCase();
  return ASSET_CATALOG.find((a) => a.blockChain === chain && a.contract === address);
}

/** The catalogue's contract of `symbol` on `chain`, or null (a native asset, or not a token). */
export function contractOf(symbol: string, chain: string): string | null {
  return ASSET_CATALOG.find((a) => a.symbol === symbol && a.blockChain === chain)?.contract ?? null;
}

export function nativeAsset(chain: string): AssetSpec {
  const spec = ASSET_CATALOG.find((a) => a.blockChain === chain && a.isNative);
  if (!spec) throw new Error(`seed: no native asset for ${chain}`);
  return spec;
}

type OrgRow = InferInsertModel<typeof organizations>;
type SubOrgRow = InferInsertModel<typeof subOrgs>;
export type VaultRow = InferInsertModel<typeof vaults> & { id: string; vaultType: VaultType };
export type WalletRow = InferInsertModel<typeof wallets>;
export type BalanceRow = InferInsertModel<typeof vaultBalances>;
type AssetRow = InferInsertModel<typeof assets>;
export type ContactRow = InferInsertModel<typeof contacts> & { status: ContactStatus };

export interface ReferenceData {
  org: OrgRow & { id: string };
  subOrgs: Array<SubOrgRow & { id: string }>;
  vaults: VaultRow[];
  wallets: WalletRow[];
  balances: BalanceRow[];
  assets: AssetRow[];
  contacts: ContactRow[];
  /** Staff / API users the seeded history says created things. */
  creatorIds: string[];
}

/** The people behind `creatorIds`, as vaults name their signers and viewers. */
const PEOPLE: ReadonlyArray<Omit<VaultMember, 'id'>> = [
  { firstName: 'Amara', lastName: 'Okafor', email: 'amara.okafor@northwind.example' },
  { firstName: 'Jonas', lastName: 'Lindqvist', email: 'jonas.lindqvist@northwind.example' },
  { firstName: 'Mei', lastName: 'Tanaka', email: 'mei.tanaka@northwind.example' },
];

const DAY = 86_400_000;

const VAULT_PLAN: ReadonlyArray<{ name: string; type: VaultType; subOrg: number | null }> = [
  { name: 'Treasury Main', type: 'DEFAULT', subOrg: 0 },
  { name: 'Trading Hot Wallet', type: 'EXCHANGE', subOrg: 1 },
  { name: 'Payments Operations', type: 'DEFAULT', subOrg: 2 },
  { name: 'Cold Reserve', type: 'DEFAULT', subOrg: null },
  { name: 'Gas Station', type: 'GAS', subOrg: 0 },
];

const CONTACT_PLAN: ReadonlyArray<{ name: string; chain: string; status: ContactStatus }> = [
  { name: 'Coinbase Prime deposit', chain: 'ETHEREUM', status: 'APPROVED' },
  { name: 'Kraken settlement', chain: 'BITCOIN', status: 'APPROVED' },
  { name: 'Market maker (Wintermute)', chain: 'ETHEREUM', status: 'APPROVED' },
  { name: 'Payroll provider', chain: 'POLYGON', status: 'APPROVED' },
  { name: 'Solana validator rewards', chain: 'SOLANA', status: 'APPROVED' },
  { name: 'OTC desk Singapore', chain: 'TRON', status: 'APPROVED' },
  { name: 'Energy lessee', chain: 'TRON', status: 'APPROVED' },
  { name: 'Base vendor payouts', chain: 'BASE', status: 'APPROVED' },
  { name: 'ICP node provider', chain: 'ICP', status: 'APPROVED' },
  { name: 'New exchange account', chain: 'SOLANA', status: 'PENDING' },
  { name: 'Supplier (awaiting review)', chain: 'ETHEREUM', status: 'PENDING' },
  { name: 'Bitcoin cold storage partner', chain: 'BITCOIN', status: 'PENDING' },
  { name: 'Unverified counterparty', chain: 'TRON', status: 'DECLINED' },
  { name: 'Rejected vendor', chain: 'POLYGON', status: 'DECLINED' },
];

function chainOf(value: string): ChainInfo {
  const chain = CHAINS.find((c) => c.value === value);
  if (!chain) throw new Error(`seed: unknown chain ${value}`);
  return chain;
}

/** The catalogue as rows of the assets table: what the seed inserts, and tests that need assets. */
export function assetRows(): AssetRow[] {
  return ASSET_CATALOG.map((a) => ({
    symbol: a.symbol,
    blockChain: a.blockChain,
    name: a.name,
    decimals: a.decimals,
    isNative: a.isNative,
    usdPrice: a.usdPrice,
  }));
}

export function buildReferenceData(rng: SeedRandom, now: Date): ReferenceData {
  const longAgo = new Date(now.getTime() - 400 * DAY);
  const org = { id: rng.uuid(), name: 'Northwind Treasury', createdAt: longAgo };
  const subOrgs = ['Treasury Reserve', 'Trading Desk', 'Payments Operations'].map((name, i) => ({
    id: rng.uuid(),
    orgId: org.id,
    name,
    createdAt: new Date(longAgo.getTime() + (i + 1) * DAY),
  }));

  const vaults: VaultRow[] = VAULT_PLAN.map((plan, i) => {
    const createdAt = new Date(longAgo.getTime() + (10 + i) * DAY);
    return {
      id: rng.uuid(),
      orgId: org.id,
      subOrgId: plan.subOrg === null ? null : (subOrgs[plan.subOrg]?.id ?? null),
      vaultName: plan.name,
      vaultType: plan.type,
      createdAt,
      updatedAt: createdAt,
    };
  });

  const wallets: WalletRow[] = [];
  const balances: BalanceRow[] = [];
  for (const vault of vaults) {
    for (const chain of CHAINS) {
      const walletId = rng.uuid();
      // Drawn whatever the chain, so every later draw of the seed stays as it was.
      const shaped = fakeAddress(rng, chain.kind);
      wallets.push({
        id: walletId,
        vaultId: vault.id,
        blockchain: chain.value,
        address: newWalletAddress(walletId, chain.value, () => shaped),
        createdAt: vault.createdAt,
      });
      // A gas vault holds only what pays fees.
      const held = vault.vaultType === 'GAS' ? [nativeAsset(chain.value)] : assetsOn(chain.value);
      for (const asset of held) {
        const [lo, hi] = asset.typical;
        balances.push({
          vaultId: vault.id,
          asset: asset.symbol,
          chain: chain.value,
          // Roughly 5–40 typical transfers' worth, so seeded history looks affordable.
          amount: rng.amount(
            Math.max(lo, 1) * 5,
            Math.max(hi, 2) * 40,
            Math.min(asset.decimals, 8),
          ),
          updatedAt: now,
        });
      }
    }
  }

  const assets = assetRows();

  const contacts: ContactRow[] = CONTACT_PLAN.map((plan, i) => {
    const createdAt = new Date(longAgo.getTime() + (30 + i * 7) * DAY);
    return {
      id: rng.uuid(),
      orgId: org.id,
      subOrgId: i % 3 === 0 ? null : (subOrgs[i % subOrgs.length]?.id ?? null),
      name: plan.name,
      blockChain: plan.chain,
      address: fakeAddress(rng, chainOf(plan.chain).kind),
      status: plan.status,
      assetList: assetsOn(plan.chain).map((a) => a.symbol),
      createdById: '',
      createdAt,
      updatedAt: createdAt,
    };
  });

  // Drawn last, as before vaults had signers, so every other seeded value stays as it was.
  const creatorIds = [rng.uuid(), rng.uuid(), rng.uuid()];
  const people: VaultMember[] = PEOPLE.map((p, i) => ({ id: creatorIds[i] ?? '', ...p }));
  vaults.forEach((vault, i) => {
    // Two signers per vault; the third person may only look.
    vault.signers = people.filter((_, j) => j !== i % people.length);
    vault.viewers = people.filter((_, j) => j === i % people.length);
  });
  contacts.forEach((contact, i) => {
    contact.createdById = creatorIds[i % creatorIds.length] ?? '';
  });

  return { org, subOrgs, vaults, wallets, balances, assets, contacts, creatorIds };
}
