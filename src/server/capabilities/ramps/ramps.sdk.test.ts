import { describe, expect } from 'vitest';
import { add, cmp, neg, sub } from '#contract/decimal.ts';
import { paths } from '#contract/paths.ts';
import { RampQuoteResponse } from '#contract/ramps.ts';
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
  runRampToEnd,
} from '../../test/ramp-fixtures.ts';
import { sdkShapeProblems } from '../../test/sdk-required-fields.ts';

// Both provider SDKs, unchanged, quote and execute an
// off-ramp and an on-ramp, and the transactions complete with balance changes
// that equal the quote. Requests go on the wire as each SDK sends them.
const it = rampTest;

describe('off-ramp, USDC on Ethereum to an approved USD account', () => {
  it('JS SDK (G2 intent): getQuote, createTransactionFromIntent approving through its approval message, COMPLETED with the quoted debit', async ({
    t,
    f,
    r,
    sdk: client,
  }) => {
    const before = await t.balance(f.treasury.id, 'USDC', 'ETHEREUM');
    const intent = jsIntent({
      source: jsParty('VAULT', f.treasury.id),
      destination: jsParty('BANK_ACCOUNT', r.usd.id),
      fromAsset: 'USDC',
      fromAmount: '100',
      fromChain: 'ETHEREUM',
      toAsset: 'USD',
    });
    const q = await client.call('js', 'POST', QUOTE_PATH, { intent });
    expect(q.status, q.text).toBe(200);
    const quotes = RampQuoteResponse.parse(q.body).quotes;
    expect(quotes.length).toBe(3);
    expect(new Set(quotes.map((x) => x.sourceName)).size).toBe(3);
    // Best first: the most arriving for the same 100 USDC.
    for (let i = 1; i < quotes.length; i += 1)
      expect(cmp(quotes[i - 1]?.finalToAmount ?? '0', quotes[i]?.finalToAmount ?? '0')).toBe(1);
    const best = bestQuote(q.body);
    expect(best).toMatchObject({ finalFromAmount: '100', fees: { asset: 'USDC' } });
    expect(typeof best.expiresAt).toBe('string');

    // createTransactionFromIntent: {intent, quoteId, externalId, memo}, then its approval.
    const created = await client.call('js', 'POST', INTENT_CREATE_PATH, {
      intent,
      quoteId: best.quoteId,
      externalId: 'js-off-ramp-1',
      memo: 'payroll',
    });
    expect(created.status, created.text).toBe(200);
    const tx = Transaction.parse(created.body);
    expect(tx).toMatchObject({
      status: 'PENDING',
      category: 'OFF_RAMP',
      asset: 'USDC',
      amount: '100',
      quoteResponse: { quoteId: best.quoteId },
      intent: { fromAsset: 'USDC', toAsset: 'USD' },
    });
    expect(tx.destination?.bankDetails?.accountNumberMasked).toBe('•••• 4321');
    expect(JSON.stringify(tx)).not.toContain('987654321');
    // Held from creation.
    expect((await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).held).toBe(add(before.held, '100'));

    await client.approve('js', tx.id ?? '');
    const done = await runRampToEnd(t, tx.id ?? '');
    expect(done.status).toBe('COMPLETED');
    expect(done.operations?.map((o) => [o.sequence, o.type, o.status])).toEqual([
      [1, 'TRANSFER', 'COMPLETED'],
      [2, 'TRADE', 'COMPLETED'],
      [3, 'WITHDRAW', 'COMPLETED'],
    ]);
    const after = await t.balance(f.treasury.id, 'USDC', 'ETHEREUM');
    expect(after).toEqual({
      amount: sub(before.amount, best.finalFromAmount ?? ''),
      held: before.held,
    });
    const changes = done.balanceChanges?.changes ?? [];
    expect(changes.find((c) => c.party?.type === 'VAULT')).toMatchObject({
      asset: 'USDC',
      amount: '-100',
      chain: 'ETHEREUM',
    });
    expect(changes.find((c) => c.party?.type === 'BANK_ACCOUNT')).toMatchObject({
      asset: 'USD',
      amount: best.finalToAmount,
    });
    expect(sdkShapeProblems('transaction', done)).toEqual([]);
  });

  it('Python SDK (G1 flat): get_ramp_quote with paymentMethod null and an EXTERNAL_BANK_ACCOUNT, create_off_ramp_transaction, COMPLETED', async ({
    t,
    f,
    r,
    sdk: client,
  }) => {
    const before = await t.balance(f.treasury.id, 'USDC', 'ETHEREUM');
    const q = await client.call('python', 'POST', QUOTE_PATH, {
      destination: pythonParty('EXTERNAL_BANK_ACCOUNT', r.usd.id),
      source: pythonParty('VAULT', f.treasury.id),
      fromAsset: 'USDC',
      fromAmount: '250',
      fromChain: 'ETHEREUM',
      toAsset: 'USD',
      toChain: null,
      category: 'OFF_RAMP',
      paymentMethod: null,
    });
    expect(q.status, q.text).toBe(200);
    // The G1 Python type reads one quote at the top level: quoteId, finalToAmount, fees, sourceName.
    const best = bestQuote(q.body);
    expect(q.body).toMatchObject({
      quoteId: best.quoteId,
      finalToAmount: best.finalToAmount,
      sourceName: best.sourceName,
      fees: { amount: best.fees?.amount, asset: 'USDC' },
    });
    const created = await client.call('python', 'POST', paths.transactions(), {
      source: pythonParty('VAULT', f.treasury.id),
      destination: pythonParty('EXTERNAL_BANK_ACCOUNT', r.usd.id),
      quoteId: q.body.quoteId,
      category: 'OFF_RAMP',
      externalId: 'py-off-ramp-1',
      memo: null,
    });
    expect(created.status, created.text).toBe(200);
    const tx = Transaction.parse(created.body);
    expect(sdkShapeProblems('transaction', created.body)).toEqual([]);
    expect(tx).toMatchObject({ status: 'PENDING', category: 'OFF_RAMP', amount: '250' });
    expect(tx.destination).toMatchObject({ type: 'EXTERNAL_BANK_ACCOUNT', id: r.usd.id });
    await client.approve('python', tx.id ?? '');
    const done = await runRampToEnd(t, tx.id ?? '');
    expect(done.status).toBe('COMPLETED');
    expect(await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).toEqual({
      amount: sub(before.amount, '250'),
      held: before.held,
    });
  });
});

describe('on-ramp, USD to USDC on Polygon', () => {
  it('JS SDK: deposit instructions only once approved, mark_deposit_done moves it on, the vault is credited what the deposit buys at the rate it is traded at', async ({
    t,
    f,
    sdk: client,
  }) => {
    const before = await t.balance(f.treasury.id, 'USDC', 'POLYGON');
    const intent = jsIntent({
      source: jsParty('EXTERNAL_BANK_ACCOUNT', null),
      destination: jsParty('VAULT', f.treasury.id),
      fromAsset: 'USD',
      toAsset: 'USDC',
      toAmount: '500',
      toChain: 'POLYGON',
      fromPaymentRail: 'ACH',
    });
    const q = await client.call('js', 'POST', QUOTE_PATH, { intent });
    expect(q.status, q.text).toBe(200);
    const best = bestQuote(q.body);
    expect(best.finalToAmount).toBe('500');
    expect(cmp(best.finalFromAmount ?? '0', '500')).toBe(1);
    const created = await client.call('js', 'POST', INTENT_CREATE_PATH, {
      intent: null,
      quoteId: best.quoteId,
      externalId: 'js-on-ramp-1',
      memo: 'top-up',
    });
    expect(created.status, created.text).toBe(200);
    const tx = Transaction.parse(created.body);
    expect(tx).toMatchObject({
      status: 'PENDING',
      category: 'ON_RAMP',
      transactionType: 'INCOMING',
      vaultId: f.treasury.id,
    });
    expect(tx.depositInstructions).toBeUndefined();
    // Nothing of ours leaves: nothing is held.
    expect((await t.balance(f.treasury.id, 'USDC', 'POLYGON')).held).toBe(before.held);

    await client.approve('js', tx.id ?? '');
    const approved = Transaction.parse((await t.get(paths.transaction(tx.id ?? ''))).body);
    expect(approved.status).toBe('APPROVED');
    expect(approved.depositInstructions).toMatchObject({
      type: 'BANK_ACCOUNT',
      paymentRail: 'ACH',
      currency: 'USD',
      amount: best.finalFromAmount,
      bankDetails: { accountNumber: '000123456789', routingNumber: '021000021' },
    });
    expect(approved.depositInstructions?.reference).toMatch(/^RAMP-[0-9A-F]{10}$/);
    // It waits for the payer, however long.
    await t.run(24 * 60 * 60_000);
    expect(await t.status(tx.id ?? '')).toBe('APPROVED');

    const marked = await client.call('js', 'POST', MARK_DEPOSIT_PATH, { transactionId: tx.id });
    expect(marked.status, marked.text).toBe(200);
    expect(marked.body).toMatchObject({ status: 'SUBMITTED' });
    // Its quote expired a day ago: priced again on what was deposited before the trade.
    const requoted = Transaction.parse(marked.body);
    expect(requoted.requotes?.map((q) => q.when)).toEqual(['EXECUTION']);
    const credited = requoted.quoteResponse?.finalToAmount ?? '';
    const done = await runRampToEnd(t, tx.id ?? '');
    expect(done.status).toBe('COMPLETED');
    expect(done.operations?.map((o) => [o.type, o.status])).toEqual([
      ['DEPOSIT', 'COMPLETED'],
      ['TRADE', 'COMPLETED'],
      ['TRANSFER', 'COMPLETED'],
    ]);
    expect(await t.balance(f.treasury.id, 'USDC', 'POLYGON')).toEqual({
      amount: add(before.amount, credited),
      held: before.held,
    });
    const credit = done.balanceChanges?.changes?.find((c) => c.party?.type === 'VAULT');
    expect(credit).toMatchObject({ asset: 'USDC', amount: credited, chain: 'POLYGON' });
    const debit = done.balanceChanges?.changes?.find((c) => c.party?.type !== 'VAULT');
    expect(debit).toMatchObject({ asset: 'USD', amount: neg(best.finalFromAmount ?? '') });
  });

  it('Python SDK (G1 flat): get_ramp_quote ON_RAMP with paymentMethod US_ACH, create_on_ramp_transaction, mark_deposit_done, COMPLETED', async ({
    t,
    f,
    sdk: client,
  }) => {
    const before = await t.balance(f.treasury.id, 'USDC', 'POLYGON');
    const q = await client.call('python', 'POST', QUOTE_PATH, {
      destination: pythonParty('VAULT', f.treasury.id),
      source: null,
      fromAsset: 'USD',
      fromAmount: '100',
      fromChain: null,
      toAsset: 'USDC',
      toChain: 'POLYGON',
      category: 'ON_RAMP',
      paymentMethod: 'US_ACH',
    });
    expect(q.status, q.text).toBe(200);
    const best = bestQuote(q.body);
    const created = await client.call('python', 'POST', paths.transactions(), {
      destination: pythonParty('VAULT', f.treasury.id),
      quoteId: best.quoteId,
      category: 'ON_RAMP',
      externalId: null,
      memo: null,
    });
    expect(created.status, created.text).toBe(200);
    expect(sdkShapeProblems('transaction', created.body)).toEqual([]);
    const id = String(created.body.id);
    await client.approve('python', id);
    const marked = await client.call('python', 'POST', MARK_DEPOSIT_PATH, { transactionId: id });
    expect(marked.status, marked.text).toBe(200);
    const done = await runRampToEnd(t, id);
    expect(done.status).toBe('COMPLETED');
    expect(await t.balance(f.treasury.id, 'USDC', 'POLYGON')).toEqual({
      amount: add(before.amount, best.finalToAmount ?? ''),
      held: before.held,
    });
  });
});
