import { describe, expect } from 'vitest';
import { add, sub } from '#contract/decimal.ts';
import { paths } from '#contract/paths.ts';
import { RampQuoteResponse, type RampQuote } from '#contract/ramps.ts';
import { Transaction } from '#contract/transaction.ts';
import {
  bestQuote,
  INTENT_CREATE_PATH,
  jsIntent,
  jsParty,
  MARK_DEPOSIT_PATH,
  pythonParty,
  QUOTE_PATH,
  rampTest,
  refused,
  runRampToEnd,
} from '../../test/ramp-fixtures.ts';
import { sdkShapeProblems } from '../../test/sdk-required-fields.ts';

// The Python SDK's ramp examples as written (examples/off_ramp_example.py,
// examples/ramp_example.py): an off-ramp quoted on its source alone, its bank
// account named at create; the create carrying the quote request and answer
// (`onRampRequestData`, `onRampResponseData`) instead of a quoteId; and the
// on-ramp's `source.bank` telling the payer where the money goes.
const it = rampTest;

/** The Python SDK's RampQuoteRequest, `asdict`: every field, unset ones null. */
function pythonQuoteRequest(fields: Record<string, unknown>) {
  return {
    fromAsset: null,
    fromAmount: null,
    toAsset: null,
    category: null,
    source: null,
    destination: null,
    fromChain: null,
    toChain: null,
    paymentMethod: null,
    ...fields,
  };
}

/** One quote as the Python SDK's RampQuoteResponse(Item) keeps it, `asdict`. */
function pythonQuoteItem(quote: RampQuote) {
  return {
    finalToAmount: quote.finalToAmount,
    quoteId: quote.quoteId,
    fees: { amount: quote.fees?.amount ?? null, asset: quote.fees?.asset ?? null },
    sourceName: quote.sourceName,
    quoteResponseDict: {},
  };
}

describe('off-ramp quoted without a destination, its bank account named at create', () => {
  it('off_ramp_example.py: get_ramp_quote on the source alone, create_off_ramp_transaction naming the approved account, COMPLETED', async ({
    t,
    f,
    r,
    sdk: client,
  }) => {
    const before = await t.balance(f.treasury.id, 'USDC', 'ETHEREUM');
    const request = pythonQuoteRequest({
      source: pythonParty('VAULT', f.treasury.id),
      fromAsset: 'USDC',
      toAsset: 'USD',
      fromAmount: '100',
      category: 'OFF_RAMP',
      paymentMethod: 'US_ACH',
      fromChain: 'ETHEREUM',
    });
    const q = await client.call('python', 'POST', QUOTE_PATH, request);
    expect(q.status, q.text).toBe(200);
    const quote = bestQuote(q.body);
    expect(quote).toMatchObject({ finalFromAmount: '100', fees: { asset: 'USDC' } });
    // Nothing is held by a quote.
    expect((await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).held).toBe(before.held);

    const created = await client.call('python', 'POST', paths.transactions(), {
      source: pythonParty('VAULT', f.treasury.id),
      destination: pythonParty('EXTERNAL_BANK_ACCOUNT', r.usd.id),
      onRampRequestData: request,
      onRampResponseData: pythonQuoteItem(quote),
      category: 'OFF_RAMP',
      externalId: 'py-example-off-ramp',
      memo: 'off ramp example',
    });
    expect(created.status, created.text).toBe(200);
    expect(sdkShapeProblems('transaction', created.body)).toEqual([]);
    const tx = Transaction.parse(created.body);
    expect(tx).toMatchObject({
      status: 'PENDING',
      category: 'OFF_RAMP',
      asset: 'USDC',
      amount: '100',
      quoteResponse: { quoteId: quote.quoteId },
      destination: { type: 'EXTERNAL_BANK_ACCOUNT', id: r.usd.id, paymentRail: 'ACH' },
    });
    // The example reads the account paid from `destination.bank`: masked like every customer's account.
    expect(created.body['destination']).toMatchObject({
      bank: {
        bankName: expect.any(String),
        beneficiaryName: 'Acme Treasury LLC',
        accountNumberMasked: '•••• 4321',
        paymentRail: 'US_ACH',
        currency: 'USD',
      },
    });
    expect(created.text).not.toContain('987654321');
    expect((await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).held).toBe(add(before.held, '100'));

    await client.approve('python', tx.id ?? '');
    const done = await runRampToEnd(t, tx.id ?? '');
    expect(done.status).toBe('COMPLETED');
    expect(await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).toEqual({
      amount: sub(before.amount, '100'),
      held: before.held,
    });
    expect(done.destination?.id).toBe(r.usd.id);
  });

  it('the JS intent quoted without a destination executes with one; an execute naming none is refused', async ({
    t,
    f,
    r,
    sdk: client,
  }) => {
    const intent = jsIntent({
      source: jsParty('VAULT', f.treasury.id),
      fromAsset: 'USDC',
      fromAmount: '50',
      fromChain: 'ETHEREUM',
      toAsset: 'EUR',
    });
    const q = await client.call('js', 'POST', QUOTE_PATH, { intent });
    expect(q.status, q.text).toBe(200);
    const quoteId = bestQuote(q.body).quoteId;
    refused(
      await client.call('js', 'POST', INTENT_CREATE_PATH, { intent: null, quoteId }),
      'VALIDATION_ERROR',
      'intent.destination',
    );
    const created = await client.call('js', 'POST', INTENT_CREATE_PATH, {
      intent: { ...intent, destination: jsParty('BANK_ACCOUNT', r.eur.id) },
      quoteId,
      externalId: 'js-off-ramp-late-account',
      memo: null,
    });
    expect(created.status, created.text).toBe(200);
    const tx = Transaction.parse(created.body);
    expect(tx.destination).toMatchObject({
      type: 'BANK_ACCOUNT',
      id: r.eur.id,
      paymentRail: 'SEPA',
    });
    expect(tx.intent?.destination?.id).toBe(r.eur.id);
    expect(await t.decline(tx.id ?? '', 'test')).toBe(true);
  });

  it('the account named at create is checked there: approved, of the vault’s sub-organization, the rail quoted, the currency; nothing held, the quote still usable', async ({
    t,
    f,
    r,
    sdk: client,
  }) => {
    const before = await t.balance(f.treasury.id, 'USDC', 'ETHEREUM');
    const quoteFor = async (paymentMethod: string | null) => {
      const request = pythonQuoteRequest({
        source: pythonParty('VAULT', f.treasury.id),
        fromAsset: 'USDC',
        toAsset: 'USD',
        fromAmount: '100',
        category: 'OFF_RAMP',
        paymentMethod,
        fromChain: 'ETHEREUM',
      });
      const q = await client.call('python', 'POST', QUOTE_PATH, request);
      expect(q.status, q.text).toBe(200);
      return { request, quote: bestQuote(q.body) };
    };
    const create = (
      quoted: { request: Record<string, unknown>; quote: RampQuote },
      accountId: string,
    ) =>
      client.call('python', 'POST', paths.transactions(), {
        source: pythonParty('VAULT', f.treasury.id),
        destination: pythonParty('EXTERNAL_BANK_ACCOUNT', accountId),
        onRampRequestData: quoted.request,
        onRampResponseData: pythonQuoteItem(quoted.quote),
        category: 'OFF_RAMP',
        externalId: null,
        memo: null,
      });
    const ach = await quoteFor('US_ACH');
    refused(await create(ach, r.pending.id), 'BANK_ACCOUNT_NOT_APPROVED', 'destination.id');
    refused(await create(ach, r.declined.id), 'BANK_ACCOUNT_NOT_APPROVED', 'destination.id');
    refused(await create(ach, 'no-such-account'), 'UNKNOWN_BANK_ACCOUNT', 'destination.id');
    refused(await create(ach, r.otherSubOrg.id), 'BANK_ACCOUNT_OTHER_SUB_ORG', 'destination.id');
    // Quoted for ACH: a SWIFT account, though it takes USD, is not the rail priced.
    refused(await create(ach, r.swift.id), 'PAYMENT_RAIL_MISMATCH', 'destination.id');
    // Quoted without a rail: any rail carrying USD, but not a SEPA account (EUR only).
    const anyRail = await quoteFor(null);
    refused(await create(anyRail, r.eur.id), 'UNSUPPORTED_ROUTE', 'destination.id');
    expect((await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).held).toBe(before.held);

    // Each refusal left its quote unused.
    const ok = await create(ach, r.usd.id);
    expect(ok.status, ok.text).toBe(200);
    const swift = await create(anyRail, r.swift.id);
    expect(swift.status, swift.text).toBe(200);
    expect(Transaction.parse(swift.body).destination).toMatchObject({ paymentRail: 'SWIFT' });
    for (const made of [ok, swift])
      expect(await t.decline(String(made.body['id']), 'test')).toBe(true);
    expect((await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).held).toBe(before.held);
  });
});

describe('on-ramp as ramp_example.py writes it', () => {
  it('create_on_ramp_transaction with the quote request and answer; `source.bank` says where the money goes, the number masked; COMPLETED', async ({
    t,
    f,
    sdk: client,
  }) => {
    const before = await t.balance(f.treasury.id, 'USDC', 'POLYGON');
    const destination = pythonParty('VAULT', f.treasury.id);
    const request = pythonQuoteRequest({
      destination,
      fromAsset: 'USD',
      toAsset: 'USDC',
      fromAmount: '100',
      category: 'ON_RAMP',
      paymentMethod: 'US_ACH',
      toChain: 'POLYGON',
    });
    const q = await client.call('python', 'POST', QUOTE_PATH, request);
    expect(q.status, q.text).toBe(200);
    const quote = bestQuote(q.body);
    // The example keeps the whole answer (the G1 type reads one quote at the top level).
    const response = {
      finalToAmount: q.body['finalToAmount'],
      quoteId: q.body['quoteId'],
      fees: q.body['fees'],
      sourceName: q.body['sourceName'],
      quoteResponseDict: null,
    };
    const created = await client.call('python', 'POST', paths.transactions(), {
      destination,
      onRampRequestData: request,
      onRampResponseData: response,
      category: 'ON_RAMP',
      externalId: 'on-ramp-example-1',
      memo: 'on ramp test',
    });
    expect(created.status, created.text).toBe(200);
    expect(sdkShapeProblems('transaction', created.body)).toEqual([]);
    const tx = Transaction.parse(created.body);
    expect(tx).toMatchObject({
      status: 'PENDING',
      category: 'ON_RAMP',
      transactionType: 'INCOMING',
      vaultId: f.treasury.id,
      quoteResponse: { quoteId: quote.quoteId },
    });
    const bank = {
      bankName: 'Lakeside Sandbox Bank',
      beneficiaryName: 'Sandbox Ramp Settlement LLC',
      accountNumberMasked: '•••• 6789',
      routingNumber: '021000021',
      paymentRail: 'US_ACH',
      currency: 'USD',
      bankAddress: '1 Harbor Plaza, New York, NY 10004',
    };
    expect(created.body['source']).toMatchObject({ type: 'EXTERNAL_BANK_ACCOUNT', bank });
    // Before four-eyes nobody is told the full number to pay.
    expect(created.text).not.toContain('000123456789');
    const listed = await client.call('python', 'GET', `${paths.transactions()}?limit=100`);
    const row = (listed.body['results'] as Array<Record<string, unknown>>).find(
      (x) => x['id'] === tx.id,
    );
    expect(row?.['source']).toMatchObject({ bank });

    await client.approve('python', tx.id ?? '');
    const approved = await client.call('python', 'GET', paths.transaction(tx.id ?? ''));
    expect(approved.body['source']).toMatchObject({ bank });
    expect(approved.body['depositInstructions']).toMatchObject({
      bankDetails: { accountNumber: '000123456789', routingNumber: '021000021' },
    });
    const marked = await client.call('python', 'POST', MARK_DEPOSIT_PATH, { transactionId: tx.id });
    expect(marked.status, marked.text).toBe(200);
    const done = await runRampToEnd(t, tx.id ?? '');
    expect(done.status).toBe('COMPLETED');
    expect(await t.balance(f.treasury.id, 'USDC', 'POLYGON')).toEqual({
      amount: add(before.amount, quote.finalToAmount ?? ''),
      held: before.held,
    });
  });

  it('a EUR on-ramp answered `{quotes}` executes the first (best); its IBAN in `source.bank` once approved, never before', async ({
    f,
    sdk: client,
  }) => {
    const destination = pythonParty('VAULT', f.treasury.id);
    const request = pythonQuoteRequest({
      destination,
      fromAsset: 'EUR',
      toAsset: 'USDC',
      fromAmount: '200',
      category: 'ON_RAMP',
      paymentMethod: 'SEPA',
      toChain: 'POLYGON',
    });
    const q = await client.call('python', 'POST', QUOTE_PATH, request);
    expect(q.status, q.text).toBe(200);
    const quotes = RampQuoteResponse.parse(q.body).quotes;
    const created = await client.call('python', 'POST', paths.transactions(), {
      destination,
      onRampRequestData: request,
      onRampResponseData: { quotes: quotes.map(pythonQuoteItem) },
      category: 'ON_RAMP',
      externalId: null,
      memo: null,
    });
    expect(created.status, created.text).toBe(200);
    const tx = Transaction.parse(created.body);
    expect(tx.quoteResponse?.quoteId).toBe(quotes[0]?.quoteId);
    const pendingBank = {
      bankName: 'Sandbox Europa Bank',
      beneficiaryName: 'Sandbox Ramp Settlement GmbH',
      accountNumberMasked: '•••• 3000',
      swiftBic: 'COBADEFFXXX',
      paymentRail: 'SEPA',
      currency: 'EUR',
    };
    expect(created.body['source']).toMatchObject({ bank: pendingBank });
    expect(created.text).not.toContain('DE89370400440532013000');

    await client.approve('python', tx.id ?? '');
    const approved = await client.call('python', 'GET', paths.transaction(tx.id ?? ''));
    expect(approved.body['source']).toMatchObject({
      bank: { ...pendingBank, iban: 'DE89370400440532013000' },
    });
  });

  it('refused naming the field: a quote answer that is not the quote’s, a request that is not what was quoted, no quote at all', async ({
    f,
    sdk: client,
  }) => {
    const destination = pythonParty('VAULT', f.treasury.id);
    const request = pythonQuoteRequest({
      destination,
      fromAsset: 'USD',
      toAsset: 'USDC',
      fromAmount: '300',
      category: 'ON_RAMP',
      paymentMethod: 'US_ACH',
      toChain: 'POLYGON',
    });
    const q = await client.call('python', 'POST', QUOTE_PATH, request);
    expect(q.status, q.text).toBe(200);
    const item = pythonQuoteItem(bestQuote(q.body));
    const create = (fields: Record<string, unknown>) =>
      client.call('python', 'POST', paths.transactions(), {
        destination,
        onRampRequestData: request,
        onRampResponseData: item,
        category: 'ON_RAMP',
        externalId: null,
        memo: null,
        ...fields,
      });
    refused(
      await create({ onRampResponseData: { ...item, finalToAmount: '999999' } }),
      'QUOTE_MISMATCH',
      'onRampResponseData.finalToAmount',
    );
    refused(
      await create({ onRampRequestData: { ...request, fromAmount: '301' } }),
      'QUOTE_MISMATCH',
      'onRampRequestData.fromAmount',
    );
    refused(
      await create({ onRampResponseData: { ...item, quoteId: null } }),
      'VALIDATION_ERROR',
      'onRampResponseData.quoteId',
    );
    refused(
      await create({ onRampResponseData: { quotes: [] } }),
      'VALIDATION_ERROR',
      'onRampResponseData.quoteId',
    );
    // Refused before use: the quote still executes.
    const ok = await create({});
    expect(ok.status, ok.text).toBe(200);
  });
});
