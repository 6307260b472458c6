import type { BankDetails } from '#contract/party-record.ts';

/**
 * The sandbox's own settlement accounts, by currency: where an on-ramp's
 * payer wires (capabilities/ramps), and a vault's fiat deposit instructions
 * (capabilities/vaults). Sandbox data (no customer's): an approved on-ramp's
 * instructions show it in full, as the payer needs the numbers; elsewhere it
 * is masked as the on-ramp's `source.bank` is (contract/ramp-banks.ts).
 */
export const SANDBOX_DEPOSIT_ACCOUNTS: Readonly<Record<string, BankDetails>> = {
  USD: {
    bankName: 'Lakeside Sandbox Bank',
    beneficiaryName: 'Sandbox Ramp Settlement LLC',
    accountName: 'Sandbox Ramp Settlement LLC',
    accountNumber: '000123456789',
    routingNumber: '021000021',
    bankAddress: '1 Harbor Plaza, New York, NY 10004',
    country: 'US',
  },
  EUR: {
    bankName: 'Sandbox Europa Bank',
    beneficiaryName: 'Sandbox Ramp Settlement GmbH',
    accountName: 'Sandbox Ramp Settlement GmbH',
    iban: 'DE89370400440532013000',
    accountNumber: 'DE89370400440532013000',
    swiftBic: 'COBADEFFXXX',
    swiftCode: 'COBADEFFXXX',
    country: 'DE',
  },
  GBP: {
    bankName: 'Sandbox Albion Bank',
    beneficiaryName: 'Sandbox Ramp Settlement Ltd',
    accountName: 'Sandbox Ramp Settlement Ltd',
    iban: 'GB29NWBK60161331926819',
    accountNumber: 'GB29NWBK60161331926819',
    swiftBic: 'NWBKGB2L',
    swiftCode: 'NWBKGB2L',
    country: 'GB',
  },
};
