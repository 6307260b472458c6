import { describe, expect } from 'vitest';
import { RampExchangeRatesResponse } from '#contract/ramps.ts';
import { twoConsolesTest } from '../../test/two-consoles.ts';

// Console A (upstream mode) forwards the older SDKs' exchange rates to console B (the
// sandbox) over real HTTP, signed with the API user's key, query and answer as they are.

const upstreamTest = twoConsolesTest({}, async () => {});

describe('ramp exchange rates through an upstream console', () => {
  upstreamTest(
    'forwarded with the query; answered as the sandbox prices it; a bad query refused naming the field',
    async ({ t, admin }) => {
      const query = new URLSearchParams({
        amount: '50',
        currency: 'USD',
        asset: 'USDC',
        category: 'OFF_RAMP',
        blockChain: 'ETHEREUM',
        vaultId: t.fixture.treasury.id,
      });
      const got = await admin.json(`/api/external/transactions/ramp_exchange_rates/?${query}`);
      expect(got.status, JSON.stringify(got.body)).toBe(200);
      const list = RampExchangeRatesResponse.parse(got.body);
      expect(list.length).toBeGreaterThan(1);
      expect(list[0]).toMatchObject({ fees: { asset: 'USDC' }, source: expect.any(String) });
      query.set('blockChain', 'NOWHERE');
      const bad = await admin.json(`/api/external/transactions/ramp_exchange_rates/?${query}`);
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({
        fields: [expect.objectContaining({ field: 'blockChain' })],
      });
    },
  );
});
