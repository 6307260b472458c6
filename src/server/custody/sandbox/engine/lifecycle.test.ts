import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { add, cmp, neg, sub, sum } from '#contract/decimal.ts';
import { paths } from '#contract/paths.ts';
import type { BalanceChange, Transaction } from '#contract/transaction.ts';
import { transactions } from '../../../db/schema/sandbox.ts';
import { estimateFees, feeForTier } from '../fee-model.ts';
import { engineTest as it } from '../../../test/engine-test.ts';
import type { EngineFixture, EngineTestApp } from '../../../test/engine-test-app.ts';

const HOUR = 3_600_000;

async function createApproved(t: EngineTestApp, body: Record<string, unknown>): Promise<string> {
  const res = await t.post(paths.transactions(), body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = String(res.body.id);
  expect(await t.approve(id)).toBe(true);
  return id;
}

async function fetchTx(
  t: EngineTestApp,
  id: string,
): Promise<Transaction & { statusHistory: Array<{ status: string }> }> {
  const res = await t.get(paths.transaction(id));
  expect(res.status).toBe(200);
  return res.body as Transaction & { statusHistory: Array<{ status: string }> };
}

const ethTransfer = (f: EngineFixture, over: Record<string, unknown> = {}) => ({
  category: 'TRANSFER',
  source: { type: 'VAULT', id: f.treasury.id },
  destination: { type: 'CONTACT', id: f.contacts.eth.id },
  amount: '0.5',
  asset: 'ETH',
  blockChain: 'ETHEREUM',
  ...over,
});

const changesOf = (tx: Transaction): BalanceChange[] => tx.balanceChanges?.changes ?? [];

describe('lifecycle', () => {
  it('runs a transfer to COMPLETED: operations, balance changes summing to minus the fee, balances moved', async ({
    t,
    f,
  }) => {
    const before = await t.balance(f.treasury.id, 'ETH', 'ETHEREUM');
    const id = await createApproved(t, ethTransfer(f));
    const signingAt = t.clock.now();
    await t.run();
    expect(await t.status(id)).toBe('SIGNED');
    const expectedFee = feeForTier(
      estimateFees({ blockChain: 'ETHEREUM', asset: 'ETH', amount: '0.5', now: signingAt }),
      'HIGH',
    ).expectedFeeInAsset;
    expect(await t.balance(f.treasury.id, 'ETH', 'ETHEREUM')).toEqual({
      amount: before.amount,
      held: add('0.5', expectedFee),
    });

    await t.run(HOUR);
    const tx = await fetchTx(t, id);
    expect(tx.status).toBe('COMPLETED');
    expect(tx.statusHistory.map((s) => s.status)).toEqual([
      'PENDING',
      'APPROVED',
      'SIGNED',
      'SUBMITTED',
      'WAITING_CONFIRMATION',
      'COMPLETED',
    ]);
    expect(tx.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(typeof tx.nonce).toBe('number');
    expect(tx.fees).toMatchObject({ amount: expectedFee, asset: 'ETH' });
    expect(tx.operations?.[0]).toMatchObject({
      sequence: 1,
      type: 'TRANSFER',
      status: 'COMPLETED',
    });
    const changes = changesOf(tx);
    expect(changes).toContainEqual(
      expect.objectContaining({
        amount: '-0.5',
        asset: 'ETH',
        party: expect.objectContaining({ id: f.treasury.id }),
      }),
    );
    expect(changes).toContainEqual(
      expect.objectContaining({
        amount: '0.5',
        party: expect.objectContaining({ id: f.contacts.eth.id }),
      }),
    );
    expect(changes).toContainEqual(
      expect.objectContaining({ amount: neg(expectedFee), asset: 'ETH' }),
    );
    expect(sum(changes.map((c) => c.amount ?? '0'))).toBe(neg(expectedFee));
    expect(await t.balance(f.treasury.id, 'ETH', 'ETHEREUM')).toEqual({
      amount: sub(sub(before.amount, '0.5'), expectedFee),
      held: '0',
    });
  });

  it('credits the destination vault of an internal transfer, the fee in the native asset', async ({
    t,
    f,
  }) => {
    const opsBefore = await t.balance(f.ops.id, 'USDC', 'ETHEREUM');
    const id = await createApproved(
      t,
      ethTransfer(f, {
        asset: 'USDC',
        amount: '120.5',
        destination: { type: 'VAULT', id: f.ops.id },
      }),
    );
    await t.run(HOUR);
    const tx = await fetchTx(t, id);
    expect(tx.status).toBe('COMPLETED');
    expect(await t.balance(f.ops.id, 'USDC', 'ETHEREUM')).toEqual({
      amount: add(opsBefore.amount, '120.5'),
      held: '0',
    });
    const usdc = changesOf(tx).filter((c) => c.asset === 'USDC');
    expect(sum(usdc.map((c) => c.amount ?? '0'))).toBe('0');
    const eth = changesOf(tx).filter((c) => c.asset === 'ETH');
    expect(eth).toEqual([expect.objectContaining({ amount: neg(tx.fees?.amount ?? '') })]);
  });

  it('charges a sponsoring fee payer, not the source', async ({ t, f }) => {
    const gasBefore = await t.balance(f.gas.id, 'TRX', 'TRON');
    const srcBefore = await t.balance(f.treasury.id, 'TRX', 'TRON');
    const id = await createApproved(t, {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: f.treasury.id },
      destination: { type: 'CONTACT', id: f.contacts.tron.id },
      amount: '10',
      asset: 'TRX',
      blockChain: 'TRON',
      feePayer: { id: f.gas.id },
    });
    await t.run(HOUR);
    const tx = await fetchTx(t, id);
    expect(tx.status).toBe('COMPLETED');
    expect(tx.txHash).toMatch(/^[0-9a-f]{64}$/);
    expect(tx).not.toHaveProperty('nonce');
    expect(await t.balance(f.treasury.id, 'TRX', 'TRON')).toEqual({
      amount: sub(srcBefore.amount, '10'),
      held: '0',
    });
    expect(await t.balance(f.gas.id, 'TRX', 'TRON')).toEqual({
      amount: sub(gasBefore.amount, tx.fees?.amount ?? ''),
      held: '0',
    });
  });

  it('fails at signing when the vault cannot cover amount plus fee, holding nothing', async ({
    t,
    f,
  }) => {
    const before = await t.balance(f.ops.id, 'ETH', 'ETHEREUM');
    const id = await createApproved(
      t,
      ethTransfer(f, { source: { type: 'VAULT', id: f.ops.id }, amount: before.amount }),
    );
    await t.run();
    const tx = await fetchTx(t, id);
    expect(tx.status).toBe('FAILED');
    expect(tx.error).toMatch(
      /^insufficient balance: vault Operations holds [\d.]+ ETH on ETHEREUM, needs [\d.]+$/,
    );
    expect(tx.statusHistory.map((s) => s.status)).toEqual(['PENDING', 'APPROVED', 'FAILED']);
    expect(await t.balance(f.ops.id, 'ETH', 'ETHEREUM')).toEqual(before);
  });

  it('a contract call with the documented magic value reverts, and the fee is still charged', async ({
    t,
    f,
  }) => {
    const before = await t.balance(f.treasury.id, 'ETH', 'ETHEREUM');
    const id = await createApproved(t, {
      category: 'CONTRACT_CALL',
      vaultId: f.treasury.id,
      blockChain: 'ETHEREUM',
      amount: '1',
      data: { callData: '0xdeadbeef' },
    });
    await t.run(HOUR);
    const tx = await fetchTx(t, id);
    expect(tx.status).toBe('FAILED');
    expect(tx.error).toContain('reverted');
    expect(tx.statusHistory.map((s) => s.status)).toEqual([
      'PENDING',
      'APPROVED',
      'SIGNED',
      'SUBMITTED',
      'WAITING_CONFIRMATION',
      'FAILED',
    ]);
    const fee = tx.fees?.amount ?? '';
    expect(changesOf(tx)).toEqual([expect.objectContaining({ amount: neg(fee), asset: 'ETH' })]);
    // The 1 ETH sent with the call stays; only the fee is gone.
    expect(await t.balance(f.treasury.id, 'ETH', 'ETHEREUM')).toEqual({
      amount: sub(before.amount, fee),
      held: '0',
    });
  });

  it('completes a plain contract call with one operation carrying its fee', async ({ t, f }) => {
    const id = await createApproved(t, {
      category: 'CONTRACT_CALL',
      vaultId: f.treasury.id,
      blockChain: 'TRON',
      data: { method: 'freezeBalanceV2', params: {} },
    });
    await t.run(HOUR);
    const tx = await fetchTx(t, id);
    expect(tx.status).toBe('COMPLETED');
    expect(tx.operations).toHaveLength(1);
    expect(sum(changesOf(tx).map((c) => c.amount ?? '0'))).toBe(neg(tx.fees?.amount ?? ''));
  });

  it('a declined transaction is terminal and never moves', async ({ t, f }) => {
    const res = await t.post(paths.transactions(), ethTransfer(f));
    const id = String(res.body.id);
    expect(await t.decline(id, 'Unknown counterparty')).toBe(true);
    expect(await t.approve(id)).toBe(false);
    await t.run(HOUR);
    const tx = await fetchTx(t, id);
    expect(tx.status).toBe('DECLINED');
    expect(tx.statusHistory.map((s) => s.status)).toEqual(['PENDING', 'DECLINED']);
  });

  it('gives broadcasts from one vault on an EVM chain consecutive nonces', async ({ t, f }) => {
    const a = await createApproved(t, ethTransfer(f, { amount: '0.01' }));
    const b = await createApproved(t, ethTransfer(f, { amount: '0.02' }));
    await t.run(HOUR);
    const [ta, tb] = [await fetchTx(t, a), await fetchTx(t, b)];
    expect(Math.abs((ta.nonce ?? 0) - (tb.nonce ?? 0))).toBe(1);
  });

  it('shapes txHash per chain', async ({ t, f }) => {
    const sol = await createApproved(t, {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: f.treasury.id },
      destination: { type: 'VAULT', id: f.gas.id },
      amount: '0.25',
      asset: 'SOL',
      blockChain: 'SOLANA',
    });
    await t.run(HOUR);
    expect((await fetchTx(t, sol)).txHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{88}$/);
  });

  it('keeps a LOW fee on a congested chain SUBMITTED for a long time', async ({ t, f }) => {
    // Ethereum is congested in minutes 0–14 of every hour (fee-model-profiles.ts).
    t.clock.set('2030-01-02T09:02:00.000Z');
    const id = await createApproved(
      t,
      ethTransfer(f, { amount: '0.01', gasParams: { feeTier: 'LOW' } }),
    );
    await t.run(60_000);
    expect(await t.status(id)).toBe('SUBMITTED');
    await t.run(30 * 60_000);
    expect(await t.status(id)).toBe('SUBMITTED');
    await t.run(2 * HOUR);
    expect(await t.status(id)).toBe('COMPLETED');
  });
});

describe('integrity under concurrency', () => {
  it('concurrent transfers from one vault never overdraw it', async ({ t, f }) => {
    const before = await t.balance(f.treasury.id, 'BTC', 'BITCOIN');
    const body = {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: f.treasury.id },
      destination: { type: 'VAULT', id: f.ops.id },
      amount: '0.3',
      asset: 'BTC',
      blockChain: 'BITCOIN',
    };
    const created = await Promise.all(
      Array.from({ length: 10 }, () => t.post(paths.transactions(), body)),
    );
    const ids = created.map((r) => String(r.body.id));
    await Promise.all(ids.map((id) => t.approve(id)));
    await Promise.all([t.run(), t.run(), t.run()]);
    await t.run(5 * HOUR);

    const rows = await t.db
      .select()
      .from(transactions)
      .where(eq(transactions.blockChain, 'BITCOIN'));
    const mine = rows.filter((r) => ids.includes(r.id));
    const completed = mine.filter((r) => r.status === 'COMPLETED');
    const failed = mine.filter((r) => r.status === 'FAILED');
    expect(completed.length + failed.length).toBe(10);
    expect(failed.length).toBeGreaterThan(0);
    expect(completed.length).toBeGreaterThan(0);
    const spent = sum(completed.map((r) => add('0.3', r.fees?.amount ?? '0')));
    const after = await t.balance(f.treasury.id, 'BTC', 'BITCOIN');
    expect(after).toEqual({ amount: sub(before.amount, spent), held: '0' });
    expect(cmp(after.amount, '0')).toBeGreaterThanOrEqual(0);
    for (const r of failed) expect(r.error).toMatch(/^insufficient balance/);
  });
});
