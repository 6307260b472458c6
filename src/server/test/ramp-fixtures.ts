import { expect } from 'vitest';
import { paths } from '#contract/paths.ts';
import { RampQuoteResponse, type RampQuote } from '#contract/ramps.ts';
import { Transaction } from '#contract/transaction.ts';
import type { EngineTestApp } from './engine-test-app.ts';
import { engineTest } from './engine-test.ts';
import { createBankAccount, createSubOrg, createVault } from './fixtures.ts';
import { sdkCaller } from './sdk-wire.ts';

/**
 * What the ramp tests share: bank accounts in the states a ramp cares about,
 * an API client calling as either SDK, and the JS SDK's approval as it sends
 * it (createTransactionFromIntent's usual approval message).
 */

export const QUOTE_PATH = '/api/external/transactions/quote/';
export const INTENT_CREATE_PATH = '/api/external/transactions/intent/create/';
export const MARK_DEPOSIT_PATH = '/api/external/transactions/mark_deposit_done/';

export interface RampFixture {
  /** APPROVED, US_ACH, of the organization itself (as the engine fixture's vaults are). */
  usd: { id: string };
  /** APPROVED, SEPA (EUR). */
  eur: { id: string };
  /** APPROVED, SWIFT: takes USD, EUR or GBP. */
  swift: { id: string };
  pending: { id: string };
  declined: { id: string };
  /** APPROVED, but of a sub-organization: the organization's vaults may not pay it. */
  otherSubOrg: { id: string; subOrgId: string };
  /** A vault of that sub-organization, holding USDC on Ethereum. */
  subOrgVault: { id: string; subOrgId: string };
}

export async function createRampFixture(t: EngineTestApp): Promise<RampFixture> {
  const sub = await createSubOrg(t.db, t.orgId, 'Ramp desk');
  const usd = await createBankAccount(t.db, {
    orgId: t.orgId,
    status: 'APPROVED',
    accountName: 'Acme Treasury LLC',
    accountNumber: '987654321',
  });
  const eur = await createBankAccount(t.db, {
    orgId: t.orgId,
    status: 'APPROVED',
    paymentMethod: 'SEPA',
    accountName: 'Acme GmbH',
    accountNumber: 'DE89370400440532013000',
    routingNumber: null,
    country: 'DE',
  });
  const swift = await createBankAccount(t.db, {
    orgId: t.orgId,
    status: 'APPROVED',
    paymentMethod: 'SWIFT',
    accountName: 'Acme Ltd',
    accountNumber: 'GB29NWBK60161331926819',
    routingNumber: null,
    country: 'GB',
  });
  const pending = await createBankAccount(t.db, { orgId: t.orgId, status: 'PENDING' });
  const declined = await createBankAccount(t.db, { orgId: t.orgId, status: 'DECLINED' });
  const other = await createBankAccount(t.db, {
    orgId: t.orgId,
    subOrgId: sub.id,
    status: 'APPROVED',
    accountName: 'Desk Account',
  });
  const vault = await createVault(t.db, { orgId: t.orgId, subOrgId: sub.id, vaultName: 'Desk' }, [
    { asset: 'USDC', chain: 'ETHEREUM', amount: '1000' },
  ]);
  return {
    usd,
    eur,
    swift,
    pending,
    declined,
    otherSubOrg: { id: other.id, subOrgId: sub.id },
    subOrgVault: { id: vault.id, subOrgId: sub.id },
  };
}

/**
 * A refusal as an SDK sees it: 400, its code and a message (naming `field`
 * when given); its body, to read the rest of.
 */
export function refused(
  res: { status: number; body: Record<string, unknown>; text: string },
  code: string,
  field?: string,
) {
  expect(res.status, res.text).toBe(400);
  expect(res.body).toMatchObject({ code, message: expect.any(String) });
  const body = res.body as {
    message: string;
    code: string;
    fields?: Array<{ field: string; message: string }>;
  };
  if (field) expect(body.fields?.map((f) => f.field)).toContain(field);
  return body;
}

/** The JS SDK's party as getQuote writes it: every key, unset ones null. */
export function jsParty(type: string, id: string | null) {
  return {
    type,
    id,
    name: null,
    address: null,
    provider: null,
    bankDetails: null,
    chain: null,
    paymentRail: null,
  };
}

/** The JS SDK's intent: every key present, unset ones null. */
export function jsIntent(fields: Record<string, unknown>) {
  return {
    source: null,
    destination: null,
    fromAsset: null,
    toAsset: null,
    fromAmount: null,
    fromChain: null,
    fromPaymentRail: null,
    toAmount: null,
    toChain: null,
    toPaymentRail: null,
    ...fields,
  };
}

/** The Python SDK's G1 TransferPartyData, `asdict`: type, id, value. */
export const pythonParty = (type: string, id: string) => ({ type, id, value: null });

/**
 * The ramp tests' Vitest fixtures: the engine's (`t`, `f`, `requests`), then
 * `r` (createRampFixture's bank accounts and sub-organization vault) and
 * `sdk` (an API client calling as either SDK), each made once per file
 * when a test names it.
 */
export const rampTest = engineTest
  .extend('r', { scope: 'file' }, ({ t }) => createRampFixture(t))
  .extend('sdk', { scope: 'file' }, ({ t }) => sdkCaller(t, 'ramp client'));

/** Runs the simulator until the ramp ends (each step a provider's third, TIME_SCALE 1), and reads it. */
export async function runRampToEnd(t: EngineTestApp, id: string): Promise<Transaction> {
  for (let i = 0; i < 20; i += 1) {
    const status = await t.status(id);
    if (status === 'COMPLETED' || status === 'FAILED' || status === 'DECLINED') break;
    await t.run(60 * 60_000);
  }
  return Transaction.parse((await t.get(paths.transaction(id))).body);
}

/** The first (best) quote of a quote answer; a test fails at once on an answer with none. */
export function bestQuote(body: Record<string, unknown>): RampQuote {
  const [first] = RampQuoteResponse.parse(body).quotes;
  if (!first) throw new Error('no quote');
  return first;
}
