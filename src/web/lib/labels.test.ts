import { describe, expect, it } from 'vitest';
import { humanize, partyLabel, paymentMethodLabel } from './labels.ts';

describe('labels', () => {
  it('turns enum values into words', () => {
    expect(humanize('WAITING_CONFIRMATION')).toBe('Waiting confirmation');
    expect(humanize('COMPLETED')).toBe('Completed');
    expect(humanize(undefined)).toBe('');
    expect(paymentMethodLabel('US_ACH')).toBe('US ACH');
    expect(paymentMethodLabel('NEW_RAIL')).toBe('New rail');
  });

  it('names a party by name, then address, then type', () => {
    expect(partyLabel({ type: 'VAULT', id: 'v1', name: 'Treasury' })).toBe('Treasury');
    expect(partyLabel({ type: 'EXTERNAL_ADDRESS', address: '0x1234567890abcdef1234' })).toBe(
      '0x1234…1234',
    );
    expect(partyLabel({ type: 'EXTERNAL_BANK_ACCOUNT' })).toBe('External bank account');
    expect(partyLabel(undefined)).toBe('');
  });
});
