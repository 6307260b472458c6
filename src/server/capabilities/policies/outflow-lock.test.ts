import { describe, expect } from 'vitest';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { DEFAULT_POLICY, type Policy } from '#contract/policies.ts';
import type { App } from '../../app.ts';
import type { EngineFixture, EngineTestApp } from '../../test/engine-test-app.ts';
import { engineTest } from '../../test/engine-test.ts';
import { createVault } from '../../test/fixtures.ts';
import { publishPolicy } from '../../test/policies.ts';
import { secondServer } from '../../test/second-server.ts';
import { signInStaff, type StaffSession } from '../../test/staff-session.ts';

/**
 * The 24-hour outflow cap is judged and its outflow recorded in one step per
 * source vault (outflow-lock.ts): creates sent at once from one vault are
 * judged one after the other, on one server or on two sharing the database,
 * so a cap with room for one lets exactly one through.
 */

const capped: Policy = {
  rules: [
    {
      id: 'cap',
      name: 'Daily cap of $45',
      match: { outflow24hUsdAbove: '45' },
      outcome: { action: 'BLOCK' },
    },
  ],
  fallback: DEFAULT_POLICY.fallback,
};

/** `b`, a second server on the same database; `initiator` signed in (on both: one database). */
const lockTest = engineTest
  .extend('b', { scope: 'file' }, ({ t }, { onCleanup }) => {
    const server = secondServer({ database: t.database, orgId: t.orgId, clock: t.authClock });
    onCleanup(() => server.close());
    return server.app;
  })
  .extend('initiator', { scope: 'file' }, ({ t, f: _f }) =>
    signInStaff(t.app, t.db, t.authClock, { role: 'initiator' }),
  )
  .extend('useCap', { scope: 'file' }, async ({ t }) => {
    const editor = await signInStaff(t.app, t.db, t.authClock, { role: 'admin' });
    const reviewer = await signInStaff(t.app, t.db, t.authClock, { role: 'admin' });
    await publishPolicy(t.db, 'transactions', capped, { editor, reviewer, now: t.authClock.now() });
  });

/** A vault of its own: nothing has left it, so the cap leaves $45 of room. */
const freshVault = (t: EngineTestApp) =>
  createVault(t.db, { orgId: t.orgId, vaultName: 'Capped' }, [
    { asset: 'USDC', chain: 'ETHEREUM', amount: '10000' },
  ]);

/** $30 of USDC (at $1) from `vaultId`, sent through `server` as `initiator`. */
async function thirtyDollars(
  server: Pick<App, 'request'>,
  initiator: StaffSession,
  f: EngineFixture,
  vaultId: string,
): Promise<number> {
  const res = await server.request(
    paths.transactions(),
    initiator.init({
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        category: 'TRANSFER',
        source: { type: 'VAULT', id: vaultId },
        destination: { type: 'CONTACT', id: f.contacts.eth.id },
        amount: '30',
        asset: 'USDC',
        blockChain: 'ETHEREUM',
      }),
    }),
  );
  const body: unknown = await res.json();
  if (res.status !== 200) expect(ApiErrorBody.parse(body).code).toBe('POLICY_BLOCKED');
  return res.status;
}

const passed = (statuses: number[]) => statuses.filter((s) => s === 200).length;

describe('the 24-hour outflow cap under concurrent creates', () => {
  lockTest(
    'lets one of 20 concurrent $30 creates through $45 of room',
    async ({ t, f, initiator, useCap: _useCap }) => {
      const vault = await freshVault(t);
      const statuses = await Promise.all(
        Array.from({ length: 20 }, () => thirtyDollars(t.app, initiator, f, vault.id)),
      );
      expect(passed(statuses)).toBe(1);
      expect(statuses.filter((s) => s === 403)).toHaveLength(19);
    },
  );

  lockTest(
    'lets one through across two servers sharing the database',
    async ({ t, b, f, initiator, useCap: _useCap }) => {
      const vault = await freshVault(t);
      const statuses = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          thirtyDollars(i % 2 === 0 ? t.app : b, initiator, f, vault.id),
        ),
      );
      expect(passed(statuses)).toBe(1);
    },
  );

  lockTest(
    'holds one vault only: another vault judged at the same time has its own room',
    async ({ t, b, f, initiator, useCap: _useCap }) => {
      const [one, two] = [await freshVault(t), await freshVault(t)];
      const statuses = await Promise.all([
        thirtyDollars(t.app, initiator, f, one.id),
        thirtyDollars(b, initiator, f, two.id),
        thirtyDollars(t.app, initiator, f, two.id),
        thirtyDollars(b, initiator, f, one.id),
      ]);
      expect(passed(statuses)).toBe(2);
    },
  );

  lockTest(
    'many vaults judged at once never run the pool dry (five connections on the second server)',
    async ({ t, b, f, initiator, useCap: _useCap }) => {
      const vaults = await Promise.all(Array.from({ length: 10 }, () => freshVault(t)));
      const statuses = await Promise.all(
        vaults.flatMap((vault) => [
          thirtyDollars(b, initiator, f, vault.id),
          thirtyDollars(b, initiator, f, vault.id),
        ]),
      );
      expect(passed(statuses)).toBe(10);
    },
  );
});
