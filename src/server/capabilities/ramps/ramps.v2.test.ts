import { describe, expect } from 'vitest';
import { sub } from '#contract/decimal.ts';
import { RampQuote } from '#contract/ramps.ts';
import { Transaction } from '#contract/transaction.ts';
import { INTENT_CREATE_PATH, rampTest as it, runRampToEnd } from '../../test/ramp-fixtures.ts';
import { sdkShapeProblems } from '../../test/sdk-required-fields.ts';

// The newest generation (G3) of the JS SDK and the Python SDK's v2, as each builds its bodies:
// - JS: getQuote posts `{intent: {input, output, source?, destination?}}` to v2/quote/ (undefined
//   keys dropped, no nulls) and reads `{quotes: [{quoteId, rate, fees, input, output, source,
//   destination, expiresAt}]}`; createTransactionFromIntent posts `{intent: null, quoteId,
//   externalId, memo}` to intent/create/ (horcrux01/primevault_api_sdk_js_public
//   tests/apiClient.intent.test.ts, the v2 generation: store id 70188691399, whose commit the
//   store does not name; src/apiClient.ts store id 70720110263).
// - Python: get_quote posts the G2 intent (parties as asdict, unset keys null) to v2/quote/ and
//   reads a bare list; create_transaction_from_intent posts `{intent, quoteId, externalId, memo}`
//   to execute/ (horcrux01/primevault_api_sdk_public primevault_python_sdk/api_client.py, store
//   id 59096450187).
const V2_QUOTE_PATH = '/api/external/transactions/v2/quote/';
const EXECUTE_PATH = '/api/external/transactions/execute/';

/** The Python SDK's v2 party, `asdict`: every key, unset ones null. */
const pyParty = (type: string, id: string | null) => ({
  type,
  id,
  subOrgId: null,
  name: null,
  address: null,
  provider: null,
  bankDetails: null,
  chain: null,
  paymentRail: null,
});

describe('JS SDK, newest generation (v2 quote)', () => {
  it('quotes an off-ramp as {input, output}, executes the quote, approves, COMPLETED with the vault debited input.amount', async ({
    t,
    f,
    r,
    sdk: client,
  }) => {
    const before = await t.balance(f.treasury.id, 'USDC', 'ETHEREUM');
    const intent = {
      input: { asset: 'USDC', amount: '300' },
      output: { asset: 'USD' },
      source: { type: 'VAULT', id: f.treasury.id, chain: 'ETHEREUM' },
      destination: { type: 'BANK_ACCOUNT', id: r.usd.id, paymentRail: 'ACH' },
    };
    const q = await client.call('js', 'POST', V2_QUOTE_PATH, { intent });
    expect(q.status, q.text).toBe(200);
    const quotes = (q.body as { quotes: unknown[] }).quotes.map((x) => RampQuote.parse(x));
    expect(quotes).toHaveLength(3);
    const best = quotes[0] as RampQuote;
    expect(best).toMatchObject({
      input: { asset: 'USDC', amount: '300', vaultId: f.treasury.id },
      output: { asset: 'USD', amount: best.finalToAmount },
      source: { type: 'VAULT', id: f.treasury.id },
      destination: { type: 'BANK_ACCOUNT', id: r.usd.id },
      fees: { asset: 'USDC' },
    });
    expect(Date.parse(best.expiresAt ?? '') - t.clock.now().getTime()).toBe(60_000);

    const created = await client.call('js', 'POST', INTENT_CREATE_PATH, {
      intent: null,
      quoteId: best.quoteId,
      externalId: 'v2-js-off-ramp',
      memo: 'trade from quote',
    });
    expect(created.status, created.text).toBe(200);
    const tx = Transaction.parse(created.body);
    expect(tx).toMatchObject({ status: 'PENDING', category: 'OFF_RAMP' });
    await client.approve('js', tx.id ?? '');
    const done = await runRampToEnd(t, tx.id ?? '');
    expect(done.status).toBe('COMPLETED');
    expect(await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).toEqual({
      amount: sub(before.amount, '300'),
      held: before.held,
    });
  });

  it('names the refused field where G3 puts it', async ({ f, r, sdk: client }) => {
    const offRamp = (input: Record<string, unknown>) => ({
      intent: {
        input: { asset: 'USDC', ...input },
        output: { asset: 'USD' },
        source: { type: 'VAULT', id: f.treasury.id, chain: 'ETHEREUM' },
        destination: { type: 'BANK_ACCOUNT', id: r.usd.id },
      },
    });
    const low = await client.call('js', 'POST', V2_QUOTE_PATH, offRamp({ amount: '5' }));
    expect(low.status, low.text).toBe(400);
    expect(low.body).toMatchObject({
      code: 'AMOUNT_BELOW_MINIMUM',
      fields: [{ field: 'intent.input.amount' }],
    });
    expect(String(low.body.message)).toMatch(/^intent\.input\.amount: /);

    const neither = await client.call('js', 'POST', V2_QUOTE_PATH, offRamp({}));
    expect(neither.status, neither.text).toBe(400);
    expect(String(neither.body.message)).toContain('intent.input.amount is required');

    // A fiat vault (the SDK's on-ramp example): the sandbox holds no fiat in vaults.
    const fiatVault = await client.call('js', 'POST', V2_QUOTE_PATH, {
      intent: {
        input: { asset: 'USD', vaultId: f.treasury.id },
        output: { asset: 'USDC', amount: '100', vaultId: f.treasury.id },
        destination: { type: 'VAULT', id: f.treasury.id, chain: 'ETHEREUM' },
      },
    });
    expect(fiatVault.status, fiatVault.text).toBe(400);
    expect(fiatVault.body).toMatchObject({
      code: 'UNSUPPORTED_ROUTE',
      fields: [{ field: 'intent.input.vaultId' }],
    });
  });

  it('an intent sent with its quote must be the quote’s, named in G3’s words', async ({
    f,
    r,
    sdk: client,
  }) => {
    const intent = {
      input: { asset: 'USDC', amount: '200' },
      output: { asset: 'USD' },
      source: { type: 'VAULT', id: f.treasury.id, chain: 'ETHEREUM' },
      destination: { type: 'BANK_ACCOUNT', id: r.usd.id },
    };
    const q = await client.call('js', 'POST', V2_QUOTE_PATH, { intent });
    const quoteId = (q.body as { quotes: Array<{ quoteId: string }> }).quotes[0]?.quoteId;
    const res = await client.call('js', 'POST', INTENT_CREATE_PATH, {
      intent: { ...intent, input: { asset: 'USDC', amount: '250' } },
      quoteId,
      externalId: 'v2-mismatch',
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({
      code: 'QUOTE_MISMATCH',
      fields: [{ field: 'intent.input.amount' }],
    });
  });
});

describe('Python SDK v2 (get_quote on v2/quote/, execute/)', () => {
  it('answers a bare list of quotes and executes at execute/, approved by its usual message, COMPLETED', async ({
    t,
    f,
    r,
    sdk: client,
  }) => {
    const before = await t.balance(f.treasury.id, 'USDC', 'ETHEREUM');
    const intent = {
      source: pyParty('VAULT', f.treasury.id),
      destination: pyParty('BANK_ACCOUNT', r.usd.id),
      fromAsset: 'USDC',
      toAsset: 'USD',
      fromAmount: '150',
      fromChain: 'ETHEREUM',
      fromPaymentRail: null,
      toAmount: null,
      toChain: null,
      toPaymentRail: null,
    };
    const q = await client.call('python', 'POST', V2_QUOTE_PATH, { intent });
    expect(q.status, q.text).toBe(200);
    expect(Array.isArray(q.body)).toBe(true);
    const best = RampQuote.parse((q.body as unknown as unknown[])[0]);
    expect(best).toMatchObject({ finalFromAmount: '150', fees: { asset: 'USDC' } });

    const created = await client.call('python', 'POST', EXECUTE_PATH, {
      intent,
      quoteId: best.quoteId,
      externalId: 'v2-py-off-ramp',
      memo: null,
    });
    expect(created.status, created.text).toBe(200);
    expect(sdkShapeProblems('transaction', created.body)).toEqual([]);
    const id = String(created.body.id);
    await client.approve('python', id);
    expect((await runRampToEnd(t, id)).status).toBe('COMPLETED');
    expect((await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).amount).toBe(
      sub(before.amount, '150'),
    );
  });
});
