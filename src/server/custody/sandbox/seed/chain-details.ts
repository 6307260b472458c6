import { CHAINS, chainInfo } from '#contract/chains.ts';
import type { TransactionCategory } from '#contract/enums.ts';
import { fakeAddress, type SeedRandom } from './random.ts';
import { assetsOn, type AssetSpec } from './reference-data.ts';

/** Which chains each category of seeded transaction happens on, and the chain-specific details it carries. */

const EVM = CHAINS.filter((c) => c.kind === 'EVM').map((c) => c.value);
const WITH_TOKENS = ['ETHEREUM', 'POLYGON', 'BASE', 'SOLANA', 'TRON'];
const WITH_CONTRACTS = CHAINS.filter((c) => c.contractCall !== null).map((c) => c.value);
const STAKING = ['ETHEREUM', 'POLYGON', 'SOLANA', 'TRON', 'ICP'];

const tokensOn = (chain: string) => assetsOn(chain).filter((a) => !a.isNative);
export const stableOn = (rng: SeedRandom, chain: string) => rng.pick(tokensOn(chain));

export function amountOf(rng: SeedRandom, asset: AssetSpec): string {
  return rng.amount(asset.typical[0], asset.typical[1], Math.min(asset.decimals, 6));
}

export function chainFor(rng: SeedRandom, category: TransactionCategory): string {
  switch (category) {
    case 'TOKEN_TRANSFER':
    case 'ON_RAMP':
    case 'OFF_RAMP':
      return rng.pick(WITH_TOKENS);
    case 'SWAP':
      return rng.pick([...EVM, 'SOLANA']);
    case 'TOKEN_APPROVAL':
    case 'REVOKE_TOKEN_ALLOWANCE':
      return rng.pick(EVM);
    case 'CONTRACT_CALL':
      return rng.pick(WITH_CONTRACTS);
    case 'STAKE':
      return rng.pick(STAKING);
    case 'DELEGATE_RESOURCE':
      return 'TRON';
    default:
      return rng.pick(CHAINS).value;
  }
}

// How many units of the stablecoin one native unit buys, and back (no division in seed maths).
export const SWAP_RATES: Record<string, { toStable: string; fromStable: string }> = {
  ETHEREUM: { toStable: '3000', fromStable: '0.000333333' },
  BASE: { toStable: '3000', fromStable: '0.000333333' },
  POLYGON: { toStable: '0.4', fromStable: '2.5' },
  SOLANA: { toStable: '150', fromStable: '0.006666666' },
};

export const ROUTERS: Record<string, string> = {
  ETHEREUM: 'Uniswap v3 router',
  BASE: 'Aerodrome router',
  POLYGON: 'QuickSwap router',
  SOLANA: 'Jupiter aggregator',
};

export const STAKING_TARGETS: Record<string, string> = {
  ETHEREUM: 'Lido staking contract',
  POLYGON: 'Polygon validator share',
  SOLANA: 'Stake pool (Marinade)',
  TRON: 'TRON Stake 2.0',
  ICP: 'NNS neuron',
};

/**
 * A well-formed ERC-20 `transfer(address,uint256)` call built from 64 random
 * hex digits: the recipient from the first 40, the amount (in the token's
 * smallest units) from the next 8, so approvers see a call that decodes.
 */
function erc20Transfer(random: string): string {
  const recipient = random.slice(0, 40).padStart(64, '0');
  const amount = (BigInt(`0x${random.slice(40, 48)}`) * 10n ** 12n).toString(16).padStart(64, '0');
  return `0xa9059cbb${recipient}${amount}`;
}

export function contractDataFor(rng: SeedRandom, chain: string): Record<string, unknown> {
  switch (chainInfo(chain)?.contractCall) {
    case 'evm':
      return { callData: erc20Transfer(rng.hex(64)), toAddress: fakeAddress(rng, 'EVM') };
    case 'icp':
      return {
        canisterId: 'ryjl3-tyaaa-aaaaa-aaaba-cai',
        method: 'icrc1_transfer',
        arg: `4449444c${rng.hex(24)}`,
      };
    case 'rawSigning':
      return { messageHex: rng.hex(48) };
    case 'methodParams':
      return {
        method: 'freezeBalanceV2',
        params: { frozen_balance: rng.int(1000, 90000) * 1_000_000, resource: 'ENERGY' },
      };
    default:
      return {};
  }
}
