import { describe, expect } from 'vitest';
import { paths } from '#contract/paths.ts';
import { Transaction } from '#contract/transaction.ts';
import { engineTest } from '../../test/engine-test.ts';
import { sdkCaller } from '../../test/sdk-wire.ts';

/**
 * The JS SDK's stakeResource and delegateResource: each a POST to
 * /transactions/ with the fields in the order it writes them, `chain` sent
 * as `blockChain`, the category last (delegate) or after the resource type
 * (stake), unset fields left out as JSON.stringify leaves them.
 */

const it = engineTest.extend('sdk', { scope: 'file' }, ({ t }) => sdkCaller(t, 'tron resources'));

describe('stakeResource and delegateResource, as the JS SDK sends them', () => {
  it('stakes TRX for energy and delegates bandwidth to a contact, each approved and COMPLETED', async ({
    t,
    f,
    sdk,
  }) => {
    const stake = {
      source: { type: 'VAULT', id: f.treasury.id },
      asset: 'TRX',
      blockChain: 'TRON',
      amount: '100',
      resourceType: 'TRON_ENERGY',
      category: 'STAKE',
      externalId: 'js-stake-1',
    };
    const delegate = {
      source: { type: 'VAULT', id: f.treasury.id },
      destination: { type: 'CONTACT', id: f.contacts.tron.id },
      asset: 'TRX',
      blockChain: 'TRON',
      amount: '50',
      resourceType: 'TRON_BANDWIDTH',
      externalId: 'js-delegate-1',
      memo: 'bandwidth for the payout wallet',
      category: 'DELEGATE_RESOURCE',
    };
    const ids: string[] = [];
    for (const body of [stake, delegate]) {
      const created = await sdk.call('js', 'POST', paths.transactions(), body);
      expect(created.status, created.text).toBe(200);
      const tx = Transaction.parse(created.body);
      expect(tx).toMatchObject({
        category: body.category,
        asset: 'TRX',
        blockChain: 'TRON',
        amount: body.amount,
        externalId: body.externalId,
        status: 'PENDING',
      });
      ids.push(tx.id ?? '');
      await sdk.approve('js', tx.id ?? '');
    }
    for (let i = 0; i < 12 && (await t.status(ids[1] ?? '')) !== 'COMPLETED'; i += 1)
      await t.run(10 * 60_000);
    const done = await Promise.all(
      ids.map(async (id) => {
        const got = await sdk.call('js', 'GET', paths.transaction(id));
        return Transaction.parse(got.body);
      }),
    );
    expect(done.map((tx) => tx.status)).toEqual(['COMPLETED', 'COMPLETED']);
    expect(done[1]).toMatchObject({ memo: delegate.memo });
  });
});
