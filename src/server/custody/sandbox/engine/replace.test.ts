import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { add, cmp, mul, sub } from '#contract/decimal.ts';
import { paths } from '#contract/paths.ts';
import type { Transaction } from '#contract/transaction.ts';
import { declaredWrite } from '../../../db/declared-writes.ts';
import { changeRequests, transactions, vaultBalances } from '../../../db/schema/sandbox.ts';
import { engineTest as it } from '../../../test/engine-test.ts';
import type { EngineFixture, EngineTestApp } from '../../../test/engine-test-app.ts';
import { readPlan } from './plan.ts';

const MIGRATIONS = path.join(import.meta.dirname, '../../../db/migrations/sandbox');

const HOUR = 3_600_000;
// Ethereum is congested in minutes 0–14 of every hour: a LOW fee then waits an hour in SUBMITTED.
const CONGESTED = '2030-01-03T10:01:00.000Z';

const replace = (t: EngineTestApp, transactionId: string) =>
  t.post(paths.replaceTransaction(), { transactionId });

async function stuckTransfer(
  t: EngineTestApp,
  f: EngineFixture,
  over: Record<string, unknown> = {},
): Promise<string> {
  t.clock.set(CONGESTED);
  const res = await t.post(paths.transactions(), {
    category: 'TRANSFER',
    source: { type: 'VAULT', id: f.treasury.id },
    destination: { type: 'CONTACT', id: f.contacts.eth.id },
    amount: '0.1',
    asset: 'ETH',
    blockChain: 'ETHEREUM',
    gasParams: { feeTier: 'LOW' },
    ...over,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = String(res.body.id);
  await t.approve(id);
  await t.run(60_000);
  expect(await t.status(id)).toBe('SUBMITTED');
  return id;
}

async function row(t: EngineTestApp, id: string) {
  const [r] = await t.db.select().from(transactions).where(eq(transactions.id, id));
  if (!r) throw new Error(`no transaction ${id}`);
  return r;
}

describe('POST /transactions/replace_transaction/', () => {
  it('replaces a stuck transaction: PENDING, own id, same parties, same nonce, ≥ 10% more fee, own change request', async ({
    t,
    f,
  }) => {
    const originalId = await stuckTransfer(t, f);
    const original = await row(t, originalId);
    const res = await replace(t, originalId);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const replacement = res.body as Transaction;
    expect(replacement.id).not.toBe(originalId);
    expect(replacement).toMatchObject({
      status: 'PENDING',
      category: 'TRANSFER',
      subCategory: 'EXTERNAL_TRANSFER',
      asset: 'ETH',
      amount: '0.1',
      nonce: original.nonce,
      source: original.source,
      destination: original.destination,
    });
    expect(
      cmp(replacement.fees?.amount ?? '0', mul(original.fees?.amount ?? '', '1.1')),
    ).toBeGreaterThanOrEqual(0);
    const stored = await row(t, String(replacement.id));
    expect(stored.replacesTransactionId).toBe(originalId);
    const requests = await t.db
      .select()
      .from(changeRequests)
      .where(eq(changeRequests.entityId, String(replacement.id)));
    expect(requests).toHaveLength(1);
  });

  it('when the replacement completes, the original ends FAILED naming it and its hold is released', async ({
    t,
    f,
  }) => {
    const before = await t.balance(f.treasury.id, 'ETH', 'ETHEREUM');
    const originalId = await stuckTransfer(t, f, { amount: '0.2' });
    const replacementId = String((await replace(t, originalId)).body.id);
    await t.approve(replacementId);
    // The original's own inclusion time passes while the replacement is in flight: it must not land.
    await t.run(3 * HOUR);
    expect(await t.status(replacementId)).toBe('COMPLETED');
    const original = await row(t, originalId);
    expect(original.status).toBe('FAILED');
    expect(original.error).toContain(replacementId);
    expect(original.balanceChanges).toBeNull();
    const replacement = await row(t, replacementId);
    expect(replacement.nonce).toBe(original.nonce);
    const after = await t.balance(f.treasury.id, 'ETH', 'ETHEREUM');
    expect(after.held).toBe(before.held);
    // Only the replacement's amount and fee left the vault.
    expect(cmp(after.amount, before.amount)).toBe(-1);
  });

  it('a declined replacement lets the original land after all', async ({ t, f }) => {
    const originalId = await stuckTransfer(t, f, { amount: '0.01' });
    const replacementId = String((await replace(t, originalId)).body.id);
    await t.run(2 * HOUR);
    // The original came due while its replacement was active: parked in SUBMITTED.
    expect(await t.status(originalId)).toBe('SUBMITTED');
    await t.decline(replacementId, 'not needed');
    await t.run(2 * HOUR);
    expect(await t.status(originalId)).toBe('COMPLETED');
  });

  it('a replacement of a replacement: when it lands, every transaction it replaced ends FAILED naming it, and only its amount and fee leave the vault', async ({
    t,
    f,
  }) => {
    const before = await t.balance(f.treasury.id, 'ETH', 'ETHEREUM');
    const firstId = await stuckTransfer(t, f, { amount: '0.3' });
    const secondId = String((await replace(t, firstId)).body.id);
    await t.approve(secondId);
    await t.run(5_000);
    expect(await t.status(secondId)).toBe('SUBMITTED');
    const third = await replace(t, secondId);
    expect(third.status, JSON.stringify(third.body)).toBe(200);
    const thirdId = String(third.body.id);
    expect((await row(t, thirdId)).nonce).toBe((await row(t, firstId)).nonce);
    // The first cannot be replaced a second time while its chain is in flight.
    expect((await replace(t, firstId)).body.code).toBe('REPLACEMENT_EXISTS');
    await t.approve(thirdId);
    await t.run(3 * HOUR);

    expect(await t.status(thirdId)).toBe('COMPLETED');
    for (const id of [firstId, secondId]) {
      const replaced = await row(t, id);
      expect(replaced.status, id).toBe('FAILED');
      expect(replaced.error, id).toBe(`replaced by transaction ${thirdId}, which took its nonce`);
      expect(replaced.balanceChanges, id).toBeNull();
      expect(replaced.nextStepAt, id).toBeNull();
    }
    const after = await t.balance(f.treasury.id, 'ETH', 'ETHEREUM');
    expect(after.held).toBe(before.held);
    const fee = (await row(t, thirdId)).fees?.amount ?? '';
    expect(after.amount).toBe(sub(before.amount, add('0.3', fee)));
  });

  it('a declined replacement of a replacement lets the one it replaced land, and the first fails naming that one', async ({
    t,
    f,
  }) => {
    const before = await t.balance(f.treasury.id, 'ETH', 'ETHEREUM');
    const firstId = await stuckTransfer(t, f, { amount: '0.04' });
    const secondId = String((await replace(t, firstId)).body.id);
    await t.approve(secondId);
    await t.run(5_000);
    const thirdId = String((await replace(t, secondId)).body.id);
    await t.run(HOUR);
    // Both wait, parked, for the newest to be decided.
    expect(await t.status(firstId)).toBe('SUBMITTED');
    expect(await t.status(secondId)).toBe('SUBMITTED');
    await t.decline(thirdId, 'not needed');
    await t.run(HOUR);

    expect(await t.status(secondId)).toBe('COMPLETED');
    const first = await row(t, firstId);
    expect(first.status).toBe('FAILED');
    expect(first.error).toBe(`replaced by transaction ${secondId}, which took its nonce`);
    const after = await t.balance(f.treasury.id, 'ETH', 'ETHEREUM');
    expect(after.held).toBe(before.held);
    const fee = (await row(t, secondId)).fees?.amount ?? '';
    expect(after.amount).toBe(sub(before.amount, add('0.04', fee)));
  });

  it('a chain left behind by the old engine (the first still SUBMITTED, holding) is woken by the migration and fails naming the one that landed', async ({
    t,
    f,
  }) => {
    const before = await t.balance(f.treasury.id, 'ETH', 'ETHEREUM');
    const firstId = await stuckTransfer(t, f, { amount: '0.05' });
    const secondId = String((await replace(t, firstId)).body.id);
    await t.approve(secondId);
    await t.run(5_000);
    const thirdId = String((await replace(t, secondId)).body.id);
    await t.approve(thirdId);
    await t.run(HOUR);
    expect(await t.status(thirdId)).toBe('COMPLETED');

    // What the engine left before a landing failed the whole chain: the first parked in
    // SUBMITTED, its hold still taken.
    const first = await row(t, firstId);
    await t.db
      .update(transactions)
      .set({ status: 'SUBMITTED', error: null, nextStepAt: null })
      .where(eq(transactions.id, firstId));
    for (const hold of readPlan(first.simulation)?.holds ?? [])
      await t.db
        .update(vaultBalances)
        .set({ held: sql`${vaultBalances.held} + ${hold.amount}::numeric` })
        .where(
          and(
            eq(vaultBalances.vaultId, hold.vaultId),
            eq(vaultBalances.asset, hold.asset),
            eq(vaultBalances.chain, hold.chain),
          ),
        );
    expect((await t.balance(f.treasury.id, 'ETH', 'ETHEREUM')).held).not.toBe(before.held);
    await t.run(HOUR);
    expect(await t.status(firstId)).toBe('SUBMITTED');

    const migration = await readFile(
      path.join(MIGRATIONS, '0007_wake_chains_left_submitted.sql'),
      'utf8',
    );
    // A migration's statements are not drizzle's builder's: this one says what it writes.
    await declaredWrite(t.db, [transactions], () => t.db.execute(sql.raw(migration)));
    await t.run();
    const woken = await row(t, firstId);
    expect(woken.status).toBe('FAILED');
    expect(woken.error).toBe(`replaced by transaction ${thirdId}, which took its nonce`);
    expect((await t.balance(f.treasury.id, 'ETH', 'ETHEREUM')).held).toBe(before.held);
  });

  it('a LOW transfer tagged [simulate:stuck] waits in SUBMITTED until its replacement lands, and each links the other', async ({
    t,
    f,
  }) => {
    t.clock.set('2030-01-03T10:30:00.000Z'); // Ethereum is not congested now
    const created = await t.post(paths.transactions(), {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: f.treasury.id },
      destination: { type: 'CONTACT', id: f.contacts.eth.id },
      amount: '0.01',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      memo: 'e2e [simulate:stuck]',
      gasParams: { feeTier: 'LOW' },
    });
    const originalId = String(created.body.id);
    await t.approve(originalId);
    await t.run(60_000);
    await t.run(24 * HOUR);
    expect(await t.status(originalId)).toBe('SUBMITTED');

    const replacementId = String((await replace(t, originalId)).body.id);
    const pendingView = (await t.get(paths.transaction(originalId))).body as Transaction;
    expect(pendingView.gasParams).toEqual({ feeTier: 'LOW' });
    expect(pendingView.replacements).toEqual([
      expect.objectContaining({ id: replacementId, status: 'PENDING' }),
    ]);
    await t.approve(replacementId);
    await t.run(HOUR);
    expect(await t.status(replacementId)).toBe('COMPLETED');
    const original = (await t.get(paths.transaction(originalId))).body as Transaction;
    expect(original.status).toBe('FAILED');
    expect(original.error).toContain(replacementId);
    const replacement = (await t.get(paths.transaction(replacementId))).body as Transaction;
    expect(replacement.replacesTransactionId).toBe(originalId);
    expect(replacement.gasParams).toEqual({ feeTier: 'HIGH' });
  });

  it('refuses each failed precondition with its own code', async ({ t, f }) => {
    const unknown = await replace(t, 'no-such-transaction');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');

    const pending = await t.post(paths.transactions(), {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: f.treasury.id },
      destination: { type: 'VAULT', id: f.ops.id },
      amount: '0.01',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
    });
    const notSubmitted = await replace(t, String(pending.body.id));
    expect(notSubmitted.status).toBe(400);
    expect(notSubmitted.body.code).toBe('NOT_REPLACEABLE_STATUS');
    expect(notSubmitted.body.message).toContain('PENDING');

    const tron = await t.post(paths.transactions(), {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: f.treasury.id },
      destination: { type: 'CONTACT', id: f.contacts.tron.id },
      amount: '1',
      asset: 'TRX',
      blockChain: 'TRON',
    });
    const unsupported = await replace(t, String(tron.body.id));
    expect(unsupported.status).toBe(400);
    expect(unsupported.body.code).toBe('REPLACEMENT_NOT_SUPPORTED');
    expect(unsupported.body.message).toContain('TRON');

    const originalId = await stuckTransfer(t, f, { amount: '0.02' });
    const first = await replace(t, originalId);
    expect(first.status).toBe(200);
    const second = await replace(t, originalId);
    expect(second.status).toBe(400);
    expect(second.body.code).toBe('REPLACEMENT_EXISTS');
    expect(second.body.message).toContain(String(first.body.id));

    const missingId = await t.post(paths.replaceTransaction(), {});
    expect(missingId.status).toBe(400);
  });

  it('two concurrent replace calls make one replacement', async ({ t, f }) => {
    const originalId = await stuckTransfer(t, f, { amount: '0.03' });
    const results = await Promise.all([
      replace(t, originalId),
      replace(t, originalId),
      replace(t, originalId),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const replacements = await t.db
      .select()
      .from(transactions)
      .where(eq(transactions.replacesTransactionId, originalId));
    expect(replacements).toHaveLength(1);
  });
});

describe('POST /transactions/estimate_fee/', () => {
  const body = (f: EngineFixture, over: Record<string, unknown> = {}) => ({
    category: 'TRANSFER',
    source: { type: 'VAULT', id: f.treasury.id },
    destination: { type: 'CONTACT', id: f.contacts.eth.id },
    amount: '1',
    asset: 'ETH',
    blockChain: 'ETHEREUM',
    ...over,
  });

  it('answers high > medium > low in the native asset, and signing charges the chosen tier’s estimate', async ({
    t,
    f,
  }) => {
    t.clock.set('2030-01-03T12:30:00.000Z');
    const res = await t.post(paths.estimateFee(), body(f, { dataSignatureHex: '00' }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const fees = res.body as Record<
      'high' | 'medium' | 'low',
      { expectedFeeInAsset: string; asset: string }
    >;
    expect(fees.high.asset).toBe('ETH');
    expect(cmp(fees.high.expectedFeeInAsset, fees.medium.expectedFeeInAsset)).toBe(1);
    expect(cmp(fees.medium.expectedFeeInAsset, fees.low.expectedFeeInAsset)).toBe(1);

    const created = await t.post(paths.transactions(), {
      ...body(f),
      gasParams: { feeTier: 'MEDIUM' },
    });
    const id = String(created.body.id);
    await t.approve(id);
    await t.run();
    expect((await row(t, id)).fees?.amount).toBe(fees.medium.expectedFeeInAsset);
  });

  it('validates parties, asset and chain as a transfer does; an unknown chain is a 400', async ({
    t,
    f,
  }) => {
    const chain = await t.post(paths.estimateFee(), body(f, { blockChain: 'NARNIA' }));
    expect(chain.status).toBe(400);
    expect(chain.body.code).toBe('UNSUPPORTED_CHAIN');
    const contact = await t.post(
      paths.estimateFee(),
      body(f, { destination: { type: 'CONTACT', id: f.contacts.ethPending.id } }),
    );
    expect(contact.status).toBe(400);
    expect(contact.body.code).toBe('CONTACT_NOT_APPROVED');
    const asset = await t.post(paths.estimateFee(), body(f, { asset: 'TRX' }));
    expect(asset.body.code).toBe('ASSET_NOT_ON_CHAIN');
    const shape = await t.post(paths.estimateFee(), body(f, { category: 'STAKE' }));
    expect(shape.status).toBe(400);
  });

  it('estimates a stake, a delegation and a contract call at what signing would charge', async ({
    t,
    f,
  }) => {
    t.clock.set('2030-01-04T12:30:00.000Z');
    const source = { type: 'VAULT', id: f.treasury.id };
    const native = await t.post(paths.estimateFee(), body(f, { asset: 'ETH' }));
    const stake = await t.post(paths.estimateFee(), {
      category: 'STAKE',
      source,
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      amount: '1',
    });
    expect(stake.status, JSON.stringify(stake.body)).toBe(200);
    expect(stake.body).toEqual(native.body);
    const call = await t.post(paths.estimateFee(), {
      category: 'CONTRACT_CALL',
      vaultId: f.treasury.id,
      blockChain: 'ETHEREUM',
      data: { callData: '0xa9059cbb' },
    });
    expect(call.status, JSON.stringify(call.body)).toBe(200);
    expect(call.body).toEqual(native.body);
    const delegate = await t.post(paths.estimateFee(), {
      category: 'DELEGATE_RESOURCE',
      source,
      destination: { type: 'CONTACT', id: f.contacts.tron.id },
      asset: 'TRX',
      blockChain: 'TRON',
      amount: '10',
      resourceType: 'TRON_ENERGY',
    });
    expect(delegate.status, JSON.stringify(delegate.body)).toBe(200);
    expect((delegate.body as { high: { asset: string } }).high.asset).toBe('TRX');
    // The same rules as the create: a delegation off TRON is refused, naming the field.
    const off = await t.post(paths.estimateFee(), {
      category: 'DELEGATE_RESOURCE',
      source,
      destination: { type: 'CONTACT', id: f.contacts.eth.id },
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      amount: '1',
      resourceType: 'TRON_ENERGY',
    });
    expect(off.status).toBe(400);
    expect(off.body.code).toBe('DELEGATE_RESOURCE_NOT_SUPPORTED');
  });
});
