import { describe, expect } from 'vitest';
import { cmp, mul, neg, round, sub } from '#contract/decimal.ts';
import { pathOf } from '#contract/endpoint.ts';
import { listBankAccountRamps } from '#contract/endpoints/ramps.ts';
import { paths } from '#contract/paths.ts';
import { RampQuoteResponse, type RampQuote } from '#contract/ramps.ts';
import { Transaction, TransactionListResponse } from '#contract/transaction.ts';
import type { EngineTestApp } from '../../test/engine-test-app.ts';
import {
  INTENT_CREATE_PATH,
  jsIntent,
  jsParty,
  MARK_DEPOSIT_PATH,
  QUOTE_PATH,
  rampTest as it,
  refused,
  runRampToEnd,
  type RampFixture,
} from '../../test/ramp-fixtures.ts';
import type { SdkCaller } from '../../test/sdk-wire.ts';
import { sdkShapeProblems } from '../../test/sdk-required-fields.ts';
import { signInStaff } from '../../test/staff-session.ts';

// FX (fiat to fiat): money from the payer's bank exchanged and paid to an APPROVED
// bank account, with deposit instructions like an on-ramp. Bodies as the JS SDK's getQuote and
// createTransactionFromIntent write them (every intent and party key, unset ones null): the
// fiat-to-fiat intent of horcrux01/primevault_api_sdk_js_public examples/ramp_examples.tsx
// @1d22c70b (source {type: EXTERNAL_BANK_ACCOUNT}, no id; destination BANK_ACCOUNT + id;
// EUR 1000 → USD).

const fxIntent = (r: RampFixture, fields: Record<string, unknown> = {}) =>
  jsIntent({
    source: jsParty('EXTERNAL_BANK_ACCOUNT', null),
    destination: jsParty('BANK_ACCOUNT', r.usd.id),
    fromAsset: 'EUR',
    fromAmount: '1000',
    toAsset: 'USD',
    ...fields,
  });

async function bestQuote(client: SdkCaller, intent: Record<string, unknown>): Promise<RampQuote> {
  const q = await client.call('js', 'POST', QUOTE_PATH, { intent });
  expect(q.status, q.text).toBe(200);
  const best = RampQuoteResponse.parse(q.body).quotes[0];
  if (!best) throw new Error('no quote');
  return best;
}

/** No transaction exists under this externalId: a refused execute made nothing. */
async function noneCreated(t: EngineTestApp, externalId: string) {
  const listed = await t.get(`${paths.transactions()}?externalId=${externalId}`);
  expect(TransactionListResponse.parse(listed.body).results).toEqual([]);
}

describe('FX through the JS SDK', () => {
  it('quotes EUR → USD from every provider, executes, waits for the deposit, pays the account what the deposit buys at the rate it is traded at', async ({
    t,
    f,
    r,
    sdk: client,
  }) => {
    const treasuryBefore = await t.balance(f.treasury.id, 'USDC', 'ETHEREUM');
    const q = await client.call('js', 'POST', QUOTE_PATH, { intent: fxIntent(r) });
    expect(q.status, q.text).toBe(200);
    const { quotes } = RampQuoteResponse.parse(q.body);
    expect(quotes.map((x) => x.sourceName)).toHaveLength(3);
    for (const quote of quotes) {
      expect(quote).toMatchObject({
        kind: 'FX',
        fromAsset: 'EUR',
        toAsset: 'USD',
        finalFromAmount: '1000',
        minFromAmount: '100',
        maxFromAmount: '900000',
        fees: { asset: 'EUR' },
      });
      // What arrives is what is left after the fee, at the quoted rate, rounded down to the cent.
      const traded = sub('1000', quote.fees?.amount ?? '');
      expect(quote.finalToAmount).toBe(round(mul(traded, quote.rate ?? ''), 2, 'down'));
      expect(quote.fromChain).toBeUndefined();
    }
    const arriving = quotes.map((x) => x.finalToAmount ?? '0');
    for (let i = 1; i < arriving.length; i += 1)
      expect(cmp(arriving[i - 1] ?? '0', arriving[i] ?? '0')).toBeGreaterThanOrEqual(0);
    const best = quotes[0] as RampQuote;

    const created = await client.call('js', 'POST', INTENT_CREATE_PATH, {
      intent: null,
      quoteId: best.quoteId,
      externalId: 'fx-1',
      memo: 'EUR receipts to the USD account',
    });
    expect(created.status, created.text).toBe(200);
    expect(sdkShapeProblems('transaction', created.body)).toEqual([]);
    const tx = Transaction.parse(created.body);
    expect(tx).toMatchObject({
      status: 'PENDING',
      category: 'RAMP',
      subCategory: 'TRADE_WITHDRAW',
      transactionType: 'OUTGOING',
      vaultId: '',
      asset: 'USD',
      amount: best.finalToAmount,
      fees: best.fees,
      quoteResponse: { quoteId: best.quoteId },
      intent: { fromPaymentRail: 'SEPA', toPaymentRail: 'ACH' },
      destination: { type: 'BANK_ACCOUNT', id: r.usd.id },
    });
    expect(tx.destination?.bankDetails?.accountNumberMasked).toBe('•••• 4321');
    expect(JSON.stringify(tx)).not.toContain('987654321');
    expect(tx.depositInstructions).toBeUndefined();

    await client.approve('js', tx.id ?? '');
    const approved = Transaction.parse((await t.get(paths.transaction(tx.id ?? ''))).body);
    expect(approved.status).toBe('APPROVED');
    expect(approved.depositInstructions).toMatchObject({
      type: 'BANK_ACCOUNT',
      paymentRail: 'SEPA',
      currency: 'EUR',
      amount: '1000',
      bankDetails: { iban: 'DE89370400440532013000' },
    });
    expect(approved.depositInstructions?.reference).toMatch(/^RAMP-[0-9A-F]{10}$/);
    await t.run(24 * 60 * 60_000);
    expect(await t.status(tx.id ?? '')).toBe('APPROVED');

    const marked = await client.call('js', 'POST', MARK_DEPOSIT_PATH, { transactionId: tx.id });
    expect(marked.status, marked.text).toBe(200);
    expect(marked.body).toMatchObject({ status: 'SUBMITTED' });
    const again = await client.call('js', 'POST', MARK_DEPOSIT_PATH, { transactionId: tx.id });
    refused(again, 'DEPOSIT_ALREADY_MARKED', 'transactionId');

    // Its quote expired a day ago: priced again on what was deposited before the trade.
    const requoted = Transaction.parse(marked.body);
    expect(requoted.requotes?.map((q) => q.when)).toEqual(['EXECUTION']);
    const paid = requoted.quoteResponse?.finalToAmount;
    const done = await runRampToEnd(t, tx.id ?? '');
    expect(done.status).toBe('COMPLETED');
    expect(done.txHash).toBeUndefined();
    expect(done.operations?.map((o) => [o.type, o.status])).toEqual([
      ['DEPOSIT', 'COMPLETED'],
      ['TRADE', 'COMPLETED'],
      ['WITHDRAW', 'COMPLETED'],
    ]);
    expect(done.balanceChanges?.changes).toEqual([
      expect.objectContaining({
        party: expect.objectContaining({ type: 'EXTERNAL_BANK_ACCOUNT' }),
        asset: 'EUR',
        amount: neg('1000'),
      }),
      expect.objectContaining({
        party: expect.objectContaining({ type: 'BANK_ACCOUNT', id: r.usd.id }),
        asset: 'USD',
        amount: paid,
      }),
    ]);
    // No vault takes part.
    expect(await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).toEqual(treasuryBefore);

    const listed = await t.get(`${pathOf(listBankAccountRamps, { bankAccountId: r.usd.id })}`);
    expect(TransactionListResponse.parse(listed.body).results.map((x) => x.id)).toContain(tx.id);
    const filtered = await t.get(`${paths.transactions()}?category=RAMP`);
    expect(TransactionListResponse.parse(filtered.body).results.map((x) => x.id)).toEqual([tx.id]);
  });

  it('GBP paid to a SWIFT account in EUR, the amount to arrive given (the fee added on top)', async ({
    r,
    sdk: client,
  }) => {
    const best = await bestQuote(
      client,
      fxIntent(r, {
        destination: jsParty('BANK_ACCOUNT', r.swift.id),
        fromAsset: 'GBP',
        fromAmount: null,
        toAsset: 'EUR',
        toAmount: '2500',
        fromPaymentRail: 'SWIFT',
      }),
    );
    expect(best.finalToAmount).toBe('2500');
    expect(best.minFromAmount).toBe('100');
    expect(best.maxFromAmount).toBe('750000');
    expect(cmp(best.finalFromAmount ?? '0', '2500')).toBe(-1);
  });
});

describe('FX refused, nothing created', () => {
  it('a PENDING or DECLINED account, naming the field', async ({ r, sdk: client }) => {
    for (const id of [r.pending.id, r.declined.id]) {
      const res = await client.call('js', 'POST', QUOTE_PATH, {
        intent: fxIntent(r, { destination: jsParty('BANK_ACCOUNT', id) }),
      });
      refused(res, 'BANK_ACCOUNT_NOT_APPROVED', 'intent.destination.id');
    }
  });

  it('an account of another sub-organization than the one asked for (API client: 400)', async ({
    r,
    sdk: client,
  }) => {
    const res = await client.call('js', 'POST', QUOTE_PATH, {
      intent: fxIntent(r),
      subOrgId: r.otherSubOrg.subOrgId,
    });
    refused(res, 'BANK_ACCOUNT_OTHER_SUB_ORG', 'subOrgId');
  });

  it('a member restricted to a sub-organization: an account outside it is not found (404); its own is priced there', async ({
    t,
    r,
  }) => {
    const desk = await signInStaff(t.app, t.db, t.authClock, {
      role: 'initiator',
      subOrgIds: [r.otherSubOrg.subOrgId],
    });
    const post = (intent: unknown) => ({
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ intent }),
    });
    const outside = await desk.json(QUOTE_PATH, post(fxIntent(r)));
    expect(outside).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const own = await desk.json(
      QUOTE_PATH,
      post(fxIntent(r, { destination: jsParty('BANK_ACCOUNT', r.otherSubOrg.id) })),
    );
    expect(own.status).toBe(200);
    expect(RampQuoteResponse.parse(own.body).quotes[0]?.subOrgId).toBe(r.otherSubOrg.subOrgId);
  });

  it('under the pair’s minimum and over its maximum, naming both bounds', async ({
    r,
    sdk: client,
  }) => {
    const low = refused(
      await client.call('js', 'POST', QUOTE_PATH, { intent: fxIntent(r, { fromAmount: '50' }) }),
      'AMOUNT_BELOW_MINIMUM',
      'intent.fromAmount',
    );
    expect(low.message).toMatch(/EUR → USD takes at least 100 EUR \(and at most 900000\)/);
    const high = refused(
      await client.call('js', 'POST', QUOTE_PATH, {
        intent: fxIntent(r, {
          destination: jsParty('BANK_ACCOUNT', r.swift.id),
          fromAsset: 'GBP',
          fromAmount: '800000',
        }),
      }),
      'AMOUNT_ABOVE_MAXIMUM',
      'intent.fromAmount',
    );
    expect(high.message).toMatch(/at most 750000 GBP/);
  });

  it('parties and fields an FX does not take', async ({ f, r, sdk: client }) => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ source: jsParty('VAULT', f.treasury.id) }, 'UNSUPPORTED_ROUTE', 'intent.source.type'],
      [
        { source: jsParty('EXTERNAL_BANK_ACCOUNT', r.eur.id) },
        'UNSUPPORTED_ROUTE',
        'intent.source.id',
      ],
      [{ destination: jsParty('VAULT', f.treasury.id) }, 'INVALID_DESTINATION_TYPE', ''],
      [{ fromChain: 'ETHEREUM' }, 'UNSUPPORTED_ROUTE', 'intent.fromChain'],
      [{ toAsset: 'EUR', destination: jsParty('BANK_ACCOUNT', r.usd.id) }, 'UNSUPPORTED_ROUTE', ''],
      [{ toPaymentRail: 'SEPA' }, 'PAYMENT_RAIL_MISMATCH', 'intent.toPaymentRail'],
      [{ fromAmount: '1000.001' }, 'AMOUNT_PRECISION', 'intent.fromAmount'],
    ];
    for (const [fields, code, field] of cases) {
      const res = await client.call('js', 'POST', QUOTE_PATH, { intent: fxIntent(r, fields) });
      refused(res, code, field || undefined);
    }
  });

  it('an expired quote, and a quote used once already', async ({ t, r, sdk: client }) => {
    const stale = await bestQuote(client, fxIntent(r));
    t.clock.advance(60_000);
    const expired = await client.call('js', 'POST', INTENT_CREATE_PATH, {
      intent: null,
      quoteId: stale.quoteId,
      externalId: 'fx-expired',
      memo: null,
    });
    refused(expired, 'QUOTE_EXPIRED', 'quoteId');
    await noneCreated(t, 'fx-expired');

    const fresh = await bestQuote(client, fxIntent(r));
    const first = await client.call('js', 'POST', INTENT_CREATE_PATH, {
      intent: null,
      quoteId: fresh.quoteId,
      externalId: 'fx-once',
      memo: null,
    });
    expect(first.status, first.text).toBe(200);
    const reused = await client.call('js', 'POST', INTENT_CREATE_PATH, {
      intent: null,
      quoteId: fresh.quoteId,
      externalId: 'fx-twice',
      memo: null,
    });
    refused(reused, 'QUOTE_ALREADY_USED', 'quoteId');
    await noneCreated(t, 'fx-twice');
  });

  it('a deposit marked before approval', async ({ r, sdk: client }) => {
    const best = await bestQuote(client, fxIntent(r));
    const created = await client.call('js', 'POST', INTENT_CREATE_PATH, {
      intent: null,
      quoteId: best.quoteId,
      externalId: 'fx-early-mark',
      memo: null,
    });
    expect(created.status, created.text).toBe(200);
    const early = await client.call('js', 'POST', MARK_DEPOSIT_PATH, {
      transactionId: created.body.id,
    });
    expect(refused(early, 'NOT_AWAITING_DEPOSIT', 'transactionId').message).toContain(
      'must be approved',
    );
  });
});
