import { describe, expect } from 'vitest';
import { ApiErrorBody } from '#contract/common.ts';
import { add } from '#contract/decimal.ts';
import { GetTradeQuoteResponse } from '#contract/trades.ts';
import { Transaction } from '#contract/transaction.ts';
import { MARK_DEPOSIT_PATH, rampTest, runRampToEnd } from '../../test/ramp-fixtures.ts';
import type { SdkCaller } from '../../test/sdk-wire.ts';

/**
 * The Python SDK's create_ramp_transaction: a ramp quoted through
 * get_trade_quote (its `category` and `paymentMethod` params, None ones
 * dropped by `requests`, signed on the path alone), then created with the
 * quote request and the chosen answer as `asdict` writes them (every field
 * of the dataclass, unset ones null), `operationMessage`, `paymentMethod`
 * and `toBlockChain` beside them.
 */
const it = rampTest;

const TRADE_QUOTE_PATH = '/api/external/transactions/trade_quote/';
const CREATE_PATH = '/api/external/transactions/';

/** Every field of TradeQuoteRequestData, as `asdict` writes it. */
const REQUEST_FIELDS = [
  'fromAsset',
  'fromAmount',
  'toAsset',
  'slippage',
  'blockChain',
  'toBlockchain',
  'fromAmountUSD',
  'destinationAddress',
  'chainId',
  'fromAssetLogoURL',
  'toAssetLogoURL',
  'expectedToAmountUSD',
  'expiryInMinutes',
];
/** Every field of TradeQuoteResponseData, as `asdict` writes it. */
const RESPONSE_FIELDS = [
  'finalToAmount',
  'quoteResponseDict',
  'handler',
  'sourceName',
  'handlerCategory',
  'unitToAssetAmount',
  'approvedFinalToAmount',
  'quotesValidTill',
  'feeInUSD',
  'finalToAmountUSD',
  'stepsData',
  'sourceLogoURL',
  'estCompletionTimeInSec',
  'autoSlippage',
  'minimumToAmount',
  'fees',
  'quoteId',
  'fromAmount',
  'paymentMethod',
];

const asdict = (fields: string[], value: Record<string, unknown>) =>
  Object.fromEntries(fields.map((k) => [k, value[k] ?? null]));

async function onRampQuote(client: SdkCaller, vaultId: string) {
  const query = new URLSearchParams({
    vaultId,
    fromAsset: 'USD',
    toAsset: 'USDC',
    fromAmount: '100',
    toBlockchain: 'POLYGON',
    category: 'ON_RAMP',
    paymentMethod: 'US_ACH',
  });
  const url = `${TRADE_QUOTE_PATH}?${query.toString()}`;
  const q = await client.call('python', 'GET', url, undefined, TRADE_QUOTE_PATH);
  expect(q.status, q.text).toBe(200);
  const answer = GetTradeQuoteResponse.parse(q.body);
  const [chosen] = answer.tradeResponseDataList;
  if (!chosen) throw new Error('no quote');
  return { answer, chosen };
}

/** create_ramp_transaction's body: the quote request and answer `asdict`ed. */
function rampCreate(
  vaultId: string,
  answer: GetTradeQuoteResponse,
  chosen: Record<string, unknown>,
  externalId: string,
) {
  return {
    vaultId,
    category: 'ON_RAMP',
    tradeRequestData: asdict(REQUEST_FIELDS, answer.tradeRequestData),
    tradeResponseData: asdict(RESPONSE_FIELDS, chosen),
    externalId,
    operationMessage: null,
    memo: null,
    paymentMethod: 'US_ACH',
    toBlockChain: 'POLYGON',
  };
}

describe('create_ramp_transaction, as the Python SDK sends it', () => {
  it('an on-ramp quoted by get_trade_quote (category ON_RAMP, paymentMethod US_ACH), created with its request and answer, approved, deposited, COMPLETED', async ({
    t,
    f,
    sdk: client,
  }) => {
    const before = await t.balance(f.treasury.id, 'USDC', 'POLYGON');
    const { answer, chosen } = await onRampQuote(client, f.treasury.id);
    expect(answer.tradeResponseDataList.length).toBeGreaterThan(0);
    expect(chosen).toMatchObject({ paymentMethod: 'US_ACH', quotesValidTill: expect.any(String) });

    const created = await client.call(
      'python',
      'POST',
      CREATE_PATH,
      rampCreate(f.treasury.id, answer, chosen, 'py-ramp-trade-1'),
    );
    expect(created.status, created.text).toBe(200);
    const tx = Transaction.parse(created.body);
    expect(tx).toMatchObject({ category: 'ON_RAMP', status: 'PENDING', vaultId: f.treasury.id });
    const id = tx.id ?? '';
    await client.approve('python', id);
    const marked = await client.call('python', 'POST', MARK_DEPOSIT_PATH, { transactionId: id });
    expect(marked.status, marked.text).toBe(200);
    const done = await runRampToEnd(t, id);
    expect(done.status).toBe('COMPLETED');
    expect(await t.balance(f.treasury.id, 'USDC', 'POLYGON')).toEqual({
      amount: add(before.amount, chosen.finalToAmount),
      held: before.held,
    });
  });

  it('a copy that is not the quote’s, a request that is not what was quoted, an unknown vault and an off-ramp without its bank account are refused naming the field as sent', async ({
    f,
    sdk: client,
  }) => {
    const { answer, chosen } = await onRampQuote(client, f.treasury.id);
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        rampCreate(f.treasury.id, answer, { ...chosen, finalToAmount: '999999' }, 'py-rt-a'),
        'tradeResponseData.finalToAmount',
      ],
      [
        rampCreate(
          f.treasury.id,
          { ...answer, tradeRequestData: { ...answer.tradeRequestData, fromAmount: '101' } },
          chosen,
          'py-rt-b',
        ),
        'tradeRequestData.fromAmount',
      ],
      [
        { ...rampCreate(f.treasury.id, answer, chosen, 'py-rt-c'), toBlockChain: 'ETHEREUM' },
        'toBlockChain',
      ],
      [rampCreate('no-such-vault', answer, chosen, 'py-rt-d'), 'vaultId'],
      [
        { ...rampCreate(f.treasury.id, answer, chosen, 'py-rt-e'), operationMessage: 'sign me' },
        'operationMessage',
      ],
      // An off-ramp told this way names no bank account to pay.
      [
        { ...rampCreate(f.treasury.id, answer, chosen, 'py-rt-f'), category: 'OFF_RAMP' },
        'destination',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await client.call('python', 'POST', CREATE_PATH, body);
      expect(res.status, `${field}: ${res.text}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${field}: ${res.text}`).toBeLessThan(500);
      expect(
        ApiErrorBody.parse(res.body).fields?.map((x) => x.field),
        res.text,
      ).toContain(field);
    }
  });
});
