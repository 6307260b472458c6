import { describe, expect } from 'vitest';
import { paths } from '#contract/paths.ts';
import { Transaction } from '#contract/transaction.ts';
import type { EngineFixture, EngineTestApp } from '../../test/engine-test-app.ts';
import { engineTest } from '../../test/engine-test.ts';
import { signedInit, type TestApiUser } from '../../test/api-client.ts';
import { decideAs } from '../../test/change-requests.ts';

// The provider SDK's create-and-approve flow for a transfer, end to end:
// create through the API, approve through the change request, let the
// simulator run it to completion.

/** The three a test works with: the app, its vaults and contacts, the API client. */
interface Bed {
  t: EngineTestApp;
  f: EngineFixture;
  client: TestApiUser;
}

async function createTransfer({ t, f, client }: Bed, memo: string) {
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
  engineTest('goes PENDING → APPROVED → … → COMPLETED', async ({ t, f, client }) => {
    const tx = await createTransfer({ t, f, client }, 'create and approve');
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

  engineTest('rejected, it ends DECLINED and never moves again', async ({ t, f, client }) => {
    const tx = await createTransfer({ t, f, client }, 'create and reject');
    const res = await decideAs(t.app, client, tx.id ?? '', {
      action: 'reject',
      reason: 'Wrong amount',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await t.run(60 * 60_000);
    expect(await t.status(tx.id ?? '')).toBe('DECLINED');
  });
});
