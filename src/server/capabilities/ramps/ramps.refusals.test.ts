import { describe, expect } from 'vitest';
import { paths } from '#contract/paths.ts';
import { RampQuoteResponse } from '#contract/ramps.ts';
import type { EngineFixture, EngineTestApp } from '../../test/engine-test-app.ts';
import {
  INTENT_CREATE_PATH,
  MARK_DEPOSIT_PATH,
  QUOTE_PATH,
  rampTest,
  refused,
  type RampFixture,
} from '../../test/ramp-fixtures.ts';
import type { SdkCaller } from '../../test/sdk-wire.ts';
import { treasuryToOps } from '../../test/create-requests.ts';

// Every refusal is a 400 or 403 with {message, code}, what the SDKs can catch, and nothing is held.

/** This file's helpers, over the ramp fixtures: an off-ramp intent, its best quote, no hold. */
function helpers({
  t,
  f,
  r,
  sdk: client,
}: {
  t: EngineTestApp;
  f: EngineFixture;
  r: RampFixture;
  sdk: SdkCaller;
}) {
  const offRamp = (fields: Record<string, unknown> = {}) => ({
    intent: {
      source: { type: 'VAULT', id: f.treasury.id },
      destination: { type: 'BANK_ACCOUNT', id: r.usd.id },
      fromAsset: 'USDC',
      fromAmount: '100',
      fromChain: 'ETHEREUM',
      toAsset: 'USD',
      ...fields,
    },
  });
  return {
    offRamp,
    async quoteId(body = offRamp()): Promise<string> {
      const q = await client.call('js', 'POST', QUOTE_PATH, body);
      expect(q.status, q.text).toBe(200);
      return RampQuoteResponse.parse(q.body).quotes[0]?.quoteId ?? '';
    },
    /** Nothing held on the treasury's USDC, whatever was refused. */
    async nothingHeld() {
      expect((await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).held).toBe('0');
    },
  };
}

const it = rampTest.extend('h', { scope: 'file' }, helpers);

describe('quotes refused', () => {
  it('a PENDING bank account, naming the field', async ({ r, sdk: client, h }) => {
    const res = await client.call('js', 'POST', QUOTE_PATH, {
      intent: { ...h.offRamp().intent, destination: { type: 'BANK_ACCOUNT', id: r.pending.id } },
    });
    const body = refused(res, 'BANK_ACCOUNT_NOT_APPROVED');
    expect(body.fields?.[0]?.field).toBe('intent.destination.id');
    expect(body.message).toContain('PENDING');
  });

  it('an account of another sub-organization than the vault', async ({ r, sdk: client, h }) => {
    const res = await client.call('js', 'POST', QUOTE_PATH, {
      intent: {
        ...h.offRamp().intent,
        destination: { type: 'BANK_ACCOUNT', id: r.otherSubOrg.id },
      },
    });
    refused(res, 'BANK_ACCOUNT_OTHER_SUB_ORG');
  });

  it('under the pair’s minimum and over its maximum, naming both bounds', async ({
    sdk: client,
    h,
  }) => {
    const low = refused(
      await client.call('js', 'POST', QUOTE_PATH, h.offRamp({ fromAmount: '5' })),
      'AMOUNT_BELOW_MINIMUM',
    );
    expect(low.fields?.[0]?.field).toBe('intent.fromAmount');
    expect(low.message).toMatch(/at least 10 USDC.*at most 1000000/);
    refused(
      await client.call('js', 'POST', QUOTE_PATH, h.offRamp({ fromAmount: '2000000' })),
      'AMOUNT_ABOVE_MAXIMUM',
    );
  });

  it('over the vault’s balance (5000 USDC)', async ({ sdk: client, h }) => {
    const res = await client.call('js', 'POST', QUOTE_PATH, h.offRamp({ fromAmount: '6000' }));
    expect(refused(res, 'INSUFFICIENT_BALANCE').message).toContain('can spend 5000 USDC');
  });

  it('a flow the sandbox does not serve, both amounts, no amount, a rail the account does not use', async ({
    f,
    sdk: client,
    h,
  }) => {
    refused(
      await client.call('js', 'POST', QUOTE_PATH, h.offRamp({ toAsset: 'JPY' })),
      'UNSUPPORTED_ROUTE',
    );
    const both = refused(
      await client.call('js', 'POST', QUOTE_PATH, h.offRamp({ toAmount: '50' })),
      'VALIDATION_ERROR',
    );
    expect(both.message).toContain('give fromAmount or toAmount, not both');
    refused(
      await client.call('js', 'POST', QUOTE_PATH, h.offRamp({ fromAmount: null })),
      'VALIDATION_ERROR',
    );
    refused(
      await client.call('js', 'POST', QUOTE_PATH, h.offRamp({ toPaymentRail: 'SEPA' })),
      'PAYMENT_RAIL_MISMATCH',
    );
    const fiatVault = await client.call('js', 'POST', QUOTE_PATH, {
      intent: {
        source: { type: 'VAULT', id: f.treasury.id },
        destination: { type: 'VAULT', id: f.treasury.id },
        fromAsset: 'USD',
        toAsset: 'USDC',
        toAmount: '50',
        toChain: 'ETHEREUM',
      },
    });
    refused(fiatVault, 'UNSUPPORTED_ROUTE');
    await h.nothingHeld();
  });
});

describe('executes refused, nothing held', () => {
  it('an expired quote (60 s)', async ({ t, sdk: client, h }) => {
    const id = await h.quoteId();
    t.clock.advance(60_000);
    const res = await client.call('js', 'POST', INTENT_CREATE_PATH, {
      quoteId: id,
      externalId: 'expired-1',
    });
    expect(refused(res, 'QUOTE_EXPIRED').fields?.[0]?.field).toBe('quoteId');
    await h.nothingHeld();
  });

  it('a quote used once already, and two executes at once make one ramp', async ({
    t,
    f,
    sdk: client,
    h,
  }) => {
    const id = await h.quoteId();
    const [a, b] = await Promise.all([
      client.call('js', 'POST', INTENT_CREATE_PATH, { quoteId: id, externalId: 'race-a' }),
      client.call('js', 'POST', INTENT_CREATE_PATH, { quoteId: id, externalId: 'race-b' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    const loser = a.status === 400 ? a : b;
    refused(loser, 'QUOTE_ALREADY_USED');
    const again = await client.call('js', 'POST', INTENT_CREATE_PATH, { quoteId: id });
    refused(again, 'QUOTE_ALREADY_USED');
    // One hold, the winner's.
    expect((await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).held).toBe('100');
    const winner = a.status === 200 ? a : b;
    expect(await t.decline(String(winner.body.id), 'test')).toBe(true);
    await h.nothingHeld();
  });

  it('a quote of another organization is not found; one without a quote is QUOTE_REQUIRED', async ({
    f,
    r,
    sdk: client,
    h,
  }) => {
    refused(
      await client.call('js', 'POST', INTENT_CREATE_PATH, { quoteId: 'no-such-quote' }),
      'QUOTE_NOT_FOUND',
    );
    refused(
      await client.call('js', 'POST', INTENT_CREATE_PATH, {
        intent: h.offRamp().intent,
        quoteId: null,
      }),
      'QUOTE_REQUIRED',
    );
    refused(
      await client.call('python', 'POST', paths.transactions(), {
        source: { type: 'VAULT', id: f.treasury.id, value: null },
        destination: { type: 'EXTERNAL_BANK_ACCOUNT', id: r.usd.id, value: null },
        category: 'OFF_RAMP',
        externalId: null,
        memo: null,
      }),
      'VALIDATION_ERROR',
    );
  });

  it('an intent that is not the quote’s, naming each field', async ({ t, r, sdk: client, h }) => {
    const id = await h.quoteId();
    const res = await client.call('js', 'POST', INTENT_CREATE_PATH, {
      intent: {
        ...h.offRamp().intent,
        fromAmount: '120',
        destination: { type: 'BANK_ACCOUNT', id: r.eur.id },
      },
      quoteId: id,
    });
    const body = refused(res, 'QUOTE_MISMATCH');
    expect(body.fields?.map((x) => x.field).sort()).toEqual([
      'intent.destination.id',
      'intent.fromAmount',
    ]);
    // Refused before use: the quote still executes as quoted.
    const ok = await client.call('js', 'POST', INTENT_CREATE_PATH, {
      intent: h.offRamp().intent,
      quoteId: id,
    });
    expect(ok.status, ok.text).toBe(200);
    expect(await t.decline(String(ok.body.id))).toBe(true);
    await h.nothingHeld();
  });

  it('a quote priced for another sub-organization than the body names', async ({
    r,
    sdk: client,
    h,
  }) => {
    const id = await h.quoteId();
    const res = await client.call('python', 'POST', INTENT_CREATE_PATH, {
      intent: null,
      quoteId: id,
      externalId: null,
      memo: null,
      subOrgId: r.subOrgVault.subOrgId,
    });
    refused(res, 'QUOTE_OUT_OF_SCOPE');
  });

  it('over the balance at execute time (spent since the quote): INSUFFICIENT_BALANCE, nothing held', async ({
    t,
    f,
    sdk: client,
    h,
  }) => {
    const first = await h.quoteId(h.offRamp({ fromAmount: '3000' }));
    const second = await h.quoteId(h.offRamp({ fromAmount: '3000' }));
    const ok = await client.call('js', 'POST', INTENT_CREATE_PATH, { quoteId: first });
    expect(ok.status, ok.text).toBe(200);
    const res = await client.call('js', 'POST', INTENT_CREATE_PATH, { quoteId: second });
    refused(res, 'INSUFFICIENT_BALANCE');
    expect((await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).held).toBe('3000');
    // Declined: the hold is released.
    expect(await t.decline(String(ok.body.id), 'not today')).toBe(true);
    await h.nothingHeld();
    // The refused execute did not use its quote.
    const retry = await client.call('js', 'POST', INTENT_CREATE_PATH, { quoteId: second });
    expect(retry.status, retry.text).toBe(200);
    expect(await t.decline(String(retry.body.id))).toBe(true);
  });

  it('a provider failure releases the hold and moves nothing', async ({ t, f, sdk: client, h }) => {
    const before = await t.balance(f.treasury.id, 'USDC', 'ETHEREUM');
    const id = await h.quoteId();
    const created = await client.call('js', 'POST', INTENT_CREATE_PATH, {
      quoteId: id,
      memo: 'test [simulate:ramp-fail]',
    });
    expect(created.status, created.text).toBe(200);
    await client.approve('js', String(created.body.id));
    for (let i = 0; i < 6; i += 1) await t.run(60 * 60_000);
    const got = await t.get(paths.transaction(String(created.body.id)));
    expect(got.body).toMatchObject({
      status: 'FAILED',
      error: expect.stringContaining('could not complete'),
    });
    expect((got.body.operations as Array<{ status: string }>).map((o) => o.status)).toEqual([
      'REVERSED',
      'FAILED',
      'CANCELLED',
    ]);
    expect(await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).toEqual(before);
  });
});

describe('mark_deposit_done refused', () => {
  it('on an off-ramp, before approval, twice', async ({ t, f, sdk: client, h }) => {
    const off = await client.call('js', 'POST', INTENT_CREATE_PATH, { quoteId: await h.quoteId() });
    refused(
      await client.call('js', 'POST', MARK_DEPOSIT_PATH, { transactionId: off.body.id }),
      'NOT_AWAITING_DEPOSIT',
    );
    expect(await t.decline(String(off.body.id))).toBe(true);
    const q = await client.call('js', 'POST', QUOTE_PATH, {
      intent: {
        destination: { type: 'VAULT', id: f.treasury.id },
        fromAsset: 'EUR',
        fromAmount: '100',
        toAsset: 'USDC',
        toChain: 'ETHEREUM',
      },
    });
    expect(q.status, q.text).toBe(200);
    const on = await client.call('js', 'POST', INTENT_CREATE_PATH, {
      quoteId: RampQuoteResponse.parse(q.body).quotes[0]?.quoteId,
    });
    const pending = refused(
      await client.call('js', 'POST', MARK_DEPOSIT_PATH, { transactionId: on.body.id }),
      'NOT_AWAITING_DEPOSIT',
    );
    expect(pending.message).toContain('PENDING');
    await client.approve('js', String(on.body.id));
    const got = await t.get(paths.transaction(String(on.body.id)));
    expect(got.body.depositInstructions).toMatchObject({ paymentRail: 'SEPA', currency: 'EUR' });
    expect(
      (await client.call('js', 'POST', MARK_DEPOSIT_PATH, { transactionId: on.body.id })).status,
    ).toBe(200);
    refused(
      await client.call('js', 'POST', MARK_DEPOSIT_PATH, { transactionId: on.body.id }),
      'DEPOSIT_ALREADY_MARKED',
    );
  });
});

describe('replacing a transaction that cannot be replaced', () => {
  it('a COMPLETED transaction: 400 NOT_REPLACEABLE_STATUS (was 409), naming transactionId', async ({
    t,
    f,
    sdk: client,
  }) => {
    const created = await client.call('js', 'POST', paths.transactions(), treasuryToOps(f, '0.1'));
    expect(created.status, created.text).toBe(200);
    await client.approve('js', String(created.body.id));
    for (let i = 0; i < 6; i += 1) await t.run(60 * 60_000);
    expect(await t.status(String(created.body.id))).toBe('COMPLETED');
    const res = await client.call('python', 'POST', paths.replaceTransaction(), {
      transactionId: created.body.id,
    });
    expect(refused(res, 'NOT_REPLACEABLE_STATUS').fields?.[0]?.field).toBe('transactionId');
  });
});
