import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { CHAINS, chainInfo, type ChainInfo } from '#contract/chains.ts';
import { formatAmount } from '#contract/decimal.ts';
import type { Asset, Contact, Vault, VaultBalances } from '#contract/reference.ts';
import type { FeeData } from '#contract/transaction.ts';
import { referenceQueries } from '../../../../lib/reference-queries.ts';
import { shortAddress } from '../../../../lib/labels.ts';
import type { FormContext } from './form-rules.ts';
import type { Option } from '../../../../components/select-field.tsx';

/**
 * What the create forms pick from, read from the API and narrowed to the
 * sub-organization chosen in the header (`?subOrg=`): vaults with their
 * balances, approved contacts, and the assets of each chain.
 */
export interface PickerData {
  vaults: Vault[];
  balances: Map<string, VaultBalances>;
  assets: Asset[];
  contacts: Contact[];
  loading: boolean;
  error: unknown;
}

const inScope = (subOrg: string | undefined, owner: string | null | undefined) =>
  !subOrg || !owner || owner === subOrg;

export function usePickerData(subOrg: string | undefined): PickerData {
  const vaults = useQuery(referenceQueries.vaults());
  const assets = useQuery(referenceQueries.assets());
  const contacts = useQuery(referenceQueries.contacts());
  const scoped = useMemo(
    () =>
      (vaults.data?.results ?? [])
        .filter((v) => v.id && (!subOrg || v.subOrgId === subOrg))
        .sort((a, b) => (a.vaultName ?? '').localeCompare(b.vaultName ?? '')),
    [vaults.data, subOrg],
  );
  const balanceQueries = useQueries({
    queries: scoped.map((v) => referenceQueries.vaultBalances(v.id as string)),
  });
  const balances = new Map<string, VaultBalances>();
  scoped.forEach((v, i) => {
    const data = balanceQueries[i]?.data;
    if (data && v.id) balances.set(v.id, data);
  });
  return {
    vaults: scoped,
    balances,
    assets: assets.data ?? [],
    contacts: (contacts.data?.results ?? []).filter((c) => inScope(subOrg, c.subOrgId)),
    loading: vaults.isPending || assets.isPending || contacts.isPending,
    error: vaults.error ?? assets.error ?? contacts.error,
  };
}

export function balanceOf(
  data: PickerData,
  vaultId: string,
  asset: string,
  chain: string,
): string | undefined {
  if (!vaultId || !asset || !chain) return undefined;
  const balances = data.balances.get(vaultId);
  if (!balances) return undefined;
  return balances[asset]?.[chain] ?? '0';
}

/** The vault's own address on `chain`, where the vault list gives one. */
export function walletAddress(
  data: PickerData,
  vaultId: string,
  chain: string,
): string | undefined {
  if (!vaultId || !chain) return undefined;
  const vault = data.vaults.find((v) => v.id === vaultId);
  return vault?.wallets?.find((w) => w.blockchain === chain)?.address ?? undefined;
}

export function vaultName(data: PickerData, vaultId: string): string {
  return data.vaults.find((v) => v.id === vaultId)?.vaultName ?? vaultId;
}

/** Vaults, each with its balance of the chosen asset on the chosen chain once both are known. */
export function vaultOptions(
  data: PickerData,
  asset: string,
  chain: string,
  exclude?: string,
): Option[] {
  return data.vaults
    .filter((v) => v.id !== exclude)
    .map((v) => {
      const id = v.id as string;
      const balance = balanceOf(data, id, asset, chain);
      const name = v.vaultName ?? id;
      return {
        value: id,
        label:
          balance !== undefined ? `${name} — ${formatAmount(balance)} ${asset} available` : name,
      };
    });
}

/** Chains the vault has a wallet on, among those `offers` accepts (stake, contract calls…). */
export function chainOptions(
  data: PickerData,
  vaultId: string,
  offers: (chain: ChainInfo) => boolean = () => true,
): Option[] {
  const vault = data.vaults.find((v) => v.id === vaultId);
  const onVault = new Set((vault?.wallets ?? []).map((w) => w.blockchain));
  return CHAINS.filter((c) => offers(c) && (!vault || onVault.has(c.value))).map((c) => ({
    value: c.value,
    label: c.label,
  }));
}

export function decimalsOf(data: PickerData, asset: string, chain: string): number | undefined {
  return data.assets.find((a) => a.symbol === asset && a.blockChain === chain)?.decimals;
}

/**
 * What the pickers know about sending `asset` from `vaultId` on `chain`: its
 * precision, the vault's balance, and the fee when the vault pays it in that
 * same asset (pass no fee when another vault pays it).
 */
export function sendContext(
  data: PickerData,
  { vaultId, asset, chain }: { vaultId: string; asset: string; chain: string },
  fee: FeeData | undefined,
): FormContext {
  return {
    decimals: decimalsOf(data, asset, chain),
    balance: balanceOf(data, vaultId, asset, chain),
    feeInAsset: fee?.asset === asset ? fee.expectedFeeInAsset : undefined,
    sourceAddress: walletAddress(data, vaultId, chain),
  };
}

export function assetOptions(data: PickerData, chain: string): Option[] {
  return data.assets
    .filter((a) => a.blockChain === chain && a.symbol)
    .map((a) => ({
      value: a.symbol as string,
      label: a.name ? `${a.symbol} (${a.name})` : (a.symbol as string),
    }));
}

/** Approved contacts on the chain that accept the asset (an empty asset list accepts any). */
export function contactOptions(data: PickerData, chain: string, asset: string): Option[] {
  return data.contacts
    .filter(
      (c) =>
        c.id &&
        c.status === 'APPROVED' &&
        c.blockChain === chain &&
        (!asset || !c.assetList?.length || c.assetList.includes(asset)),
    )
    .sort((a, b) => (a.name ?? '').localeCompare(b.name ?? ''))
    .map((c) => ({
      value: c.id as string,
      label: `${c.name ?? c.id}${c.address ? ` (${shortAddress(c.address)})` : ''}`,
    }));
}

export function contactLabel(data: PickerData, contactId: string): string {
  const c = data.contacts.find((x) => x.id === contactId);
  if (!c) return contactId;
  return `${c.name ?? c.id}${c.address ? `, address ${c.address}` : ''}`;
}

export function chainLabelOf(value: string): string {
  return chainInfo(value)?.label ?? value;
}
