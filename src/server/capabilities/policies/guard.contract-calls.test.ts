import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { DEFAULT_POLICY, type Policy } from '#contract/policies.ts';
import { Transaction } from '#contract/transaction.ts';
import type { EngineTestApp } from '../../test/engine-test-app.ts';
import { engineTest } from '../../test/engine-test.ts';
import { erc20, UNLIMITED, USDC_ETHEREUM } from '../../test/erc20-calls.ts';
import { createVault } from '../../test/fixtures.ts';
import { publishPolicy } from '../../test/policies.ts';
import { signInStaff, type StaffSession } from '../../test/staff-session.ts';
import { transactions } from '../../db/schema/sandbox.ts';

/**
 * A contract call is judged by what it moves (call-value.ts): an ERC-20
 * transfer or approval on a known token's contract is worth its amount at the
 * token's price, and a call that cannot be valued (an unlimited approval, an
 * unknown function) is unpriced, so every USD threshold and outflow cap
 * matches it, as the README promises for unpriced items.
 */

const PAYEE = '1111111111111111111111111111111111111111';

const tenDollarsBlocks: Policy = {
  rules: [
    {
      id: 'ten',
      name: 'Nothing of $10 or more',
      match: { amountUsdAtLeast: '10' },
      outcome: { action: 'BLOCK' },
    },
  ],
  fallback: DEFAULT_POLICY.fallback,
};

/** `f` first: its assets (USDC at $1) are what the calls are priced by. */
const callTest = engineTest
  .extend('initiator', { scope: 'file' }, ({ t, f: _f }) =>
    signInStaff(t.app, t.db, t.authClock, { role: 'initiator' }),
  )
  .extend('usePolicy', { scope: 'file' }, async ({ t }) => {
    const editor = await signInStaff(t.app, t.db, t.authClock, { role: 'admin' });
    const reviewer = await signInStaff(t.app, t.db, t.authClock, { role: 'admin' });
    return (policy: Policy) =>
      publishPolicy(t.db, 'transactions', policy, { editor, reviewer, now: t.authClock.now() });
  });

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** A vault of its own, so its 24 hours hold only what the test sends. */
const freshVault = (t: EngineTestApp) =>
  createVault(t.db, { orgId: t.orgId, vaultName: 'Contract calls' }, [
    { asset: 'ETH', chain: 'ETHEREUM', amount: '10' },
    { asset: 'USDC', chain: 'ETHEREUM', amount: '1000' },
  ]);

function call(initiator: StaffSession, vaultId: string, callData: string, toAddress?: string) {
  return initiator.json(
    paths.transactions(),
    post({
      category: 'CONTRACT_CALL',
      vaultId,
      blockChain: 'ETHEREUM',
      data: { callData, ...(toAddress ? { toAddress } : {}) },
    }),
  );
}

function expectBlocked(res: { status: number; body: unknown }) {
  expect(res.status, JSON.stringify(res.body)).toBe(403);
  expect(ApiErrorBody.parse(res.body).code).toBe('POLICY_BLOCKED');
}

describe('a contract call under a USD rule', () => {
  callTest(
    'an ERC-20 transfer of 10^12 units of USDC is $1,000,000 and is blocked',
    async ({ t, initiator, usePolicy }) => {
      await usePolicy(tenDollarsBlocks);
      const vault = await freshVault(t);
      expectBlocked(await call(initiator, vault.id, erc20.transfer(10n ** 12n), USDC_ETHEREUM));
      // $5 of USDC is under the threshold: valued, not refused wholesale.
      const small = await call(initiator, vault.id, erc20.transfer(5_000_000n), USDC_ETHEREUM);
      expect(small.status, JSON.stringify(small.body)).toBe(200);
    },
  );

  callTest(
    'an unlimited approval, or a call that cannot be valued, matches every threshold',
    async ({ t, initiator, usePolicy }) => {
      await usePolicy(tenDollarsBlocks);
      const vault = await freshVault(t);
      expectBlocked(await call(initiator, vault.id, erc20.approve(UNLIMITED), USDC_ETHEREUM));
      expectBlocked(await call(initiator, vault.id, erc20.approve(10n ** 12n), USDC_ETHEREUM));
      // An unknown function, and a known one on a contract that is no known token.
      expectBlocked(await call(initiator, vault.id, '0xdeadbeef', USDC_ETHEREUM));
      expectBlocked(
        await call(
          initiator,
          vault.id,
          erc20.transfer(1n),
          '0x2222222222222222222222222222222222222222',
        ),
      );
    },
  );

  callTest(
    "the policy review says the same as the create's judgement",
    async ({ t, initiator, usePolicy }) => {
      await usePolicy(tenDollarsBlocks);
      const vault = await freshVault(t);
      const res = await initiator.json(
        '/api/console/policies/transactions/review/',
        post({
          category: 'CONTRACT_CALL',
          vaultId: vault.id,
          blockChain: 'ETHEREUM',
          data: { callData: erc20.transfer(10n ** 12n), toAddress: USDC_ETHEREUM },
        }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ requirement: { ruleName: 'Nothing of $10 or more' } });
    },
  );
});

describe("a vault's 24-hour outflow", () => {
  const capped: Policy = {
    rules: [
      {
        id: 'cap',
        name: 'Daily cap of $100',
        match: { outflow24hUsdAbove: '100' },
        outcome: { action: 'BLOCK' },
      },
    ],
    fallback: DEFAULT_POLICY.fallback,
  };

  callTest(
    'counts a valued contract call at its token amount',
    async ({ t, initiator, usePolicy }) => {
      await usePolicy(capped);
      const vault = await freshVault(t);
      // $80 of USDC, then $30 more: $110 is past the $100 cap.
      const first = await call(initiator, vault.id, erc20.transfer(80_000_000n), USDC_ETHEREUM);
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expectBlocked(await call(initiator, vault.id, erc20.transfer(30_000_000n), USDC_ETHEREUM));
    },
  );

  callTest(
    'cannot be told once a transaction in the window has no value, so the cap matches',
    async ({ t, initiator, usePolicy }) => {
      await usePolicy(DEFAULT_POLICY);
      const vault = await freshVault(t);
      // Under today's rule an unlimited approval is created; it has no USD value.
      const unlimited = await call(initiator, vault.id, erc20.approve(UNLIMITED), USDC_ETHEREUM);
      expect(unlimited.status, JSON.stringify(unlimited.body)).toBe(200);
      await usePolicy(capped);
      const tiny = await call(initiator, vault.id, erc20.transfer(1n), USDC_ETHEREUM);
      expectBlocked(tiny);
    },
  );

  callTest(
    'cannot be told once a transaction in the window has no USD value on record',
    async ({ t, initiator, usePolicy }) => {
      await usePolicy(capped);
      const vault = await freshVault(t);
      const res = await initiator.json(
        paths.transactions(),
        post({
          category: 'TRANSFER',
          source: { type: 'VAULT', id: vault.id },
          destination: { type: 'EXTERNAL_ADDRESS', address: `0x${PAYEE}` },
          amount: '1',
          asset: 'USDC',
          blockChain: 'ETHEREUM',
        }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const id = Transaction.parse(res.body).id ?? '';
      // A transfer the custody backend recorded without a USD value (an asset it had no
      // price for, say) leaves the vault's day unknown.
      await t.db.update(transactions).set({ amountInUsd: null }).where(eq(transactions.id, id));
      expectBlocked(await call(initiator, vault.id, erc20.transfer(1n), USDC_ETHEREUM));
    },
  );
});

describe('raw signing is a category of its own', () => {
  const rawSigningBlocked: Policy = {
    rules: [
      {
        id: 'raw',
        name: 'No raw signatures',
        match: { categories: ['RAW_SIGNING'] },
        outcome: { action: 'BLOCK' },
      },
    ],
    fallback: DEFAULT_POLICY.fallback,
  };
  const rawSigning = (initiator: StaffSession, vaultId: string) =>
    initiator.json(
      paths.transactions(),
      post({
        category: 'CONTRACT_CALL',
        vaultId,
        blockChain: 'ETHEREUM',
        data: { messageHex: `0x${'ab'.repeat(32)}` },
      }),
    );

  callTest(
    'a rule on raw signing blocks a {messageHex} call and no other contract call',
    async ({ t, initiator, usePolicy }) => {
      await usePolicy(rawSigningBlocked);
      const vault = await freshVault(t);
      expectBlocked(await rawSigning(initiator, vault.id));
      const plain = await call(initiator, vault.id, erc20.transfer(1n), USDC_ETHEREUM);
      expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    },
  );

  callTest(
    "a rule on contract calls does not cover raw signing, which falls to the policy's default: approval needed",
    async ({ t, initiator, usePolicy }) => {
      await usePolicy({
        rules: [
          {
            id: 'calls',
            name: 'No contract calls',
            match: { categories: ['CONTRACT_CALL'] },
            outcome: { action: 'BLOCK' },
          },
        ],
        fallback: DEFAULT_POLICY.fallback,
      });
      const vault = await freshVault(t);
      expectBlocked(await call(initiator, vault.id, erc20.transfer(1n), USDC_ETHEREUM));
      const res = await rawSigning(initiator, vault.id);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(Transaction.parse(res.body).status).toBe('PENDING');
    },
  );
});
