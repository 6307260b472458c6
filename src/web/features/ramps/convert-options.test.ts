import { describe, expect, it } from 'vitest';
import type { BankAccount } from '#contract/bank-account-record.ts';
import { bankAccountOptions } from './convert-options.ts';

const account = (id: string, subOrgId: string | null, accountName?: string): BankAccount => ({
  id,
  subOrgId,
  status: 'APPROVED',
  paymentMethod: 'US_ACH',
  bankName: 'Lakeside Bank',
  accountNumber: '•••• 4321',
  ...(accountName ? { accountName } : {}),
});

describe('bankAccountOptions', () => {
  const accounts = [
    account('ba-org', null, 'Acme Treasury'),
    account('ba-eu', 'so-eu', 'Acme GmbH'),
    account('ba-us', 'so-us', 'Acme Payroll'),
    { ...account('ba-pending', 'so-eu', 'Pending'), status: 'PENDING' },
  ];

  it('lists only the approved accounts of the chosen vault’s sub-organization', () => {
    expect(bankAccountOptions(accounts, { subOrgId: 'so-eu' }).map((o) => o.value)).toEqual([
      'ba-eu',
    ]);
    expect(bankAccountOptions(accounts, { subOrgId: null }).map((o) => o.value)).toEqual([
      'ba-org',
    ]);
  });

  it('names each account, never by its id', () => {
    const [option] = bankAccountOptions([account('ba-unnamed-7f3c', 'so-eu')], {
      subOrgId: 'so-eu',
    });
    expect(option?.label).toBe('Lakeside Bank · Lakeside Bank •••• 4321 · US ACH · USD');
    expect(option?.label).not.toContain('ba-unnamed');
  });
});
