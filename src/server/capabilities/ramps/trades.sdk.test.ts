import { describe, expect } from 'vitest';
import { add, cmp, mul, round, sub } from '#contract/decimal.ts';
import { GetTradeQuoteResponse } from '#contract/trades.ts';
import { Transaction } from '#contract/transaction.ts';
import { refused, rampTest, runRampToEnd } from '../../test/ramp-fixtures.ts';
import type { SdkCaller } from '../../test/sdk-wire.ts';
import { sdkShapeProblems } from '../../test/sdk-required-fields.ts';

// Trades (swaps) as both provider SDKs ask for them: `get_trade_quote` /
// `getTradeQuote` (a GET with the request in the query, signed on the path
// alone) and `create_trade_transaction` / `createTradeTransaction` (category
// SWAP with the quote request and the chosen answer handed back).
const it = rampTest;

const TRADE_QUOTE_PATH = '/api/external/transactions/trade_quote/';
const CREATE_PATH = '/api/external/transactions/';

/**
 * The query as each SDK writes it: Python's `requests` drops None params,
 * axios drops undefined ones; both sign the path without its query.
 */
function quoteQuery(params: Record<string, string | undefined>): string {
  const defined = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined);
  return `${TRADE_QUOTE_PATH}?${new URLSearchParams(defined).toString()}`;
}

async function quote(
  client: SdkCaller,
  sdk: 'js' | 'python',
  params: Record<string, string | undefined>,
) {
  return client.call(sdk, 'GET', quoteQuery(params), undefined, TRADE_QUOTE_PATH);
}

describe('a swap of USDC to ETH on Ethereum', () => {
  it('Python SDK: get_trade_quote (slippage, expiry), create_trade_transaction with the first answer, approved, COMPLETED with the source down by amount and fee and ETH up by what the quote promised', async ({
    t,
    f,
    sdk: client,
  }) => {
    const usdcBefore = await t.balance(f.treasury.id, 'USDC', 'ETHEREUM');
    const ethBefore = await t.balance(f.treasury.id, 'ETH', 'ETHEREUM');
    // get_trade_quote's params: every key, None ones dropped by `requests`.
    const q = await quote(client, 'python', {
      vaultId: f.treasury.id,
      fromAsset: 'USDC',
      toAsset: 'ETH',
      fromAmount: '300',
      blockChain: 'ETHEREUM',
      toBlockchain: 'ETHEREUM',
      slippage: '1',
      expiryInMinutes: '5',
    });
    expect(q.status, q.text).toBe(200);
    const answer = GetTradeQuoteResponse.parse(q.body);
    expect(answer.tradeRequestData).toMatchObject({
      fromAsset: 'USDC',
      fromAmount: '300',
      toAsset: 'ETH',
      blockChain: 'ETHEREUM',
      toBlockchain: 'ETHEREUM',
      slippage: '1',
      fromAmountUSD: '300.00',
    });
    const list = answer.tradeResponseDataList;
    expect(list.length).toBe(3);
    expect(new Set(list.map((x) => x.sourceName)).size).toBe(3);
    // Best first: the most ETH for the same 300 USDC.
    for (let i = 1; i < list.length; i += 1)
      expect(cmp(list[i - 1]?.finalToAmount ?? '0', list[i]?.finalToAmount ?? '0')).toBe(1);
    const [best] = list;
    if (!best) throw new Error('no quote');
    expect(best).toMatchObject({
      fromAmount: '300',
      fees: { asset: 'USDC' },
      handler: expect.any(String),
      quoteId: expect.any(String),
      quotesValidTill: expect.any(String),
    });
    // Slippage honoured: the least the trade may deliver is the promise less 1%.
    expect(best.minimumToAmount).toBe(add(round(mul(best.finalToAmount, '0.99'), 8, 'down'), '0'));
    expect(Date.parse(best.quotesValidTill ?? '') - t.clock.now().getTime()).toBe(5 * 60_000);

    // create_trade_transaction: the request data and the chosen answer, `asdict`ed.
    const created = await client.call('python', 'POST', CREATE_PATH, {
      vaultId: f.treasury.id,
      tradeRequestData: answer.tradeRequestData,
      tradeResponseData: best,
      category: 'SWAP',
      blockChain: 'ETHEREUM',
      externalId: 'py-swap-1',
      memo: null,
    });
    expect(created.status, created.text).toBe(200);
    const tx = Transaction.parse(created.body);
    const fee = best.fees?.amount ?? '';
    const debit = add('300', fee);
    expect(tx).toMatchObject({
      status: 'PENDING',
      category: 'SWAP',
      subCategory: 'MARKET_TRADE',
      vaultId: f.treasury.id,
      asset: 'USDC',
      amount: '300',
      blockChain: 'ETHEREUM',
      toAsset: 'ETH',
      toBlockChain: 'ETHEREUM',
      finalToAmount: best.finalToAmount,
      amountInUSD: '300',
      externalId: 'py-swap-1',
    });
    // The source is held from creation: amount and fee.
    expect((await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).held).toBe(
      add(usdcBefore.held, debit),
    );

    await client.approve('python', tx.id ?? '');
    const done = await runRampToEnd(t, tx.id ?? '');
    expect(done.status, done.error).toBe('COMPLETED');
    expect(done.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).toEqual({
      amount: sub(usdcBefore.amount, debit),
      held: usdcBefore.held,
    });
    expect(await t.balance(f.treasury.id, 'ETH', 'ETHEREUM')).toEqual({
      amount: add(ethBefore.amount, best.finalToAmount),
      held: ethBefore.held,
    });
    const changes = done.balanceChanges?.changes ?? [];
    expect(changes.map((c) => [c.asset, c.amount])).toEqual([
      ['USDC', `-${debit}`],
      ['ETH', best.finalToAmount],
    ]);
    expect(sdkShapeProblems('transaction', done)).toEqual([]);
  });

  it('JS SDK: getTradeQuote without expiry, createTradeTransaction choosing the second provider, approved, COMPLETED at that provider’s promise', async ({
    t,
    f,
    sdk: client,
  }) => {
    const ethBefore = await t.balance(f.treasury.id, 'ETH', 'ETHEREUM');
    const q = await quote(client, 'js', {
      vaultId: f.treasury.id,
      fromAsset: 'USDC',
      toAsset: 'ETH',
      fromAmount: '150.5',
      blockChain: 'ETHEREUM',
      toBlockchain: 'ETHEREUM',
      slippage: '0.5',
    });
    expect(q.status, q.text).toBe(200);
    const answer = GetTradeQuoteResponse.parse(q.body);
    const chosen = answer.tradeResponseDataList[1];
    if (!chosen) throw new Error('no second quote');
    const created = await client.call('js', 'POST', CREATE_PATH, {
      vaultId: f.treasury.id,
      tradeRequestData: answer.tradeRequestData,
      tradeResponseData: chosen,
      category: 'SWAP',
      blockChain: answer.tradeRequestData.blockChain,
      externalId: 'js-swap-1',
    });
    expect(created.status, created.text).toBe(200);
    const tx = Transaction.parse(created.body);
    expect(tx.finalToAmount).toBe(chosen.finalToAmount);
    await client.approve('js', tx.id ?? '');
    const done = await runRampToEnd(t, tx.id ?? '');
    expect(done.status, done.error).toBe('COMPLETED');
    expect((await t.balance(f.treasury.id, 'ETH', 'ETHEREUM')).amount).toBe(
      add(ethBefore.amount, chosen.finalToAmount),
    );
  });
});

describe('trade quotes refused, naming the field', () => {
  it.for([
    ['toAsset', { toAsset: 'NOPE' }, 'an asset the sandbox does not list'],
    ['toAsset', { toAsset: 'USDC' }, 'the same asset on both sides'],
    ['fromAmount', { fromAmount: '0' }, 'an amount that is not positive'],
    ['fromAmount', { fromAmount: '1.0000001' }, 'more places than USDC has (6)'],
    ['fromAmount', { fromAmount: '99999999' }, 'more than the vault can spend'],
    ['slippage', { slippage: '60' }, 'a slippage beyond 50%'],
    ['blockChain', { blockChain: 'NOWHERE' }, 'a chain the sandbox does not know'],
    ['vaultId', { vaultId: 'no-such-vault' }, 'a vault that does not exist'],
  ] as const)('%s: %s (%s)', async ([field, change], { f, sdk: client }) => {
    const res = await quote(client, 'python', {
      vaultId: f.treasury.id,
      fromAsset: 'USDC',
      toAsset: 'ETH',
      fromAmount: '10',
      blockChain: 'ETHEREUM',
      toBlockchain: 'ETHEREUM',
      ...change,
    });
    expect(res.status, res.text).toBe(400);
    const body = res.body as { code: string; fields?: Array<{ field: string }> };
    expect(body.fields?.map((x) => x.field)).toContain(field);
  });

  it('a chain the vault has no wallet on is refused, naming toBlockchain', async ({
    sdk: client,
  }) => {
    const made = await client.call('python', 'POST', '/api/external/vaults/', {
      vaultName: 'Ethereum only',
      chains: ['ETHEREUM'],
    });
    expect(made.status, made.text).toBe(200);
    const res = await quote(client, 'python', {
      vaultId: String(made.body['id']),
      fromAsset: 'USDC',
      toAsset: 'POL',
      fromAmount: '10',
      blockChain: 'ETHEREUM',
      toBlockchain: 'POLYGON',
    });
    expect(res.status, res.text).toBe(400);
    expect(JSON.stringify(res.body)).toContain('toBlockchain');
  });
});

describe('creating a swap from a quote', () => {
  async function fresh(client: SdkCaller, vaultId: string, fromAmount = '20') {
    const q = await quote(client, 'js', {
      vaultId,
      fromAsset: 'USDC',
      toAsset: 'ETH',
      fromAmount,
      blockChain: 'ETHEREUM',
      toBlockchain: 'ETHEREUM',
      slippage: '1',
    });
    expect(q.status, q.text).toBe(200);
    const answer = GetTradeQuoteResponse.parse(q.body);
    const [best] = answer.tradeResponseDataList;
    if (!best) throw new Error('no quote');
    return { request: answer.tradeRequestData, best };
  }
  const body = (vaultId: string, request: unknown, response: unknown) => ({
    vaultId,
    tradeRequestData: request,
    tradeResponseData: response,
    category: 'SWAP',
    blockChain: 'ETHEREUM',
  });

  it('an expired quote is refused and nothing is held', async ({ t, f, sdk: client }) => {
    const { request, best } = await fresh(client, f.treasury.id);
    const held = (await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).held;
    await t.run(61_000);
    const res = await client.call('js', 'POST', CREATE_PATH, body(f.treasury.id, request, best));
    refused(res, 'QUOTE_EXPIRED', 'tradeResponseData.quoteId');
    expect((await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).held).toBe(held);
  });

  it.for([
    ['tradeResponseData.finalToAmount', 'the promise raised', { finalToAmount: '99' }],
    ['tradeResponseData.fees.amount', 'the fee lowered', { fees: { amount: '0', asset: 'USDC' } }],
    ['tradeResponseData.sourceName', 'another provider named', { sourceName: 'Someone Else' }],
  ] as const)(
    'a tampered answer is refused: %s (%s)',
    async ([field, , patch], { f, sdk: client }) => {
      const { request, best } = await fresh(client, f.treasury.id);
      const res = await client.call(
        'js',
        'POST',
        CREATE_PATH,
        body(f.treasury.id, request, { ...best, ...patch }),
      );
      refused(res, 'QUOTE_MISMATCH', field);
    },
  );

  it('a tampered request is refused, naming the field', async ({ f, sdk: client }) => {
    const { request, best } = await fresh(client, f.treasury.id);
    const res = await client.call(
      'js',
      'POST',
      CREATE_PATH,
      body(f.treasury.id, { ...request, fromAmount: '2' }, best),
    );
    refused(res, 'QUOTE_MISMATCH', 'tradeRequestData.fromAmount');
  });

  it('a quote is used once: a second create of it is refused', async ({ f, sdk: client }) => {
    const { request, best } = await fresh(client, f.treasury.id);
    const first = await client.call('js', 'POST', CREATE_PATH, body(f.treasury.id, request, best));
    expect(first.status, first.text).toBe(200);
    const again = await client.call('js', 'POST', CREATE_PATH, body(f.treasury.id, request, best));
    refused(again, 'QUOTE_ALREADY_USED', 'tradeResponseData.quoteId');
  });

  it('another vault than the quoted one is refused', async ({ f, sdk: client }) => {
    const { request, best } = await fresh(client, f.treasury.id);
    const res = await client.call('js', 'POST', CREATE_PATH, body(f.ops.id, request, best));
    refused(res, 'QUOTE_MISMATCH', 'vaultId');
  });

  it('a decline releases the hold and moves nothing', async ({ t, f, sdk: client }) => {
    const before = await t.balance(f.treasury.id, 'USDC', 'ETHEREUM');
    const { request, best } = await fresh(client, f.treasury.id, '33');
    const made = await client.call('js', 'POST', CREATE_PATH, body(f.treasury.id, request, best));
    expect(made.status, made.text).toBe(200);
    const id = Transaction.parse(made.body).id ?? '';
    await t.decline(id);
    await t.run(60_000);
    expect(await t.status(id)).toBe('DECLINED');
    expect(await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).toEqual(before);
  });
});
