import { describe, expect, it } from 'vitest';
import type { PaymentRowInput } from '#contract/payment-runs.ts';
import { checkPaymentRun, describeRows, type CheckSnapshot } from './check.ts';

const GOOD = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BAD_CASE = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD';

function snapshot(over: Partial<CheckSnapshot> = {}): CheckSnapshot {
  return {
    subOrgId: 'sub-1',
    vaults: new Map<
      string,
      { subOrgId: string | null; balances: Record<string, Record<string, string>> }
    >([
      [
        'v1',
        { subOrgId: 'sub-1', balances: { USDC: { ETHEREUM: '1000' }, ETH: { ETHEREUM: '2' } } },
      ],
      ['v-other', { subOrgId: 'sub-2', balances: { USDC: { ETHEREUM: '1000' } } }],
    ]),
    contacts: new Map([
      ['c-ok', { status: 'APPROVED', blockChain: 'ETHEREUM', address: GOOD, assetList: ['USDC'] }],
      ['c-pending', { status: 'PENDING', blockChain: 'ETHEREUM', address: GOOD }],
    ]),
    bankAccounts: new Map([
      ['b-ok', { status: 'APPROVED' }],
      ['b-pending', { status: 'PENDING' }],
    ]),
    assets: new Map([
      ['USDC:ETHEREUM', { decimals: 6 }],
      ['ETH:ETHEREUM', { decimals: 18 }],
    ]),
    paidReferences: new Set(['INV-PAID']),
    prices: new Map([
      ['USDC:ETHEREUM', '1'],
      ['ETH:ETHEREUM', '3000'],
    ]),
    fees: new Map([['USDC:ETHEREUM', { asset: 'ETH', blockChain: 'ETHEREUM', amount: '0.001' }]]),
    offRamps: new Map(),
    ...over,
  };
}

let made = 0;
const row = (over: Partial<PaymentRowInput> = {}): PaymentRowInput => ({
  kind: 'CRYPTO',
  sourceVaultId: 'v1',
  contactId: 'c-ok',
  asset: 'USDC',
  blockChain: 'ETHEREUM',
  amount: '10',
  reference: `INV-${(made += 1)}`,
  ...over,
});

const codes = (rows: PaymentRowInput[], snap = snapshot()) =>
  checkPaymentRun(rows, snap).errors.map((e) => [e.row, e.field, e.code]);

describe('checking a payment run', () => {
  it('passes good rows of each destination kind', () => {
    expect(
      codes([
        row(),
        row({ contactId: undefined, address: GOOD }),
        row({ kind: 'FIAT', contactId: undefined, bankAccountId: 'b-ok' }),
      ]),
    ).toEqual([]);
  });

  it('prices a fiat row by its off-ramp quote, and names the field a refused quote is about', () => {
    const fiat = (amount: string) =>
      row({ kind: 'FIAT', contactId: undefined, bankAccountId: 'b-ok', amount });
    const quote = {
      paymentMethod: 'US_ACH',
      currency: 'USD',
      toAmount: '995',
      feeAsset: 'USDC',
      feeAmount: '5',
      feeUsd: '5',
    };
    const result = checkPaymentRun(
      [fiat('1000'), fiat('1')],
      snapshot({
        offRamps: new Map([
          [1, { ok: true as const, quote }],
          [2, { ok: false as const, field: 'amount', message: 'below the minimum of 10 USD' }],
        ]),
      }),
    );
    expect(result.errors).toEqual([
      {
        row: 2,
        field: 'amount',
        code: 'OFF_RAMP_REFUSED',
        message: 'Row 2: the off-ramp cannot be quoted: below the minimum of 10 USD',
      },
    ]);
    // The provider's fee is in the asset sold, inside the row's amount: no network fee is added.
    expect(result.simulation.fees).toEqual([
      { asset: 'USDC', blockChain: 'ETHEREUM', amount: '5', usd: '5' },
    ]);
    expect(result.simulation.offRamps).toEqual([{ row: 1, bankAccountId: 'b-ok', ...quote }]);
    expect(result.simulation.lines[0]).toMatchObject({ outflow: '1000' });
  });

  it('names the row and field of each error, numbered from 1', () => {
    const errors = codes([
      row({ contactId: 'c-nobody' }),
      row({ contactId: 'c-pending' }),
      row({ kind: 'FIAT', contactId: undefined, bankAccountId: 'b-nobody' }),
      row({ kind: 'FIAT', contactId: undefined, bankAccountId: 'b-pending' }),
      row({ contactId: undefined, address: BAD_CASE }),
      row({ contactId: undefined, address: '0x123' }),
      row({ amount: '1.1234567' }),
      row({ asset: 'DOGE' }),
      row({ reference: 'INV-PAID' }),
      row({ sourceVaultId: 'v-other' }),
      row({ sourceVaultId: 'v-nowhere' }),
      row({ asset: 'ETH', amount: '0.1' }),
    ]);
    expect(errors).toEqual([
      [1, 'contactId', 'UNKNOWN_CONTACT'],
      [2, 'contactId', 'CONTACT_NOT_APPROVED'],
      [3, 'bankAccountId', 'UNKNOWN_BANK_ACCOUNT'],
      [4, 'bankAccountId', 'BANK_ACCOUNT_NOT_APPROVED'],
      [5, 'address', 'BAD_CHECKSUM'],
      [6, 'address', 'BAD_ADDRESS'],
      [7, 'amount', 'TOO_MANY_DECIMALS'],
      [8, 'asset', 'ASSET_NOT_ON_CHAIN'],
      [8, 'contactId', 'CONTACT_ASSET_NOT_ALLOWED'],
      [9, 'reference', 'REFERENCE_ALREADY_PAID'],
      [10, 'sourceVaultId', 'VAULT_OUTSIDE_RUN'],
      [11, 'sourceVaultId', 'UNKNOWN_VAULT'],
      [12, 'contactId', 'CONTACT_ASSET_NOT_ALLOWED'],
    ]);
    const [first] = checkPaymentRun([row({ contactId: 'c-nobody' })], snapshot()).errors;
    expect(first?.message).toBe('Row 1: no contact with id "c-nobody"');
  });

  it('flags a duplicate row: same destination, amount and reference', () => {
    const a = row({ reference: 'INV-1', amount: '10' });
    expect(
      codes([
        a,
        { ...a, amount: '10.00' },
        { ...a, reference: 'INV-2' },
        row({ contactId: undefined, address: GOOD.toLowerCase(), reference: 'X' }),
        row({ contactId: undefined, address: GOOD, reference: 'X' }),
      ]),
    ).toEqual([
      [2, 'reference', 'DUPLICATE_ROW'],
      [5, 'reference', 'DUPLICATE_ROW'],
    ]);
  });

  it('simulates per vault and asset, and names the rows that do not fit', () => {
    const rows = Array.from({ length: 12 }, (_, i) => row({ amount: '100', reference: `R${i}` }));
    const result = checkPaymentRun(rows, snapshot());
    expect(result.errors.map((e) => [e.row, e.code])).toEqual([
      [11, 'EXCEEDS_BALANCE'],
      [12, 'EXCEEDS_BALANCE'],
    ]);
    expect(result.simulation.lines).toEqual([
      {
        vaultId: 'v1',
        asset: 'USDC',
        blockChain: 'ETHEREUM',
        before: '1000',
        outflow: '1000',
        fees: '0',
        after: '0',
        rowsNotFitting: [11, 12],
        note: "rows 11–12 exceed the vault's USDC",
      },
      // The token's fees are paid in the chain's coin, from the same vault.
      {
        vaultId: 'v1',
        asset: 'ETH',
        blockChain: 'ETHEREUM',
        before: '2',
        outflow: '0',
        fees: '0.01',
        after: '1.99',
        rowsNotFitting: [],
        note: null,
      },
    ]);
    expect(result.simulation.totals).toEqual([
      { asset: 'USDC', blockChain: 'ETHEREUM', amount: '1000' },
    ]);
    expect(result.simulation.totalUsd).toBe('1000');
    expect(result.simulation.fees).toEqual([
      { asset: 'ETH', blockChain: 'ETHEREUM', amount: '0.01', usd: '30' },
    ]);
    expect(result.simulation.feesUsd).toBe('30');
  });

  it('counts each row’s network fee against what the vault holds of the fee’s asset', () => {
    // USDC enough for every row, ETH for two rows' fees only.
    const vaults = new Map([
      [
        'v1',
        {
          subOrgId: 'sub-1',
          balances: { USDC: { ETHEREUM: '1000' }, ETH: { ETHEREUM: '0.0025' } },
        },
      ],
    ]);
    const token = checkPaymentRun(
      [row({ reference: 'F-1' }), row({ reference: 'F-2' }), row({ reference: 'F-3' })],
      snapshot({ vaults }),
    );
    expect(token.errors.map((e) => [e.row, e.field, e.code])).toEqual([
      [3, 'amount', 'EXCEEDS_BALANCE'],
    ]);
    expect(token.errors[0]?.message).toMatch(/network fee/);
    expect(
      token.simulation.lines.map((l) => [l.asset, l.outflow, l.fees, l.after, l.note]),
    ).toEqual([
      ['USDC', '20', '0', '980', null],
      ['ETH', '0', '0.002', '0.0005', "row 3 exceeds the vault's ETH"],
    ]);
    expect(token.simulation.fees).toEqual([
      { asset: 'ETH', blockChain: 'ETHEREUM', amount: '0.002', usd: '6' },
    ]);

    // The chain's own coin pays its amount and its fee from one balance: 1 + 0.001 fits in 2,
    // a second 1 + 0.001 does not.
    const coin = checkPaymentRun(
      [
        row({ asset: 'ETH', contactId: undefined, address: GOOD, amount: '1', reference: 'C-1' }),
        row({ asset: 'ETH', contactId: undefined, address: GOOD, amount: '1', reference: 'C-2' }),
      ],
      snapshot({
        fees: new Map([
          ['ETH:ETHEREUM', { asset: 'ETH', blockChain: 'ETHEREUM', amount: '0.001' }],
        ]),
      }),
    );
    expect(coin.errors.map((e) => [e.row, e.code])).toEqual([[2, 'EXCEEDS_BALANCE']]);
    expect(coin.simulation.lines).toEqual([
      {
        vaultId: 'v1',
        asset: 'ETH',
        blockChain: 'ETHEREUM',
        before: '2',
        outflow: '1',
        fees: '0.001',
        after: '0.999',
        rowsNotFitting: [2],
        note: "row 2 exceeds the vault's ETH",
      },
    ]);
  });

  it('leaves the total in USD unknown when an asset has no price', () => {
    const result = checkPaymentRun([row()], snapshot({ prices: new Map() }));
    expect(result.simulation.totalUsd).toBeNull();
  });

  it('writes row ranges as a person reads them', () => {
    expect(describeRows([5])).toBe('row 5');
    expect(describeRows([412, 413, 414, 430])).toBe('rows 412–414, 430');
  });

  it('checks 1,000 rows well within two seconds', () => {
    const rows = Array.from({ length: 1000 }, (_, i) =>
      row({ amount: '0.5', reference: `BULK-${i}` }),
    );
    const started = performance.now();
    const result = checkPaymentRun(rows, snapshot());
    expect(performance.now() - started).toBeLessThan(2000);
    expect(result.errors).toEqual([]);
  });
});
