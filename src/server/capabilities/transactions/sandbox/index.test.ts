import { describe, expect } from 'vitest';
import { paths, toQueryString } from '#contract/paths.ts';
import { Transaction, TransactionListResponse } from '#contract/transaction.ts';
import { slowAfterMs } from '../../../custody/sandbox/fee-model.ts';
import { engineTest as it } from '../../../test/engine-test.ts';
import { TIME_SCALE, type EngineTestApp } from '../../../test/engine-test-app.ts';

// Ethereum is congested in minutes 0–14 of every hour: a LOW fee then waits an hour in SUBMITTED.
const CONGESTED = '2030-01-03T10:01:00.000Z';

async function read(t: EngineTestApp, id: string) {
  const one = await t.get(paths.transaction(id));
  expect(one.status, JSON.stringify(one.body)).toBe(200);
  const list = await t.get(
    `${paths.transactions()}${toQueryString({ status: 'SUBMITTED', limit: 100 })}`,
  );
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  const listed = TransactionListResponse.parse(list.body).results.find((r) => r.id === id);
  return { one: Transaction.parse(one.body), listed };
}

describe('a transaction past its fee tier’s usual time', () => {
  it('is flagged on its page and in the list once the clock passes it, by the engine’s clock', async ({
    t,
    f,
  }) => {
    t.clock.set(CONGESTED);
    const created = await t.post(paths.transactions(), {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: f.treasury.id },
      destination: { type: 'CONTACT', id: f.contacts.eth.id },
      amount: '0.01',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      gasParams: { feeTier: 'LOW' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = String(created.body.id);
    await t.approve(id);
    await t.run(60_000);
    expect(await t.status(id)).toBe('SUBMITTED');

    const submittedAt = Date.parse((await read(t, id)).one.updatedAt ?? '');
    const slowAfter = new Date(
      submittedAt + slowAfterMs('ETHEREUM', 'LOW', 'SUBMITTED', TIME_SCALE),
    ).toISOString();
    const before = await read(t, id);
    expect(before.one).toMatchObject({
      gasParams: { feeTier: 'LOW' },
      slowAfter,
      slowerThanUsual: false,
    });
    expect(before.listed).toMatchObject({
      gasParams: { feeTier: 'LOW' },
      slowAfter,
      slowerThanUsual: false,
    });

    t.clock.set(slowAfter);
    await t.run();
    expect(await t.status(id)).toBe('SUBMITTED');
    const after = await read(t, id);
    expect(after.one).toMatchObject({ slowAfter, slowerThanUsual: true });
    expect(after.listed).toMatchObject({ slowAfter, slowerThanUsual: true });
  });

  it('is not flagged once it completes', async ({ t, f }) => {
    t.clock.set('2030-01-03T10:30:00.000Z');
    const created = await t.post(paths.transactions(), {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: f.treasury.id },
      destination: { type: 'CONTACT', id: f.contacts.eth.id },
      amount: '0.01',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      gasParams: { feeTier: 'HIGH' },
    });
    const id = String(created.body.id);
    await t.approve(id);
    for (let i = 0; i < 6; i += 1) await t.run(200_000);
    expect(await t.status(id)).toBe('COMPLETED');
    const one = Transaction.parse((await t.get(paths.transaction(id))).body);
    expect(one.slowAfter).toBeUndefined();
    expect(one.slowerThanUsual).toBeUndefined();
  });
});
