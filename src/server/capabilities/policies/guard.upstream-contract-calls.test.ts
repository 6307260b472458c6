import { describe, expect } from 'vitest';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { DEFAULT_POLICY, type Policy } from '#contract/policies.ts';
import { erc20, UNLIMITED, USDC_ETHEREUM } from '../../test/erc20-calls.ts';
import { createVault } from '../../test/fixtures.ts';
import { publishPolicy } from '../../test/policies.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import { twoConsolesTest, type TwoConsoles } from '../../test/two-consoles.ts';

/**
 * Contract calls are valued alike in upstream mode: console A (upstream mode)
 * knows a token's contract from the `tokenAddress` of the calling vault's
 * balances on the custody API (console B, a sandbox), its decimals from B's
 * asset list and its price from those balances.
 */

const policy: Policy = {
  rules: [
    {
      id: 'ten',
      name: 'Nothing of $10 or more',
      match: { amountUsdAtLeast: '10' },
      outcome: { action: 'BLOCK' },
    },
    {
      id: 'cap',
      name: 'Daily cap of $100',
      match: { outflow24hUsdAbove: '100' },
      outcome: { action: 'BLOCK' },
    },
  ],
  fallback: DEFAULT_POLICY.fallback,
};

async function prepare(t: TwoConsoles) {
  const [editor, reviewer] = [await t.signIn('admin'), await t.signIn('admin')];
  await publishPolicy(t.aDatabase.db, 'transactions', policy, {
    editor,
    reviewer,
    now: t.clock.now(),
  });
}

const upstreamTest = twoConsolesTest({}, prepare);

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** A vault of B's own, so its 24 hours hold only what the test sends. */
const freshVault = (t: TwoConsoles) =>
  createVault(t.b.db, { orgId: t.b.orgId, vaultName: 'Upstream calls' }, [
    { asset: 'ETH', chain: 'ETHEREUM', amount: '10' },
    { asset: 'USDC', chain: 'ETHEREUM', amount: '1000' },
  ]);

function call(initiator: StaffSession, vaultId: string, callData: string) {
  return initiator.json(
    paths.transactions(),
    post({
      category: 'CONTRACT_CALL',
      vaultId,
      blockChain: 'ETHEREUM',
      data: { callData, toAddress: USDC_ETHEREUM },
    }),
  );
}

function expectBlocked(res: { status: number; body: unknown }, rule: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(403);
  const body = ApiErrorBody.parse(res.body);
  expect(body.code).toBe('POLICY_BLOCKED');
  expect(body.message).toContain(rule);
}

describe('contract calls through an upstream custody API', () => {
  upstreamTest(
    'an ERC-20 transfer of 10^12 units and an unlimited approval are blocked by "≥ $10"',
    async ({ t, initiator }) => {
      const vault = await freshVault(t);
      expectBlocked(await call(initiator, vault.id, erc20.transfer(10n ** 12n)), 'Nothing of $10');
      expectBlocked(await call(initiator, vault.id, erc20.approve(UNLIMITED)), 'Nothing of $10');
      const small = await call(initiator, vault.id, erc20.transfer(5_000_000n));
      expect(small.status, JSON.stringify(small.body)).toBe(200);
    },
  );

  upstreamTest(
    "a valued call counts toward the vault's 24-hour outflow",
    async ({ t, initiator }) => {
      const vault = await freshVault(t);
      // $9.50 twelve times is $114: the eleventh passes the $100 cap.
      for (let i = 0; i < 10; i += 1) {
        const res = await call(initiator, vault.id, erc20.transfer(9_500_000n));
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      expectBlocked(await call(initiator, vault.id, erc20.transfer(9_500_000n)), 'Daily cap');
    },
  );
});
