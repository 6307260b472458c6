import type { InferInsertModel } from 'drizzle-orm';
import type { BankAccountStatus, PaymentMethod } from '#contract/enums.ts';
import type { bankAccounts } from '../../../db/schema/sandbox.ts';
import type { SeedRandom } from './random.ts';

/**
 * Bank accounts in every rail and every status, with numbers that pass the
 * rail rules (BankAccountCreateRequest): real-format ABA routing numbers,
 * IBANs with valid checksums (the published examples of each country's
 * format) and well-formed BICs. None of them belongs to anyone.
 */

export type BankAccountSeedRow = InferInsertModel<typeof bankAccounts> & {
  id: string;
  status: BankAccountStatus;
  paymentMethod: PaymentMethod;
  createdAt: Date;
  updatedAt: Date;
};

type Details = Omit<
  BankAccountSeedRow,
  | 'id'
  | 'orgId'
  | 'subOrgId'
  | 'createdById'
  | 'status'
  | 'createdAt'
  | 'updatedAt'
  | 'orgEntityId'
  | 'clientBankAccountId'
>;

const US_ADDRESS = {
  streetLine: '270 Park Avenue',
  city: 'New York',
  state: 'NY',
  postalCode: '10017',
};

// One entry per rail × status at least; extras make the list long enough to page.
const ACCOUNTS: ReadonlyArray<{ status: BankAccountStatus; details: Details }> = [
  {
    status: 'APPROVED',
    details: {
      paymentMethod: 'US_ACH',
      accountName: 'Northwind Treasury LLC',
      accountNumber: '483920175',
      routingNumber: '021000021',
      bankName: 'JPMorgan Chase Bank',
      country: 'US',
    },
  },
  {
    status: 'PENDING',
    details: {
      paymentMethod: 'US_ACH',
      accountName: 'Northwind Payroll',
      accountNumber: '000123456789',
      routingNumber: '026009593',
      bankName: 'Bank of America',
      country: 'US',
    },
  },
  {
    status: 'DECLINED',
    details: {
      paymentMethod: 'US_ACH',
      accountName: 'Northwind Vendor Refunds',
      accountNumber: '7716',
      routingNumber: '121000248',
      bankName: 'Wells Fargo Bank',
      country: 'US',
    },
  },
  {
    status: 'APPROVED',
    details: {
      paymentMethod: 'US_WIRE',
      accountName: 'Northwind Treasury LLC',
      accountNumber: '90871234560',
      routingNumber: '021000021',
      bankName: 'JPMorgan Chase Bank',
      country: 'US',
      ...US_ADDRESS,
    },
  },
  {
    status: 'PENDING',
    details: {
      paymentMethod: 'US_WIRE',
      accountName: 'Northwind Capital Markets',
      accountNumber: '55501238841',
      routingNumber: '011000015',
      bankName: 'Federal Reserve Bank of Boston',
      country: 'US',
      streetLine: '600 Atlantic Avenue',
      city: 'Boston',
      state: 'MA',
      postalCode: '02210',
    },
  },
  {
    status: 'DECLINED',
    details: {
      paymentMethod: 'US_WIRE',
      accountName: 'Northwind Escrow',
      accountNumber: '31337000042',
      routingNumber: '122105278',
      bankName: 'Wells Fargo Bank',
      country: 'US',
      streetLine: '420 Montgomery Street',
      city: 'San Francisco',
      state: 'CA',
      postalCode: '94104',
    },
  },
  {
    status: 'APPROVED',
    details: {
      paymentMethod: 'SEPA',
      accountName: 'Northwind Treasury GmbH',
      accountNumber: 'DE89370400440532013000',
      bankName: 'Commerzbank',
      country: 'DE',
    },
  },
  {
    status: 'APPROVED',
    details: {
      paymentMethod: 'SEPA',
      accountName: 'Northwind France SAS',
      accountNumber: 'FR1420041010050500013M02606',
      bankName: 'La Banque Postale',
      country: 'FR',
    },
  },
  {
    status: 'PENDING',
    details: {
      paymentMethod: 'SEPA',
      accountName: 'Northwind Benelux BV',
      accountNumber: 'NL91ABNA0417164300',
      bankName: 'ABN AMRO',
      country: 'NL',
    },
  },
  {
    status: 'DECLINED',
    details: {
      paymentMethod: 'SEPA',
      accountName: 'Northwind Iberia SL',
      accountNumber: 'ES9121000418450200051332',
      bankName: 'CaixaBank',
      country: 'ES',
    },
  },
  {
    status: 'APPROVED',
    details: {
      paymentMethod: 'SWIFT',
      accountName: 'Northwind UK Ltd',
      accountNumber: 'GB29NWBK60161331926819',
      routingNumber: 'NWBKGB2L',
      bankName: 'NatWest',
      streetLine: '250 Bishopsgate',
      city: 'London',
      postalCode: 'EC2M 4AA',
      country: 'GB',
    },
  },
  {
    status: 'PENDING',
    details: {
      paymentMethod: 'SWIFT',
      accountName: 'Northwind Schweiz AG',
      accountNumber: 'CH9300762011623852957',
      routingNumber: 'UBSWCHZH80A',
      bankName: 'UBS Switzerland',
      streetLine: 'Bahnhofstrasse 45',
      city: 'Zürich',
      postalCode: '8001',
      country: 'CH',
    },
  },
  {
    status: 'DECLINED',
    details: {
      paymentMethod: 'SWIFT',
      accountName: 'Northwind Asia Pte Ltd',
      accountNumber: '0720123456',
      routingNumber: 'DBSSSGSG',
      bankName: 'DBS Bank',
      streetLine: '12 Marina Boulevard',
      city: 'Singapore',
      postalCode: '018982',
      country: 'SG',
    },
  },
  {
    status: 'APPROVED',
    details: {
      paymentMethod: 'SWIFT',
      accountName: 'Northwind Japan KK',
      accountNumber: '1234567',
      routingNumber: 'BOTKJPJT',
      bankName: 'MUFG Bank',
      streetLine: '2-7-1 Marunouchi',
      city: 'Tokyo',
      postalCode: '100-8388',
      country: 'JP',
    },
  },
  {
    status: 'APPROVED',
    details: {
      paymentMethod: 'BANK_TRANSFER',
      accountName: 'Northwind México SA de CV',
      accountNumber: '012180001234567897',
      bankName: 'BBVA México',
      country: 'MX',
    },
  },
  {
    status: 'PENDING',
    details: {
      paymentMethod: 'BANK_TRANSFER',
      accountName: 'Northwind India Pvt Ltd',
      accountNumber: '50100234567891',
      bankName: 'HDFC Bank',
      country: 'IN',
    },
  },
  {
    status: 'DECLINED',
    details: {
      paymentMethod: 'BANK_TRANSFER',
      accountName: 'Northwind Brasil Ltda',
      accountNumber: '00012345-6',
      bankName: 'Itaú Unibanco',
      country: 'BR',
    },
  },
  {
    status: 'APPROVED',
    details: {
      paymentMethod: 'US_ACH',
      accountName: 'Northwind Operating Account',
      accountNumber: '22001987',
      routingNumber: '071000013',
      bankName: 'JPMorgan Chase Bank (Chicago)',
      country: 'US',
    },
  },
  {
    status: 'APPROVED',
    details: {
      paymentMethod: 'SEPA',
      accountName: 'Northwind Ireland DAC',
      accountNumber: 'IE29AIBK93115212345678',
      bankName: 'AIB',
      country: 'IE',
    },
  },
  {
    status: 'PENDING',
    details: {
      paymentMethod: 'US_WIRE',
      accountName: 'Northwind Tax Reserve',
      accountNumber: '4402117789',
      routingNumber: '044000037',
      bankName: 'JPMorgan Chase Bank (Columbus)',
      country: 'US',
      streetLine: '1111 Polaris Parkway',
      city: 'Columbus',
      state: 'OH',
      postalCode: '43240',
    },
  },
];

// More approved ACH accounts, so the list runs past one page of 20.
const MORE_ACH: ReadonlyArray<{ status: BankAccountStatus; details: Details }> = [
  ['Northwind Card Settlements', '011000015', 'Federal Reserve Bank of Boston'],
  ['Northwind Marketing Spend', '111000025', 'Federal Reserve Bank of Dallas'],
  ['Northwind Insurance Claims', '061000052', 'Bank of America (Atlanta)'],
  ['Northwind Benefits Trust', '021000021', 'JPMorgan Chase Bank'],
  ['Northwind Capex Reserve', '026009593', 'Bank of America'],
  ['Northwind Logistics', '121000248', 'Wells Fargo Bank'],
  ['Northwind Research Grants', '071000013', 'JPMorgan Chase Bank (Chicago)'],
  ['Northwind Escrow', '044000037', 'JPMorgan Chase Bank (Columbus)'],
].map(([accountName, routingNumber, bankName], i) => ({
  status: i % 3 === 2 ? 'PENDING' : 'APPROVED',
  details: {
    paymentMethod: 'US_ACH',
    accountName: accountName ?? '',
    accountNumber: String(5_100_200_300 + i * 7_919),
    routingNumber: routingNumber ?? '',
    bankName: bankName ?? '',
    country: 'US',
  },
}));

const ALL_ACCOUNTS = [...ACCOUNTS, ...MORE_ACH];

const DAY = 86_400_000;

export function buildBankAccounts(
  rng: SeedRandom,
  now: Date,
  orgId: string,
  subOrgIds: readonly string[],
  creatorIds: readonly string[],
): BankAccountSeedRow[] {
  const spacingDays = 84 / ALL_ACCOUNTS.length;
  return ALL_ACCOUNTS.map(({ status, details }, i) => {
    // Spread over the last 90 days, oldest first, so the list has a history.
    const createdAt = new Date(
      Math.round(now.getTime() - (90 - i * spacingDays) * DAY) - rng.int(0, DAY - 1),
    );
    const decidedAt =
      status === 'PENDING' ? createdAt : new Date(createdAt.getTime() + rng.int(600_000, DAY));
    return {
      id: rng.uuid(),
      orgId,
      subOrgId: i % 4 === 3 ? null : (subOrgIds[i % subOrgIds.length] ?? null),
      orgEntityId: `ent_${rng.hex(6)}`,
      createdById: rng.pick(creatorIds),
      status,
      clientBankAccountId: i % 3 === 0 ? `NW-BA-${String(1000 + i)}` : null,
      streetLine: null,
      city: null,
      state: null,
      postalCode: null,
      routingNumber: null,
      ...details,
      createdAt,
      updatedAt: decidedAt,
    };
  });
}
