/**
 * The chains the sandbox speaks, as `blockChain` values on the wire, and the
 * facts about each that both the forms and the engine need.
 * An upstream custody API may list more through `supported_chains`; the
 * console treats an unknown chain as supporting none of the optional features.
 */

export type ChainKind = 'EVM' | 'UTXO' | 'SOLANA' | 'TRON' | 'ICP';

/** Which `data` variant of a contract call fits a chain kind (7b). */
export type ContractCallVariant = 'evm' | 'icp' | 'rawSigning' | 'methodParams' | null;

export interface ChainInfo {
  value: string;
  label: string;
  kind: ChainKind;
  nativeAsset: string;
  /** Replace-by-fee: EVM chains and Bitcoin. */
  supportsReplacement: boolean;
  /** A vault other than the source may pay the network fee. */
  supportsFeePayer: boolean;
  /** EIP-1559 base + priority fee. */
  eip1559: boolean;
  contractCall: ContractCallVariant;
  /** Staking in the native asset (7c). */
  stake: boolean;
  /** TRON's bandwidth and energy: `resourceType` on a stake, and resource delegation (7d). */
  tronResources: boolean;
}

/** What every EVM chain can do alike; they differ in name, native asset and staking. */
const EVM = {
  kind: 'EVM',
  supportsReplacement: true,
  supportsFeePayer: false,
  eip1559: true,
  contractCall: 'evm',
  tronResources: false,
} as const;

export const CHAINS: readonly ChainInfo[] = [
  { value: 'ETHEREUM', label: 'Ethereum', nativeAsset: 'ETH', stake: true, ...EVM },
  { value: 'POLYGON', label: 'Polygon', nativeAsset: 'POL', stake: true, ...EVM },
  { value: 'BASE', label: 'Base', nativeAsset: 'ETH', stake: false, ...EVM },
  {
    value: 'BITCOIN',
    label: 'Bitcoin',
    kind: 'UTXO',
    nativeAsset: 'BTC',
    supportsReplacement: true,
    supportsFeePayer: false,
    eip1559: false,
    contractCall: null,
    stake: false,
    tronResources: false,
  },
  {
    value: 'SOLANA',
    label: 'Solana',
    kind: 'SOLANA',
    nativeAsset: 'SOL',
    supportsReplacement: false,
    supportsFeePayer: true,
    eip1559: false,
    contractCall: 'rawSigning',
    stake: true,
    tronResources: false,
  },
  {
    value: 'TRON',
    label: 'Tron',
    kind: 'TRON',
    nativeAsset: 'TRX',
    supportsReplacement: false,
    supportsFeePayer: true,
    eip1559: false,
    contractCall: 'methodParams',
    stake: true,
    tronResources: true,
  },
  {
    value: 'ICP',
    label: 'Internet Computer',
    kind: 'ICP',
    nativeAsset: 'ICP',
    supportsReplacement: false,
    supportsFeePayer: false,
    eip1559: false,
    contractCall: 'icp',
    stake: true,
    tronResources: false,
  },
];

const byValue = new Map(CHAINS.map((c) => [c.value, c]));

export function chainInfo(value: string | undefined): ChainInfo | undefined {
  return value ? byValue.get(value) : undefined;
}

export function chainLabel(value: string | undefined): string {
  return chainInfo(value)?.label ?? value ?? '';
}
