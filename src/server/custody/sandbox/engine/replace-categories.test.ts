import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { add, sub } from '#contract/decimal.ts';
import { TRANSACTION_CATEGORIES, type TransactionCategory } from '#contract/enums.ts';
import { paths } from '#contract/paths.ts';
import { isReplaceableCategory } from '#contract/replacement.ts';
import { transactions } from '../../../db/schema/sandbox.ts';
import { engineTest as it } from '../../../test/engine-test.ts';
import type { EngineFixture, EngineTestApp } from '../../../test/engine-test-app.ts';

/**
 * Whatever its category, a transaction and its replacement never both
 * COMPLETE: exactly one of the pair moves money (its amount and its own fee,
 * once), or the replacement is refused and nothing is created. A ramp or an
 * FX (contract/replacement.ts) is always refused.
 */

const HOUR = 3_600_000;
const AMOUNT = '0.02';

/**
 * A transfer stuck on the chain (LOW fee, `[simulate:stuck]`: parked in
 * SUBMITTED until a replacement decides it), then recorded as `category`:
 * the lifecycle moves what the row's plan says, whatever its category.
 */
async function stuckAs(
  t: EngineTestApp,
  f: EngineFixture,
  category: TransactionCategory,
): Promise<string> {
  const res = await t.post(paths.transactions(), {
    category: 'TRANSFER',
    source: { type: 'VAULT', id: f.treasury.id },
    destination: { type: 'CONTACT', id: f.contacts.eth.id },
    amount: AMOUNT,
    asset: 'ETH',
    blockChain: 'ETHEREUM',
    gasParams: { feeTier: 'LOW' },
    memo: 'held back [simulate:stuck]',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = String(res.body.id);
  await t.approve(id);
  await t.run(60_000);
  expect(await t.status(id)).toBe('SUBMITTED');
  await t.db.update(transactions).set({ category }).where(eq(transactions.id, id));
  return id;
}

async function row(t: EngineTestApp, id: string) {
  const [r] = await t.db.select().from(transactions).where(eq(transactions.id, id));
  if (!r) throw new Error(`no transaction ${id}`);
  return r;
}

const cases = TRANSACTION_CATEGORIES.flatMap((category) =>
  (['approved', 'declined'] as const).map((decision) => ({ category, decision })),
);

describe('a replacement, category by category: never both COMPLETED', () => {
  it.for(cases)(
    '$category, its replacement $decision',
    async ({ category, decision }, { t, f }) => {
      const before = await t.balance(f.treasury.id, 'ETH', 'ETHEREUM');
      const originalId = await stuckAs(t, f, category);
      const res = await t.post(paths.replaceTransaction(), { transactionId: originalId });

      if (!isReplaceableCategory(category)) {
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body).toMatchObject({
          code: 'CATEGORY_NOT_REPLACEABLE',
          fields: [{ field: 'transactionId' }],
        });
        const created = await t.db
          .select({ id: transactions.id })
          .from(transactions)
          .where(eq(transactions.replacesTransactionId, originalId));
        expect(created).toEqual([]);
        // The original is untouched: still SUBMITTED, its amount and fee still held.
        expect(await t.status(originalId)).toBe('SUBMITTED');
        const held = (await row(t, originalId)).fees?.amount ?? '';
        expect(await t.balance(f.treasury.id, 'ETH', 'ETHEREUM')).toEqual({
          amount: before.amount,
          held: add(before.held, add(AMOUNT, held)),
        });
        // Let it land, so the next case starts from a vault holding nothing for it.
        await t.db
          .update(transactions)
          .set({ nextStepAt: t.clock.now() })
          .where(eq(transactions.id, originalId));
        await t.run(HOUR);
        expect(await t.status(originalId)).toBe('COMPLETED');
        return;
      }

      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.category).toBe(category);
      const replacementId = String(res.body.id);
      if (decision === 'approved') await t.approve(replacementId);
      else await t.decline(replacementId, 'not needed');
      await t.run(3 * HOUR);

      const original = await row(t, originalId);
      const replacement = await row(t, replacementId);
      const statuses = [original.status, replacement.status];
      expect(statuses.filter((s) => s === 'COMPLETED')).toHaveLength(1);
      expect(statuses).toEqual(
        decision === 'approved' ? ['FAILED', 'COMPLETED'] : ['COMPLETED', 'DECLINED'],
      );
      const landed = decision === 'approved' ? replacement : original;
      // One amount and one fee left the vault: the one that landed; every hold is released.
      expect(await t.balance(f.treasury.id, 'ETH', 'ETHEREUM')).toEqual({
        amount: sub(before.amount, add(AMOUNT, landed.fees?.amount ?? '')),
        held: before.held,
      });
    },
  );

  it('an INCOMING transaction is someone else’s: refused with INCOMING_NOT_REPLACEABLE, nothing created', async ({
    t,
    f,
  }) => {
    const originalId = await stuckAs(t, f, 'TRANSFER');
    await t.db
      .update(transactions)
      .set({ transactionType: 'INCOMING' })
      .where(eq(transactions.id, originalId));
    const res = await t.post(paths.replaceTransaction(), { transactionId: originalId });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({
      code: 'INCOMING_NOT_REPLACEABLE',
      fields: [{ field: 'transactionId' }],
    });
    const created = await t.db
      .select({ id: transactions.id })
      .from(transactions)
      .where(eq(transactions.replacesTransactionId, originalId));
    expect(created).toEqual([]);
  });
});
