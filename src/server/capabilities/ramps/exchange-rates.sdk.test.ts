import { describe, expect } from 'vitest';
import { RampExchangeRatesResponse, RampQuoteResponse } from '#contract/ramps.ts';
import { Transaction } from '#contract/transaction.ts';
import { INTENT_CREATE_PATH, QUOTE_PATH, rampTest, refused } from '../../test/ramp-fixtures.ts';
import type { SdkCaller } from '../../test/sdk-wire.ts';
import { signInStaff } from '../../test/staff-session.ts';

// The older SDKs' getRampExchangeRates / get_ramp_exchange_rates: a GET with
// the request in the query (signed on the path alone), answered a bare list
// of {quoteId, convertedAmount, fees, source}, priced from the very rates a
// ramp quote uses, each answer a stored quote a create may execute.
const it = rampTest.extend('desk', { scope: 'file' }, ({ t, r }) =>
  signInStaff(t.app, t.db, t.authClock, { role: 'admin', subOrgIds: [r.subOrgVault.subOrgId] }),
);

const RATES_PATH = '/api/external/transactions/ramp_exchange_rates/';

/** The query as the JS SDK writes it (axios drops undefined params); signed on the path alone. */
function rates(client: SdkCaller, sdk: 'js' | 'python', params: Record<string, string>) {
  return client.call(
    sdk,
    'GET',
    `${RATES_PATH}?${new URLSearchParams(params)}`,
    undefined,
    RATES_PATH,
  );
}

describe('ramp exchange rates', () => {
  it('JS SDK: an ON_RAMP of 100 USD into USDC answers each provider as the flat quote prices it, best first; its quoteId executes', async ({
    f,
    sdk,
  }) => {
    const got = await rates(sdk, 'js', {
      amount: '100',
      currency: 'USD',
      asset: 'USDC',
      category: 'ON_RAMP',
      blockChain: 'ETHEREUM',
      vaultId: f.treasury.id,
    });
    expect(got.status, got.text).toBe(200);
    const list = RampExchangeRatesResponse.parse(got.body);
    expect(list.length).toBeGreaterThan(1);
    for (const rate of list)
      expect(rate).toMatchObject({
        quoteId: expect.any(String),
        convertedAmount: expect.stringMatching(/^\d+(\.\d+)?$/),
        fees: { amount: expect.any(String), asset: 'USD' },
        source: expect.any(String),
      });
    // The same rates as the flat quote of the same conversion, provider by provider.
    const quoted = await sdk.call('python', 'POST', QUOTE_PATH, {
      category: 'ON_RAMP',
      destination: { type: 'VAULT', id: f.treasury.id, value: null },
      fromAsset: 'USD',
      fromAmount: '100',
      toAsset: 'USDC',
      toChain: 'ETHEREUM',
    });
    expect(quoted.status, quoted.text).toBe(200);
    const flat = RampQuoteResponse.parse(quoted.body).quotes;
    expect(list.map((x) => [x.source, x.convertedAmount, x.fees.amount])).toEqual(
      flat.map((q) => [q.sourceName, q.finalToAmount, q.fees?.amount]),
    );
    // Each answer is a quote: the first executes into a PENDING on-ramp.
    const created = await sdk.call('js', 'POST', INTENT_CREATE_PATH, {
      quoteId: list[0]?.quoteId,
      externalId: `rates-onramp-${list[0]?.quoteId}`,
    });
    expect(created.status, created.text).toBe(200);
    expect(Transaction.parse(created.body)).toMatchObject({
      category: 'ON_RAMP',
      status: 'PENDING',
    });
    // What it promised to credit is the rate's converted amount.
    expect(created.text).toContain(`"${list[0]?.convertedAmount}"`);
  });

  it('Python SDK: an OFF_RAMP of 50 USDC to USD by US_ACH answers USD converted, the fee in USDC', async ({
    f,
    sdk,
  }) => {
    const got = await rates(sdk, 'python', {
      vaultId: f.treasury.id,
      amount: '50',
      currency: 'USD',
      asset: 'USDC',
      category: 'OFF_RAMP',
      paymentMethod: 'US_ACH',
      blockChain: 'ETHEREUM',
    });
    expect(got.status, got.text).toBe(200);
    const [best] = RampExchangeRatesResponse.parse(got.body);
    expect(best).toMatchObject({ fees: { asset: 'USDC' } });
    expect(Number(best?.convertedAmount)).toBeGreaterThan(40);
  });

  it('refuses a bad query naming the query field: category, amount, vaultId (INVALID_FILTER, as every query), blockChain and a too large amount (as the quote does)', async ({
    f,
    sdk,
  }) => {
    const base = {
      amount: '100',
      currency: 'USD',
      asset: 'USDC',
      category: 'ON_RAMP',
      blockChain: 'ETHEREUM',
      vaultId: f.treasury.id,
    };
    refused(await rates(sdk, 'js', { ...base, category: 'SWAP' }), 'INVALID_FILTER', 'category');
    refused(await rates(sdk, 'js', { ...base, amount: '-1' }), 'INVALID_FILTER', 'amount');
    const { vaultId: _vaultId, ...noVault } = base;
    refused(await rates(sdk, 'js', noVault), 'INVALID_FILTER', 'vaultId');
    expect(
      (await rates(sdk, 'js', { ...base, blockChain: 'NOWHERE' })).body['fields'],
    ).toContainEqual(expect.objectContaining({ field: 'blockChain' }));
    // More than the pair takes: named on the amount the client sent.
    expect((await rates(sdk, 'js', { ...base, amount: '99999999' })).body['fields']).toContainEqual(
      expect.objectContaining({ field: 'amount' }),
    );
  });

  it('a member held to one sub-organization: a vault outside it is 404, one inside it is priced', async ({
    f,
    r,
    desk,
  }) => {
    const query = (vaultId: string) =>
      `${RATES_PATH}?${new URLSearchParams({ amount: '50', currency: 'USD', asset: 'USDC', category: 'OFF_RAMP', blockChain: 'ETHEREUM', vaultId })}`;
    expect((await desk.json(query(f.treasury.id))).status).toBe(404);
    const inside = await desk.json(query(r.subOrgVault.id));
    expect(inside.status, JSON.stringify(inside.body)).toBe(200);
  });
});
