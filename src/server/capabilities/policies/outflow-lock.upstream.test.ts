import { describe, expect } from 'vitest';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { DEFAULT_POLICY, type Policy } from '#contract/policies.ts';
import { createVault } from '../../test/fixtures.ts';
import { publishPolicy } from '../../test/policies.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import { twoConsolesTest, type TwoConsoles } from '../../test/two-consoles.ts';

/**
 * The outflow cap's lock (outflow-lock.ts) in upstream mode: console A sums
 * the vault's day from the custody API (console B) and creates there, holding
 * the vault's lock from the read until B has the item, so concurrent creates
 * through A with room for one let one through.
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

async function prepare(t: TwoConsoles) {
  const [editor, reviewer] = [await t.signIn('admin'), await t.signIn('admin')];
  await publishPolicy(t.aDatabase.db, 'transactions', capped, {
    editor,
    reviewer,
    now: t.clock.now(),
  });
}

const upstreamTest = twoConsolesTest({}, prepare);

function thirtyDollars(t: TwoConsoles, initiator: StaffSession, vaultId: string) {
  return initiator.json(paths.transactions(), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      category: 'TRANSFER',
      source: { type: 'VAULT', id: vaultId },
      destination: { type: 'CONTACT', id: t.fixture.contacts.eth.id },
      amount: '30',
      asset: 'USDC',
      blockChain: 'ETHEREUM',
    }),
  });
}

describe('the 24-hour outflow cap through an upstream custody API', () => {
  upstreamTest(
    'lets one of 20 concurrent $30 creates through $45 of room',
    async ({ t, initiator }) => {
      const vault = await createVault(t.b.db, { orgId: t.b.orgId, vaultName: 'Capped' }, [
        { asset: 'USDC', chain: 'ETHEREUM', amount: '10000' },
      ]);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => thirtyDollars(t, initiator, vault.id)),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      for (const refused of answers.filter((a) => a.status !== 200))
        expect(ApiErrorBody.parse(refused.body).code).toBe('POLICY_BLOCKED');
    },
  );
});
