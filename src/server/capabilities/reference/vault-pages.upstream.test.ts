import { describe, expect } from 'vitest';
import { VaultListResponse } from '#contract/reference.ts';
import { createVault } from '../../test/fixtures.ts';
import { twoConsolesTest } from '../../test/two-consoles.ts';

// Console A (upstream mode) forwards an older SDK's numbered vault page to console B (the
// sandbox): what B counts is what A answers, and A's pages either side are A's own addresses.

const upstreamTest = twoConsolesTest({}, async () => {});

describe("getVaults' numbered pages through an upstream console", () => {
  upstreamTest('the count, and the pages either side, reach the client', async ({ t, admin }) => {
    const name = 'Upstream paged';
    const start = Date.now() - 3_600_000;
    for (let i = 0; i < 5; i += 1) {
      const at = new Date(start + i * 60_000);
      await createVault(t.b.db, {
        orgId: t.b.orgId,
        vaultName: `${name} ${i + 1}`,
        createdAt: at,
        updatedAt: at,
      });
    }
    const query = `limit=2&page=2&reverse=false&vaultName=${encodeURIComponent(name)}`;
    const got = await admin.json(`/api/external/vaults/?${query}`);
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    const page = VaultListResponse.parse(got.body);
    expect(page.results.map((v) => v.vaultName)).toEqual([`${name} 3`, `${name} 2`]);
    expect(page.count).toBe(5);
    expect(page.next).toMatch(/[?&]page=3(&|$)/);
    expect(page.previous).toMatch(/[?&]page=1(&|$)/);
  });
});
