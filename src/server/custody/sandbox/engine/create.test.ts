import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { paths } from '#contract/paths.ts';
import {
  changeRequests,
  transactionStatusEvents,
  transactions,
  wallets,
} from '../../../db/schema/sandbox.ts';
import { engineTest as it } from '../../../test/engine-test.ts';

describe('POST /transactions/ creates each kind PENDING', () => {
  it('a transfer to a contact: EXTERNAL_TRANSFER with enriched parties and its change request', async ({
    t,
    f,
    requests: { transfer, create },
  }) => {
    const res = await create(transfer({ externalId: 'create-contact-1', memo: 'Invoice 7' }));
    expect(res.status).toBe(200);
    const tx = res.body;
    expect(tx).toMatchObject({
      status: 'PENDING',
      category: 'TRANSFER',
      subCategory: 'EXTERNAL_TRANSFER',
      transactionType: 'OUTGOING',
      blockChain: 'ETHEREUM',
      asset: 'ETH',
      amount: '0.5',
      amountInUSD: '1500',
      externalId: 'create-contact-1',
      memo: 'Invoice 7',
      vaultId: f.treasury.id,
      source: { type: 'VAULT', id: f.treasury.id, name: 'Treasury', chain: 'ETHEREUM' },
      destination: { type: 'CONTACT', id: f.contacts.eth.id, name: 'Exchange', chain: 'ETHEREUM' },
    });
    const [wallet] = await t.db
      .select({ address: wallets.address })
      .from(wallets)
      .where(and(eq(wallets.vaultId, f.treasury.id), eq(wallets.blockchain, 'ETHEREUM')));
    expect((tx.source as { address?: string }).address).toBe(wallet?.address);
    for (const absent of ['txHash', 'operations', 'balanceChanges', 'nonce', 'error'])
      expect(tx).not.toHaveProperty(absent);

    const id = String(tx.id);
    const events = await t.db
      .select()
      .from(transactionStatusEvents)
      .where(eq(transactionStatusEvents.transactionId, id));
    expect(events.map((e) => e.status)).toEqual(['PENDING']);
    const [request] = await t.db
      .select()
      .from(changeRequests)
      .where(eq(changeRequests.entityId, id));
    expect(request).toMatchObject({ entityType: 'TRANSACTION', status: 'PENDING', orgId: t.orgId });
    expect(request?.approvalMessage).toContain(request?.approvalId ?? 'missing');
    expect(request?.createdByType).toBe('STAFF');
  });

  it('a transfer between vaults: INTERNAL_TRANSFER', async ({
    f,
    requests: { vault, transfer, create },
  }) => {
    const res = await create(transfer({ destination: vault(f.ops.id) }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      subCategory: 'INTERNAL_TRANSFER',
      destination: { type: 'VAULT', id: f.ops.id, name: 'Operations' },
    });
  });

  it('strips the Python SDK dataSignatureHex and takes a fee payer where fees can be sponsored', async ({
    t,
    f,
    requests: { vault, contact, create },
  }) => {
    const res = await create({
      category: 'TRANSFER',
      source: vault(f.treasury.id),
      destination: contact(f.contacts.tron.id),
      amount: '25',
      asset: 'TRX',
      blockChain: 'TRON',
      feePayer: { id: f.gas.id },
      gasParams: { feeTier: 'LOW' },
      dataSignatureHex: 'abcd',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [row] = await t.db
      .select()
      .from(transactions)
      .where(eq(transactions.id, String(res.body.id)));
    expect(row).toMatchObject({ feePayerId: f.gas.id, feeTier: 'LOW' });
  });

  it('a contract call: CONTRACT_CALL with a VAULT source and no asset or destination', async ({
    f,
    requests: { create },
  }) => {
    const res = await create({
      category: 'CONTRACT_CALL',
      vaultId: f.treasury.id,
      blockChain: 'ETHEREUM',
      data: { callData: '0xa9059cbb00', toAddress: '0xabc' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      category: 'CONTRACT_CALL',
      subCategory: 'CONTRACT_CALL',
      source: { type: 'VAULT', id: f.treasury.id },
    });
    expect(res.body).not.toHaveProperty('asset');
    expect(res.body).not.toHaveProperty('destination');
  });

  it('contract calls with each chain’s data variant', async ({ f, requests: { create } }) => {
    const calls = [
      {
        blockChain: 'ICP',
        data: { canisterId: 'ryjl3-tyaaa-aaaaa-aaaba-cai', method: 'icrc1_transfer', arg: '4449' },
      },
      { blockChain: 'SOLANA', data: { messageHex: '0badc0de' } },
      { blockChain: 'TRON', data: { method: 'freezeBalanceV2', params: { resource: 'ENERGY' } } },
      { blockChain: 'POLYGON', amount: '1.25', data: { callData: '0x00' } },
    ];
    for (const call of calls) {
      const res = await create({ category: 'CONTRACT_CALL', vaultId: f.treasury.id, ...call });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  });

  it('a stake and a resource delegation', async ({ f, requests: { vault, contact, create } }) => {
    const stake = await create({
      category: 'STAKE',
      source: vault(f.treasury.id),
      asset: 'TRX',
      blockChain: 'TRON',
      amount: '1000',
      resourceType: 'TRON_ENERGY',
    });
    expect(stake.status, JSON.stringify(stake.body)).toBe(200);
    expect(stake.body).toMatchObject({
      category: 'STAKE',
      subCategory: 'STAKE',
      resourceType: 'TRON_ENERGY',
    });
    const delegate = await create({
      category: 'DELEGATE_RESOURCE',
      source: vault(f.treasury.id),
      destination: contact(f.contacts.tron.id),
      asset: 'TRX',
      blockChain: 'TRON',
      amount: '500',
      resourceType: 'TRON_BANDWIDTH',
    });
    expect(delegate.status, JSON.stringify(delegate.body)).toBe(200);
    expect(delegate.body).toMatchObject({
      category: 'DELEGATE_RESOURCE',
      subCategory: 'DELEGATE_RESOURCE',
      destination: { type: 'CONTACT', id: f.contacts.tron.id },
    });
  });
});

describe('externalId', () => {
  it('control characters are refused on every kind of create, naming externalId, so none is unfindable', async ({
    t,
    f,
    requests: { transfer, expectRefused },
  }) => {
    const before = await t.db.select({ id: transactions.id }).from(transactions);
    const contractCall = {
      category: 'CONTRACT_CALL',
      vaultId: f.treasury.id,
      blockChain: 'ETHEREUM',
      data: { callData: '0x00' },
    };
    for (const externalId of ['inv\u0001-1', 'inv\u001b[31m', 'in\tv-2', 'inv\u0085-3']) {
      const res = await expectRefused(transfer({ externalId }), 'externalId', 'VALIDATION_ERROR');
      expect(res.message).toContain('externalId must not contain control characters');
      await expectRefused({ ...contractCall, externalId }, 'externalId', 'VALIDATION_ERROR');
    }
    expect(await t.db.select({ id: transactions.id }).from(transactions)).toHaveLength(
      before.length,
    );
    // The same characters are refused by the list's filter, with the same words.
    const listed = await t.get(
      `${paths.transactions()}?externalId=${encodeURIComponent('inv\u0001-1')}`,
    );
    expect(listed.status).toBe(400);
    expect(String(listed.body.message)).toContain('externalId must not contain control characters');
  });

  it('a duplicate is refused with DUPLICATE_EXTERNAL_ID and creates nothing', async ({
    t,
    requests: { transfer, create, expectRefused },
  }) => {
    expect((await create(transfer({ externalId: 'dup-1' }))).status).toBe(200);
    const before = await t.db.select({ id: transactions.id }).from(transactions);
    const res = await expectRefused(
      transfer({ externalId: 'dup-1', amount: '0.1' }),
      'externalId',
      'DUPLICATE_EXTERNAL_ID',
    );
    expect(res.message).toContain('dup-1');
    expect(await t.db.select({ id: transactions.id }).from(transactions)).toHaveLength(
      before.length,
    );
  });

  it('two concurrent creates with one externalId make exactly one transaction', async ({
    t,
    requests: { transfer, create },
  }) => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () => create(transfer({ externalId: 'race-1' }))),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200))
      expect(r.body.code).toBe('DUPLICATE_EXTERNAL_ID');
    const rows = await t.db
      .select()
      .from(transactions)
      .where(eq(transactions.externalId, 'race-1'));
    expect(rows).toHaveLength(1);
    const requests = await t.db
      .select()
      .from(changeRequests)
      .where(eq(changeRequests.entityId, rows[0]?.id ?? ''));
    expect(requests).toHaveLength(1);
  });
});
