import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bankAccountFingerprinter } from './bank-account-fingerprint.ts';

const key = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;

describe('bankAccountFingerprinter', () => {
  const fingerprint = bankAccountFingerprinter(key());
  const account = {
    paymentMethod: 'SEPA',
    accountNumber: 'DE89 3704 0044 0532 0130 00',
    routingNumber: null,
    accountName: 'Acme  GmbH',
  };

  it('names the same account however it is spaced or cased', () => {
    expect(
      fingerprint({
        ...account,
        accountNumber: 'de89370400440532013000',
        routingNumber: '',
        accountName: ' acme gmbh ',
      }),
    ).toBe(fingerprint(account));
  });

  it('tells apart another rail, number, routing number or holder', () => {
    const base = fingerprint(account);
    expect(fingerprint({ ...account, paymentMethod: 'SWIFT' })).not.toBe(base);
    expect(fingerprint({ ...account, accountNumber: 'DE89370400440532013001' })).not.toBe(base);
    expect(fingerprint({ ...account, routingNumber: 'COBADEFFXXX' })).not.toBe(base);
    expect(fingerprint({ ...account, accountName: 'Acme AG' })).not.toBe(base);
  });

  it('is keyed: holds no account number, and another key gives another fingerprint', () => {
    const base = fingerprint(account);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(bankAccountFingerprinter(key())(account)).not.toBe(base);
  });
});
