import fc from 'fast-check';
import { expect } from 'vitest';
import { pathOf } from '#contract/endpoint.ts';
import { depositToSandboxVault } from '#contract/endpoints/sandbox-world.ts';
import { paths, toQueryString } from '#contract/paths.ts';
import { GetTradeQuoteResponse } from '#contract/trades.ts';
import { payStakingRewards } from '../custody/sandbox/engine/staking-rewards.ts';
import type { EngineFixture, EngineTestApp } from './engine-test-app.ts';
import { createBankAccount } from './fixtures.ts';
import { bestQuote, INTENT_CREATE_PATH, QUOTE_PATH } from './ramp-fixtures.ts';

/**
 * Random activity for the ledger's property tests, driven through the real
 * sandbox on its test clock over `createEngineFixture`'s vaults: transfers
 * out and between vaults (amount and fee), deposits in, reverts (a fee
 * alone), declines, stuck transfers replaced, swaps (a provider's fee) and
 * off-ramps, stakes and unstakes, and time passing with the staking rewards
 * it brings. Refusals (not enough left, an unstake beyond the stake) are
 * part of it; a 5xx never is.
 */

const DAY = 86_400_000;

export type LedgerAction =
  | { kind: 'out' | 'between' | 'revert' | 'decline' | 'stuck'; asset: number; amount: number }
  | { kind: 'deposit'; vault: number; amount: number }
  | { kind: 'swap' | 'offRamp' | 'stake' | 'unstake'; amount: number }
  | { kind: 'advance'; ms: number };

const AMOUNTS = ['0.1', '0.75', '1.5', '3'];
/** A ramp or swap takes at least 10 USDC. */
const TRADE_AMOUNTS = ['12', '40', '75', '150'];
const ASSETS = [
  { asset: 'ETH', chain: 'ETHEREUM' },
  { asset: 'USDC', chain: 'ETHEREUM' },
];

export const ledgerAction: fc.Arbitrary<LedgerAction> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('out' as const, 'between' as const, 'revert' as const),
    asset: fc.nat(ASSETS.length - 1),
    amount: fc.nat(AMOUNTS.length - 1),
  }),
  fc.record({
    kind: fc.constantFrom('decline' as const, 'stuck' as const),
    asset: fc.constant(0),
    amount: fc.nat(AMOUNTS.length - 1),
  }),
  fc.record({
    kind: fc.constant('deposit' as const),
    vault: fc.nat(1),
    amount: fc.nat(AMOUNTS.length - 1),
  }),
  fc.record({
    kind: fc.constantFrom('swap' as const, 'offRamp' as const),
    amount: fc.nat(AMOUNTS.length - 1),
  }),
  fc.record({
    kind: fc.constantFrom('stake' as const, 'unstake' as const),
    amount: fc.nat(AMOUNTS.length - 1),
  }),
  fc.record({
    kind: fc.constant('advance' as const),
    ms: fc.constantFrom(60_000, 3_600_000, DAY, 2 * DAY + 7_000),
  }),
);

export interface LedgerRun {
  t: EngineTestApp;
  f: EngineFixture;
  /** The approved bank account an off-ramp pays. */
  bankAccountId: string;
}

/** A run over `f`'s vaults, with the approved bank account its off-ramps pay. */
export async function ledgerRun(t: EngineTestApp, f: EngineFixture): Promise<LedgerRun> {
  const bank = await createBankAccount(t.db, {
    orgId: t.orgId,
    status: 'APPROVED',
    accountName: 'Ledger payouts',
    accountNumber: '123123123',
  });
  return { t, f, bankAccountId: bank.id };
}

function ok(res: { status: number; body: Record<string, unknown> }): string | undefined {
  // Refusals are expected (not enough left, a quote gone); a 5xx never is.
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  return res.status === 200 || res.status === 201 ? String(res.body.id) : undefined;
}

/** Does `a` through the sandbox's own routes, as a member or the simulator would. */
export async function performLedgerAction(run: LedgerRun, a: LedgerAction): Promise<void> {
  const { t, f } = run;
  const amount = AMOUNTS[a.kind === 'advance' ? 0 : a.amount] ?? '0.1';
  const transfer = (assetIndex: number, over: Record<string, unknown>) => {
    const spec = ASSETS[assetIndex] ?? { asset: 'ETH', chain: 'ETHEREUM' };
    return {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: f.treasury.id },
      destination: { type: 'VAULT', id: f.ops.id },
      amount,
      asset: spec.asset,
      blockChain: spec.chain,
      ...over,
    };
  };
  const createApproved = async (body: unknown) => {
    const id = ok(await t.post(paths.transactions(), body));
    if (id) await t.approve(id);
    return id;
  };
  switch (a.kind) {
    case 'out':
      await createApproved(
        transfer(a.asset, { destination: { type: 'CONTACT', id: f.contacts.eth.id } }),
      );
      return;
    case 'between':
      await createApproved(transfer(a.asset, {}));
      return;
    case 'revert':
      await createApproved(transfer(a.asset, { memo: '[simulate:revert]' }));
      return;
    case 'decline': {
      const id = ok(await t.post(paths.transactions(), transfer(0, {})));
      if (id) await t.decline(id, 'property test');
      return;
    }
    case 'stuck': {
      const id = await createApproved(
        transfer(0, { gasParams: { feeTier: 'LOW' }, memo: '[simulate:stuck]' }),
      );
      await t.run(10_000);
      if (id && (await t.status(id)) === 'SUBMITTED') {
        const replacement = ok(await t.post(paths.replaceTransaction(), { transactionId: id }));
        if (replacement) await t.approve(replacement);
      }
      return;
    }
    case 'deposit':
      ok(
        await t.post(
          pathOf(depositToSandboxVault, { vaultId: [f.treasury, f.ops][a.vault]?.id ?? '' }),
          {
            asset: 'USDC',
            chain: 'ETHEREUM',
            amount: `${amount}5`,
          },
        ),
      );
      return;
    case 'swap': {
      const q = await t.get(
        `/api/external/transactions/trade_quote/${toQueryString({
          vaultId: f.treasury.id,
          fromAsset: 'USDC',
          toAsset: 'ETH',
          fromAmount: TRADE_AMOUNTS[a.amount] ?? '12',
          blockChain: 'ETHEREUM',
          toBlockchain: 'ETHEREUM',
        })}`,
      );
      expect(q.status, JSON.stringify(q.body)).toBe(200);
      const answer = GetTradeQuoteResponse.parse(q.body);
      await createApproved({
        vaultId: f.treasury.id,
        tradeRequestData: answer.tradeRequestData,
        tradeResponseData: answer.tradeResponseDataList[0],
        category: 'SWAP',
        blockChain: 'ETHEREUM',
      });
      return;
    }
    case 'offRamp': {
      const intent = {
        source: { type: 'VAULT', id: f.treasury.id },
        destination: { type: 'BANK_ACCOUNT', id: run.bankAccountId },
        fromAsset: 'USDC',
        fromAmount: TRADE_AMOUNTS[a.amount] ?? '12',
        fromChain: 'ETHEREUM',
        toAsset: 'USD',
      };
      const q = await t.post(QUOTE_PATH, { intent });
      expect(q.status, JSON.stringify(q.body)).toBe(200);
      const id = ok(
        await t.post(INTENT_CREATE_PATH, { intent, quoteId: bestQuote(q.body).quoteId }),
      );
      if (id) await t.approve(id);
      return;
    }
    case 'stake':
    case 'unstake':
      // An unstake beyond what is staked is refused (a 400), as it should be.
      await createApproved({
        category: 'STAKE',
        ...(a.kind === 'unstake' ? { subCategory: 'UNSTAKE' } : {}),
        source: { type: 'VAULT', id: f.treasury.id },
        asset: 'ETH',
        blockChain: 'ETHEREUM',
        amount,
      });
      return;
    case 'advance':
      await t.run(a.ms);
      // Staking rewards fall due on the same clock, as the simulator's pass pays them.
      await payStakingRewards(t.db, t.clock.now());
      return;
  }
}
