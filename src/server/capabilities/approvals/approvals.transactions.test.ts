import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '#contract/paths.ts';
import { Transaction } from '#contract/transaction.ts';
import {
  createEngineFixture,
  createEngineTestApp,
  type EngineFixture,
  type EngineTestApp,
} from '../../test/engine-test-app.ts';
import { createTestApiUser, signedInit, type TestApiUser } from '../../test/api-client.ts';
import { decideAs } from '../../test/change-requests.ts';

// The provider SDK's create-and-approve flow for a transfer, end to end:
// create through the API, approve through the change request, let the
// simulator run it to completion.
let t: EngineTestApp;
let f: EngineFixture;
let client: TestApiUser;
beforeAll(async () => {
  t = await createEngineTestApp();
  f = await createEngineFixture(t.db, t.orgId);
  client = await createTestApiUser(t, 'payments');
});
afterAll(() => t.close());

async function createTransfer(memo: string) {
  const url = paths.transactions();
  const body = {
    category: 'TRANSFER',
    source: { type: 'VAULT', id: f.treasury.id },
    destination: { type: 'CONTACT', id: f.contacts.eth.id },
    amount: '0.25',
    asset: 'ETH',
    blockChain: 'ETHEREUM',
    memo,
  };
  const res = await t.app.request(url, signedInit(client, 'POST', url, body));
  expect(res.status, await res.clone().text()).toBe(200);
  return Transaction.parse(await res.json());
}

describe('a transfer created by an API client and approved by it', () => {
  it('goes PENDING → APPROVED → … → COMPLETED', async () => {
    const tx = await createTransfer('create and approve');
    expect(tx).toMatchObject({ status: 'PENDING', createdById: client.id });
    const res = await decideAs(t.app, client, tx.id ?? '', { action: 'approve' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await t.status(tx.id ?? '')).toBe('APPROVED');
    // Well past any chain's confirmation time at scale 1.
    for (let i = 0; i < 20 && (await t.status(tx.id ?? '')) !== 'COMPLETED'; i += 1) {
      await t.run(10 * 60_000);
    }
    expect(await t.status(tx.id ?? '')).toBe('COMPLETED');
  });

  it('rejected, it ends DECLINED and never moves again', async () => {
    const tx = await createTransfer('create and reject');
    const res = await decideAs(t.app, client, tx.id ?? '', {
      action: 'reject',
      reason: 'Wrong amount',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await t.run(60 * 60_000);
    expect(await t.status(tx.id ?? '')).toBe('DECLINED');
  });
});
