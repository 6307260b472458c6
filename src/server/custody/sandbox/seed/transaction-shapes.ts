import { mul, round } from '#contract/decimal.ts';
import { chainInfo } from '#contract/chains.ts';
import {
  TRANSACTION_CATEGORIES,
  type ResourceType,
  type TransactionCategory,
  type TransactionSubCategory,
  type TransactionType,
} from '#contract/enums.ts';
import type { Party } from '#contract/transaction.ts';
import type { BankAccountSeedRow } from './bank-account-data.ts';
import { contactParty, vaultParty } from '../mappers.ts';
import { bankAccountParty, externalParty, type Leg } from './movements.ts';
import {
  ROUTERS,
  STAKING_TARGETS,
  SWAP_RATES,
  amountOf,
  chainFor,
  contractDataFor,
  stableOn,
} from './chain-details.ts';
import { fakeAddress, type SeedRandom } from './random.ts';
import {
  assetsOn,
  nativeAsset,
  type AssetSpec,
  type ReferenceData,
  type VaultRow,
} from './reference-data.ts';

/**
 * What each category of transaction looks like: its chain and asset, who
 * sends and receives, and the legs value moves along once it completes.
 */

export interface TransactionShape {
  category: TransactionCategory;
  subCategory: TransactionSubCategory | null;
  transactionType: TransactionType;
  chain: string;
  asset: AssetSpec | null;
  amount: string | null;
  vault: VaultRow;
  source: Party;
  destination: Party | null;
  legs: Leg[];
  /** Who pays the network fee: the source vault, a gas vault, or an outside sender. */
  feePayer: Party;
  feePayerVaultId: string | null;
  resourceType: ResourceType | null;
  contractData: Record<string, unknown> | null;
  /** A ramp's approved bank account (paid by an off-ramp, funding an on-ramp): its page lists it. */
  bankAccountId: string | null;
}

export interface ShapeContext {
  rng: SeedRandom;
  ref: ReferenceData;
  approvedBankAccounts: readonly BankAccountSeedRow[];
}

/**
 * The categories the seed draws: every one but RAMP (the sandbox's FX, fiat to
 * fiat), which moves no vault and is made only from a live quote.
 */
export type SeededCategory = Exclude<TransactionCategory, 'RAMP'>;
export const SEEDED_CATEGORIES = TRANSACTION_CATEGORIES.filter(
  (c): c is SeededCategory => c !== 'RAMP',
);

/** Builds one transaction's shape; `incoming` asks for value arriving from outside. */
export function shapeFor(
  ctx: ShapeContext,
  category: SeededCategory,
  incoming: boolean,
): TransactionShape {
  const { rng, ref } = ctx;
  const chain = chainFor(rng, category);
  const native = nativeAsset(chain);
  const working = ref.vaults.filter((v) => v.vaultType !== 'GAS');
  const vault = rng.pick(working);
  const gasVault = ref.vaults.find((v) => v.vaultType === 'GAS');
  const vp = (v: VaultRow) =>
    vaultParty(
      v,
      ref.wallets.find((w) => w.vaultId === v.id && w.blockchain === chain),
      chain,
    );
  const outsider = (name?: string) =>
    externalParty(fakeAddress(rng, chainInfo(chain)?.kind ?? 'EVM'), chain, name);
  const leg = (
    source: Party,
    destination: Party,
    asset: AssetSpec,
    amount: string,
    onChain = true,
  ): Leg => ({
    type: 'TRANSFER',
    source,
    destination,
    asset: asset.symbol,
    amount,
    chain,
    onChain,
  });

  const shape: TransactionShape = {
    category,
    subCategory: null,
    transactionType: 'OUTGOING',
    chain,
    asset: native,
    amount: null,
    vault,
    source: vp(vault),
    destination: null,
    legs: [],
    feePayer: vp(vault),
    feePayerVaultId: null,
    resourceType: null,
    contractData: null,
    bankAccountId: null,
  };
  const set = (patch: Partial<TransactionShape>) => Object.assign(shape, patch);
  // Chains with sponsored fees: sometimes the gas vault pays.
  if (gasVault && chainInfo(chain)?.supportsFeePayer && rng.chance(0.3)) {
    shape.feePayer = vp(gasVault);
    shape.feePayerVaultId = gasVault.id;
  }

  switch (category) {
    case 'TRANSFER':
    case 'TOKEN_TRANSFER': {
      const asset =
        category === 'TOKEN_TRANSFER' ? stableOn(rng, chain) : rng.pick(assetsOn(chain));
      const amount = amountOf(rng, asset);
      set({ asset, amount });
      if (incoming) {
        const sender = outsider();
        set({
          transactionType: 'INCOMING',
          subCategory: 'INCOMING_TRANSFER',
          source: sender,
          destination: vp(vault),
          feePayer: sender,
          feePayerVaultId: null,
        });
      } else if (rng.chance(0.25)) {
        const other = rng.pick(ref.vaults.filter((v) => v.id !== vault.id));
        set({ subCategory: 'INTERNAL_TRANSFER', destination: vp(other) });
      } else {
        const contacts = ref.contacts.filter(
          (c) => c.blockChain === chain && c.status === 'APPROVED',
        );
        const to =
          contacts.length > 0 && rng.chance(0.8) ? contactParty(rng.pick(contacts)) : outsider();
        set({ subCategory: 'EXTERNAL_TRANSFER', destination: to });
      }
      if (shape.destination) shape.legs = [leg(shape.source, shape.destination, asset, amount)];
      return shape;
    }
    case 'SWAP': {
      const stable = stableOn(rng, chain);
      const sellNative = rng.chance(0.5);
      const from = sellNative ? native : stable;
      const to = sellNative ? stable : native;
      const amount = amountOf(rng, from);
      const rate = SWAP_RATES[chain] ?? { toStable: '1', fromStable: '1' };
      const received = round(
        mul(amount, sellNative ? rate.toStable : rate.fromStable),
        Math.min(to.decimals, 8),
        'down',
      );
      const router = outsider(ROUTERS[chain]);
      set({ subCategory: 'MARKET_TRADE', asset: from, amount, destination: router });
      shape.legs = [
        { ...leg(shape.source, router, from, amount), type: 'TRADE' },
        { ...leg(router, shape.source, to, received), type: 'TRADE' },
      ];
      return shape;
    }
    case 'TOKEN_APPROVAL':
    case 'REVOKE_TOKEN_ALLOWANCE': {
      const asset = stableOn(rng, chain);
      const amount =
        category === 'TOKEN_APPROVAL'
          ? String(rng.pick([1_000, 50_000, 1_000_000, 10_000_000]))
          : '0';
      set({
        subCategory: 'CONTRACT_CALL',
        asset,
        amount,
        destination: outsider(rng.pick(['Permit2', '1inch router', 'Aave pool'])),
      });
      return shape;
    }
    case 'CONTRACT_CALL':
      // The description: no asset and no destination on a contract call.
      set({ subCategory: 'CONTRACT_CALL', asset: null, contractData: contractDataFor(rng, chain) });
      return shape;
    case 'STAKE': {
      const sub = rng.weighted<TransactionSubCategory>([
        ['STAKE', 6],
        ['UNSTAKE', 2.5],
        ['CLAIM', 1.5],
      ]);
      const amount =
        sub === 'CLAIM' ? rng.amount(0, 3, Math.min(native.decimals, 6)) : amountOf(rng, native);
      const pool = outsider(STAKING_TARGETS[chain]);
      set({ subCategory: sub, amount });
      if (chain === 'TRON')
        shape.resourceType = rng.pick(['TRON_ENERGY', 'TRON_BANDWIDTH'] as const);
      shape.legs = [
        sub === 'STAKE'
          ? leg(shape.source, pool, native, amount)
          : leg(pool, shape.source, native, amount),
      ];
      return shape;
    }
    case 'ON_RAMP':
    case 'OFF_RAMP': {
      const asset = stableOn(rng, chain);
      const amount = amountOf(rng, asset);
      const account = rng.pick(ctx.approvedBankAccounts);
      const bank = bankAccountParty(account);
      const provider = outsider('Ramp provider settlement');
      set({ subCategory: category, asset, amount, bankAccountId: account.id });
      if (category === 'ON_RAMP') {
        set({
          transactionType: 'INCOMING',
          source: bank,
          destination: vp(vault),
          feePayer: provider,
          feePayerVaultId: null,
        });
        shape.legs = [
          { ...leg(bank, provider, asset, amount, false), type: 'DEPOSIT' },
          leg(provider, vp(vault), asset, amount),
        ];
      } else {
        shape.destination = bank;
        shape.legs = [
          leg(shape.source, provider, asset, amount),
          { ...leg(provider, bank, asset, amount, false), type: 'WITHDRAW' },
        ];
      }
      return shape;
    }
    case 'DELEGATE_RESOURCE': {
      const lessees = ref.contacts.filter(
        (c) => c.blockChain === 'TRON' && c.status === 'APPROVED',
      );
      const to =
        lessees.length > 0 && rng.chance(0.7)
          ? contactParty(rng.pick(lessees))
          : vp(rng.pick(ref.vaults.filter((v) => v.id !== vault.id)));
      set({
        subCategory: 'DELEGATE_RESOURCE',
        amount: amountOf(rng, native),
        destination: to,
        resourceType: rng.pick(['TRON_ENERGY', 'TRON_BANDWIDTH'] as const),
      });
      return shape;
    }
  }
}
