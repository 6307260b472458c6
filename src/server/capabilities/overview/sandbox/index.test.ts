import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { pathOf, toQueryString } from '#contract/endpoint.ts';
import { overview } from '#contract/endpoints/overview.ts';
import { OverviewResponse } from '#contract/overview.ts';
import type { CustodyBackend } from '../../../custody/backend.ts';
import { seedSandbox } from '../../../custody/sandbox/seed.ts';
import { ReadCache, statementsOf, writeVersion } from '../../../db/read-cache.ts';
import { subOrgs, transactions } from '../../../db/schema/sandbox.ts';
import { engineTest } from '../../../test/engine-test.ts';
import { createEngineTestApp, type EngineTestApp } from '../../../test/engine-test-app.ts';
import { createSubOrg, createVault } from '../../../test/fixtures.ts';
import { createTestDatabase } from '../../../test/test-database.ts';
import { readOverview, type OverviewOptions } from '../overview.ts';

// The overview's facts read where the sandbox keeps them: the same figures as
// the derivation composed from the custody API's reads (the one upstream
// uses), and a cost that does not grow with the vaults or the transactions.

describe('the overview over a seeded sandbox', () => {
  let t: EngineTestApp;
  const now = new Date();
  beforeAll(async () => {
    const database = await createTestDatabase();
    const seeded = await seedSandbox(database.db, { now });
    t = await createEngineTestApp({ database, orgId: seeded.organizationId ?? '' });
  });
  afterAll(() => t.close());

  const options = (timeZone: string, subOrgId?: string): OverviewOptions => ({
    subOrgId,
    timeZone,
    now,
    decides: true,
    priceSource: 'SANDBOX_REFERENCE',
  });
  // The same backend without the facts it keeps: the overview composes them from its lists.
  const composed = (): CustodyBackend => ({ ...t.backend, overviewFacts: undefined });

  test('reads the same figures as the derivation composed from the custody API’s reads', async () => {
    const [someSubOrg] = await t.db.select({ id: subOrgs.id }).from(subOrgs).limit(1);
    // Zones half and three quarters of an hour off UTC too: the flows' days are placed by quarter hour.
    for (const [zone, subOrgId] of [
      ['UTC', undefined],
      ['America/Los_Angeles', undefined],
      ['Asia/Kathmandu', undefined],
      ['Australia/Adelaide', someSubOrg?.id],
    ] as const) {
      const kept = await readOverview(t.backend, {}, t.db, options(zone, subOrgId));
      const fromLists = await readOverview(composed(), {}, t.db, options(zone, subOrgId));
      expect(fromLists.transactionsComplete).toBe(true);
      expect(kept, `${zone} ${subOrgId ?? 'every sub-organization'}`).toEqual(fromLists);
    }
    const all = await readOverview(t.backend, {}, t.db, options('UTC'));
    // The seeded world moves money: the comparison is not of empty figures.
    expect(all.byVault.length).toBeGreaterThan(3);
    expect(all.outflowByDay.some((d) => d.count > 0)).toBe(true);
    expect(all.lastDay.outflow.count + all.lastDay.inflow.count).toBeGreaterThan(0);
    expect(all.inFlight.byStatus.filter((s) => s.count > 0).length).toBeGreaterThan(1);
  });
});

describe('the overview’s read', () => {
  engineTest(
    'sends as many statements for 200 completed transactions in 20 vaults, 300 on their way, as for 10 in 2 and 4',
    async ({ t }) => {
      const sub = await createSubOrg(t.db, t.orgId, 'Many');
      const url = `${pathOf(overview)}${toQueryString({ subOrgId: sub.id, timeZone: 'Europe/Berlin' })}`;
      const read = async () => {
        let body: unknown;
        const statements = await statementsOf(async () => {
          const res = await t.get(url);
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          body = res.body;
        });
        return { statements, seen: OverviewResponse.parse(body) };
      };
      const vaultIds: string[] = [];
      const addVaults = async (n: number) => {
        for (let i = 0; i < n; i += 1) {
          const vault = await createVault(
            t.db,
            { orgId: t.orgId, subOrgId: sub.id, vaultName: `Many ${vaultIds.length}` },
            [{ asset: 'ETH', chain: 'ETHEREUM', amount: '2' }],
          );
          vaultIds.push(vault.id);
        }
      };
      const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
      const addTransfers = (
        n: number,
        status: 'COMPLETED' | 'PENDING' | 'SUBMITTED' = 'COMPLETED',
      ) =>
        t.db.insert(transactions).values(
          Array.from({ length: n }, (_, i) => ({
            id: randomUUID(),
            orgId: t.orgId,
            subOrgId: sub.id,
            vaultId: vaultIds[i % vaultIds.length] ?? null,
            status,
            category: 'TRANSFER' as const,
            transactionType: 'OUTGOING' as const,
            blockChain: 'ETHEREUM',
            asset: 'ETH',
            amount: '0.1',
            amountInUsd: '300',
            source: { type: 'VAULT' as const, id: vaultIds[i % vaultIds.length] ?? '' },
            destination: { type: 'EXTERNAL_ADDRESS' as const, id: '0xabc', address: '0xabc' },
            createdAt: hourAgo,
            updatedAt: hourAgo,
          })),
        );
      // A first read makes what every request makes once (the session's, the reference data's).
      await read();

      await addVaults(2);
      await addTransfers(10);
      await addTransfers(2, 'PENDING');
      await addTransfers(2, 'SUBMITTED');
      const few = await read();
      expect(few.seen.lastDay.outflow).toEqual({ usd: '3000', count: 10, unpriced: 0 });
      expect(few.seen.byVault).toHaveLength(2);
      expect(few.seen.inFlight.count).toBe(4);
      // Submitted an hour ago on Ethereum: past their usual time, each named slow.
      expect(few.seen.slow.count).toBe(2);

      await addVaults(18);
      await addTransfers(190);
      // More than a page of the transactions list in each status.
      await addTransfers(150, 'PENDING');
      await addTransfers(148, 'SUBMITTED');
      const many = await read();
      expect(many.seen.lastDay.outflow).toEqual({ usd: '60000', count: 200, unpriced: 0 });
      expect(many.seen.byVault).toHaveLength(20);
      expect(many.seen.inFlight.byStatus).toEqual(
        expect.arrayContaining([
          { status: 'PENDING', count: 152 },
          { status: 'SUBMITTED', count: 150 },
        ]),
      );
      expect(many.seen.slow.count).toBe(150);
      expect(many.statements.length).toBe(few.statements.length);
    },
  );
});

describe('the overview’s flows between writes', () => {
  engineTest(
    'are kept through the hour while the last day moves with the clock; a completion later than the clock is not counted',
    async ({ t }) => {
      const sub = await createSubOrg(t.db, t.orgId, 'Kept flows');
      const vault = await createVault(t.db, { orgId: t.orgId, subOrgId: sub.id });
      const hour = 60 * 60 * 1000;
      // Ten minutes into an hour, so the later reads below stay within it.
      const now = new Date(Math.floor(Date.now() / hour) * hour + 10 * 60_000);
      const minutesFrom = (at: Date, m: number) => new Date(at.getTime() + m * 60_000);
      const completed = (at: Date, amountInUsd: string) =>
        t.db.insert(transactions).values({
          id: randomUUID(),
          orgId: t.orgId,
          subOrgId: sub.id,
          vaultId: vault.id,
          status: 'COMPLETED',
          category: 'TRANSFER',
          transactionType: 'OUTGOING',
          blockChain: 'ETHEREUM',
          asset: 'ETH',
          amount: '0.1',
          amountInUsd,
          source: { type: 'VAULT', id: vault.id },
          destination: { type: 'EXTERNAL_ADDRESS', id: '0xabc', address: '0xabc' },
          createdAt: at,
          updatedAt: at,
        });
      // One read cache, as the requests of one server share it.
      const cache = new ReadCache(t.db);
      const read = (at: Date) =>
        cache.run(() =>
          readOverview(t.backend, {}, t.db, {
            subOrgId: sub.id,
            timeZone: 'UTC',
            now: at,
            decides: false,
            priceSource: 'SANDBOX_REFERENCE',
          }),
        );
      const chartTotal = (seen: Awaited<ReturnType<typeof read>>) =>
        seen.outflowByDay.reduce((n, d) => n + d.count, 0);
      const transactionReads = (statements: string[]) =>
        statements.filter((s) => s.includes('"sandbox"."transactions"'));

      await completed(minutesFrom(now, -(23 * 60 + 50)), '10');
      await completed(minutesFrom(now, -60), '5');
      const first = await read(now);
      expect(first.lastDay.outflow).toEqual({ usd: '15', count: 2, unpriced: 0 });

      // Twenty minutes on, nothing written: the first completion has left the last day, and
      // no transaction is read again.
      const later = minutesFrom(now, 20);
      let moved: Awaited<ReturnType<typeof read>> | undefined;
      const statements = await statementsOf(async () => {
        moved = await read(later);
      });
      // Kept on PGlite, whose versions are its own tables' write counts; on PostgreSQL any
      // commit in the cluster ends a kept answer, and other test files commit meanwhile.
      if (writeVersion(t.db, ['sandbox.transactions']) !== undefined)
        expect(transactionReads(statements)).toEqual([]);
      expect(moved?.lastDay.outflow).toEqual({ usd: '5', count: 1, unpriced: 0 });
      expect(moved && chartTotal(moved)).toBe(2);

      // A completion after the clock (a clock set back) is not counted; one before it is.
      await completed(minutesFrom(later, 5), '1000');
      const ahead = await read(later);
      expect(ahead.lastDay.outflow).toEqual({ usd: '5', count: 1, unpriced: 0 });
      expect(chartTotal(ahead)).toBe(2);
      await completed(minutesFrom(later, -1), '2.5');
      const written = await read(later);
      expect(written.lastDay.outflow).toEqual({ usd: '7.5', count: 2, unpriced: 0 });
      expect(chartTotal(written)).toBe(3);
    },
  );
});
