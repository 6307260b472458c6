import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { add, sub } from '#contract/decimal.ts';
import { paths } from '#contract/paths.ts';
import { RampQuoteResponse } from '#contract/ramps.ts';
import { Transaction } from '#contract/transaction.ts';
import { transactions } from '../../db/schema/sandbox.ts';
import type { EngineTestApp } from '../../test/engine-test-app.ts';
import {
  INTENT_CREATE_PATH,
  MARK_DEPOSIT_PATH,
  QUOTE_PATH,
  rampTest as it,
  refused,
  runRampToEnd,
} from '../../test/ramp-fixtures.ts';
import type { SdkCaller } from '../../test/sdk-wire.ts';

/**
 * A ramp is a provider's operation, not one chain transaction: replacing it
 * is refused with a code the SDKs can catch (400), nothing is created, and
 * the ramp moves its money once.
 */

async function quoteAndCreate(
  client: SdkCaller,
  intent: Record<string, unknown>,
  externalId: string,
): Promise<{ id: string; finalFromAmount: string; finalToAmount: string }> {
  const q = await client.call('js', 'POST', QUOTE_PATH, { intent });
  expect(q.status, q.text).toBe(200);
  const [best] = RampQuoteResponse.parse(q.body).quotes;
  if (!best) throw new Error('no quote');
  const created = await client.call('js', 'POST', INTENT_CREATE_PATH, {
    intent,
    quoteId: best.quoteId,
    externalId,
  });
  expect(created.status, created.text).toBe(200);
  const tx = Transaction.parse(created.body);
  return {
    id: tx.id ?? '',
    finalFromAmount: best.finalFromAmount ?? '',
    finalToAmount: best.finalToAmount ?? '',
  };
}

/** Steps the simulator a minute at a time until the ramp is SUBMITTED (each step is a provider's third). */
async function untilSubmitted(t: EngineTestApp, id: string): Promise<void> {
  for (let i = 0; i < 30 && (await t.status(id)) !== 'SUBMITTED'; i += 1) await t.run(60_000);
  expect(await t.status(id)).toBe('SUBMITTED');
}

async function replacementsOf(t: EngineTestApp, id: string) {
  return t.db
    .select({ id: transactions.id })
    .from(transactions)
    .where(eq(transactions.replacesTransactionId, id));
}

describe('replacing a ramp', () => {
  it('a SUBMITTED 50 USDC off-ramp: refused with 400 CATEGORY_NOT_REPLACEABLE naming transactionId, nothing created, and the vault loses the 50 USDC once and no ETH', async ({
    t,
    f,
    r,
    sdk: client,
  }) => {
    const usdc = await t.balance(f.treasury.id, 'USDC', 'ETHEREUM');
    const eth = await t.balance(f.treasury.id, 'ETH', 'ETHEREUM');
    const ramp = await quoteAndCreate(
      client,
      {
        source: { type: 'VAULT', id: f.treasury.id },
        destination: { type: 'BANK_ACCOUNT', id: r.usd.id },
        fromAsset: 'USDC',
        fromAmount: '50',
        fromChain: 'ETHEREUM',
        toAsset: 'USD',
      },
      'replace-off-ramp-1',
    );
    await client.approve('js', ramp.id);
    await untilSubmitted(t, ramp.id);

    const res = await client.call('js', 'POST', paths.replaceTransaction(), {
      transactionId: ramp.id,
    });
    const body = refused(res, 'CATEGORY_NOT_REPLACEABLE', 'transactionId');
    expect(body.message).toContain('OFF_RAMP');
    expect(await replacementsOf(t, ramp.id)).toEqual([]);

    const done = await runRampToEnd(t, ramp.id);
    expect(done.status).toBe('COMPLETED');
    expect(await t.balance(f.treasury.id, 'USDC', 'ETHEREUM')).toEqual({
      amount: sub(usdc.amount, '50'),
      held: usdc.held,
    });
    expect(await t.balance(f.treasury.id, 'ETH', 'ETHEREUM')).toEqual(eth);
  });

  it('a SUBMITTED on-ramp (deposit marked sent): refused the same way, and the vault is credited once', async ({
    t,
    f,
    sdk: client,
  }) => {
    const before = await t.balance(f.treasury.id, 'USDC', 'POLYGON');
    const ramp = await quoteAndCreate(
      client,
      {
        source: { type: 'EXTERNAL_BANK_ACCOUNT', id: null },
        destination: { type: 'VAULT', id: f.treasury.id },
        fromAsset: 'USD',
        toAsset: 'USDC',
        toAmount: '100',
        toChain: 'POLYGON',
        fromPaymentRail: 'ACH',
      },
      'replace-on-ramp-1',
    );
    await client.approve('js', ramp.id);
    const marked = await client.call('js', 'POST', MARK_DEPOSIT_PATH, { transactionId: ramp.id });
    expect(marked.body).toMatchObject({ status: 'SUBMITTED' });

    const res = await client.call('js', 'POST', paths.replaceTransaction(), {
      transactionId: ramp.id,
    });
    refused(res, 'CATEGORY_NOT_REPLACEABLE', 'transactionId');
    expect(await replacementsOf(t, ramp.id)).toEqual([]);

    expect((await runRampToEnd(t, ramp.id)).status).toBe('COMPLETED');
    expect(await t.balance(f.treasury.id, 'USDC', 'POLYGON')).toEqual({
      amount: add(before.amount, '100'),
      held: before.held,
    });
  });
});
