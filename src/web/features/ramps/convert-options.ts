import { chainLabel } from '#contract/chains.ts';
import type { BankAccount } from '#contract/bank-account-record.ts';
import type { PaymentMethod } from '#contract/enums.ts';
import { RAIL_CURRENCIES, RAMP_ASSETS, RAMP_FIAT_CURRENCIES } from '#contract/ramps.ts';
import type { Asset, Vault } from '#contract/reference.ts';
import type { Option } from '../../components/select-field.tsx';
import { paymentMethodLabel } from '../../lib/labels.ts';

/**
 * What the Convert form picks from: vaults and the chains where they hold a
 * wallet and the providers trade a stablecoin, approved bank accounts
 * (masked, with rail and currency), and the currencies.
 */

/** Chains of the vault (or of any vault) on which a rampable asset is listed. */
export function rampChainOptions(vaults: Vault[], assets: Asset[], vaultId: string): Option[] {
  const vault = vaults.find((v) => v.id === vaultId);
  const onVault = new Set(
    (vault ? [vault] : vaults).flatMap((v) => (v.wallets ?? []).map((w) => w.blockchain)),
  );
  const chains = new Set(
    assets
      .filter((a) => a.blockChain && (RAMP_ASSETS as readonly string[]).includes(a.symbol ?? ''))
      .map((a) => a.blockChain as string),
  );
  return [...chains]
    .filter((c) => onVault.has(c))
    .map((c) => ({ value: c, label: chainLabel(c) || c }));
}

/** The rampable assets listed on `chain`. */
export function rampAssetOptions(assets: Asset[], chain: string): Option[] {
  return RAMP_ASSETS.filter((symbol) =>
    assets.some((a) => a.symbol === symbol && a.blockChain === chain),
  ).map((symbol) => {
    const name = assets.find((a) => a.symbol === symbol)?.name;
    return { value: symbol, label: name ? `${symbol} (${name})` : symbol };
  });
}

export function vaultOptions(vaults: Vault[]): Option[] {
  return vaults
    .filter((v) => v.id)
    .map((v) => ({ value: v.id as string, label: v.vaultName ?? (v.id as string) }));
}

/** The currencies an account's rail carries (every ramp currency for an unknown rail). */
export function currenciesOf(account: Pick<BankAccount, 'paymentMethod'> | undefined): string[] {
  const rail = account?.paymentMethod as PaymentMethod | undefined;
  return [...(rail && rail in RAIL_CURRENCIES ? RAIL_CURRENCIES[rail] : RAMP_FIAT_CURRENCIES)];
}

/** "Acme Payroll · JPMorgan Chase Bank •••• 6789 · US ACH · USD": by name, masked, with rail and currency; never an id. */
export function bankAccountLabel(account: BankAccount): string {
  return [
    account.accountName ?? account.bankName ?? 'Unnamed account',
    [account.bankName, account.accountNumber].filter(Boolean).join(' '),
    paymentMethodLabel(account.paymentMethod),
    currenciesOf(account).join(' or '),
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * The approved accounts the chosen vault may pay: those of the vault's own
 * sub-organization (organization-level ones for an organization-level vault),
 * as the custody API allows. Every approved account until a vault is chosen.
 * The list is asked for APPROVED; the page holds it to that whatever it gets.
 */
export function bankAccountOptions(
  accounts: BankAccount[],
  vault?: Pick<Vault, 'subOrgId'> | undefined,
): Option[] {
  return accounts
    .filter((a) => a.id && a.status === 'APPROVED')
    .filter((a) => !vault || (a.subOrgId ?? null) === (vault.subOrgId ?? null))
    .sort((a, b) => (a.accountName ?? '').localeCompare(b.accountName ?? ''))
    .map((a) => ({ value: a.id as string, label: bankAccountLabel(a) }));
}

export function currencyOptions(currencies: readonly string[]): Option[] {
  return currencies.map((c) => ({ value: c, label: c }));
}
