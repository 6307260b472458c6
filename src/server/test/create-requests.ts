import { expect } from 'vitest';
import type { BankAccountCreateInput } from '#contract/bank-account.ts';
import { paths } from '#contract/paths.ts';
import type { EngineFixture, EngineTestApp } from './engine-test-app.ts';

/** A valid US ACH bank account to propose, as the bank-account and approval tests send it. */
export const ACH: BankAccountCreateInput = {
  paymentMethod: 'US_ACH',
  accountName: 'Northwind Treasury',
  accountNumber: '000123456789',
  routingNumber: '021000021',
  bankName: 'JPMorgan Chase',
  country: 'US',
};

/** A create body moving `amount` ETH on Ethereum from the fixture's treasury vault to its ops vault. */
export function treasuryToOps(
  fixture: EngineFixture,
  amount: string,
  over: Record<string, unknown> = {},
) {
  return {
    category: 'TRANSFER',
    source: { type: 'VAULT', id: fixture.treasury.id },
    destination: { type: 'VAULT', id: fixture.ops.id },
    amount,
    asset: 'ETH',
    blockChain: 'ETHEREUM',
    ...over,
  };
}

/** Request builders and the refusal check the create tests share (`engineTest`'s `requests`). */
export function createRequests(app: EngineTestApp, fixture: EngineFixture) {
  const vault = (id: string) => ({ type: 'VAULT', id });
  const contact = (id: string) => ({ type: 'CONTACT', id });
  const transfer = (over: Record<string, unknown> = {}) => ({
    category: 'TRANSFER',
    source: vault(fixture.treasury.id),
    destination: contact(fixture.contacts.eth.id),
    amount: '0.5',
    asset: 'ETH',
    blockChain: 'ETHEREUM',
    ...over,
  });
  const create = (body: unknown) => app.post(paths.transactions(), body);

  /** A 400 whose `fields` name `field` and whose `code` (when given) names the rule. */
  async function expectRefused(body: unknown, field: string, code?: string) {
    const res = await create(body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    const fields = res.body.fields as Array<{ field: string; message: string }>;
    expect(fields.map((x) => x.field)).toContain(field);
    if (code) expect(res.body.code).toBe(code);
    expect(typeof res.body.message).toBe('string');
    return res.body;
  }

  return { vault, contact, transfer, create, expectRefused };
}
