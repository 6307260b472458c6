import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { toChecksumAddress } from '#contract/contact-address.ts';
import { paths } from '#contract/paths.ts';
import { wallets } from '../../../db/schema/sandbox.ts';
import { createVault } from '../../../test/fixtures.ts';
import { engineTest as it } from '../../../test/engine-test.ts';

describe('POST /transactions/ names the field and the rule it breaks', () => {
  it('shape: an unknown category, a missing field, a bad amount, an unknown field', async ({
    requests: { transfer, expectRefused },
  }) => {
    await expectRefused({ ...transfer(), category: 'TELEPORT' }, 'category', 'VALIDATION_ERROR');
    const { source: _s, ...noSource } = transfer();
    await expectRefused(noSource, 'source', 'VALIDATION_ERROR');
    await expectRefused(transfer({ amount: '-1' }), 'amount');
    await expectRefused(transfer({ amount: 1 }), 'amount');
    await expectRefused(transfer({ colour: 'red' }), 'colour');
  });

  it('chain and asset', async ({ requests: { transfer, create, expectRefused } }) => {
    await expectRefused(transfer({ blockChain: 'DOGECOIN' }), 'blockChain', 'UNSUPPORTED_CHAIN');
    await expectRefused(transfer({ asset: 'DOGE' }), 'asset', 'ASSET_NOT_ON_CHAIN');
    await expectRefused(
      transfer({ asset: 'USDC', amount: '1.1234567' }),
      'amount',
      'AMOUNT_PRECISION',
    );
    // Trailing zeros add no precision.
    expect((await create(transfer({ asset: 'USDC', amount: '1.1234560000' }))).status).toBe(200);
  });

  it('source vault', async ({ f, requests: { vault, contact, transfer, expectRefused } }) => {
    await expectRefused(transfer({ source: vault('no-such-vault') }), 'source.id', 'UNKNOWN_VAULT');
    await expectRefused(
      transfer({ source: contact(f.contacts.eth.id) }),
      'source.type',
      'INVALID_SOURCE_TYPE',
    );
  });

  it('a wallet or vault added since the last create is found by the next one', async ({
    t,
    requests: { vault, transfer, create, expectRefused },
  }) => {
    // The engine keeps the vaults it resolved while the vault and wallet tables are unchanged
    // (engine/parties.ts): a change to either must reach the very next create.
    const bare = await createVault(t.db, { orgId: t.orgId, vaultName: 'No wallets yet' });
    await t.db.delete(wallets).where(eq(wallets.vaultId, bare.id));
    await expectRefused(
      transfer({ destination: vault(bare.id) }),
      'destination.id',
      'NO_WALLET_ON_CHAIN',
    );
    await t.db.insert(wallets).values({
      id: randomUUID(),
      vaultId: bare.id,
      blockchain: 'ETHEREUM',
      address: `0x${'ab'.repeat(20)}`,
      createdAt: new Date(),
    });
    expect((await create(transfer({ destination: vault(bare.id) }))).status).toBe(200);
    const added = await createVault(t.db, { orgId: t.orgId, vaultName: 'Added later' });
    expect((await create(transfer({ destination: vault(added.id) }))).status).toBe(200);
  });

  it('destination contact and vault', async ({
    f,
    requests: { vault, contact, transfer, expectRefused },
  }) => {
    await expectRefused(
      transfer({ destination: contact('nobody') }),
      'destination.id',
      'UNKNOWN_CONTACT',
    );
    await expectRefused(
      transfer({ destination: contact(f.contacts.ethPending.id) }),
      'destination.id',
      'CONTACT_NOT_APPROVED',
    );
    await expectRefused(
      transfer({ destination: contact(f.contacts.tron.id) }),
      'destination.id',
      'CONTACT_WRONG_CHAIN',
    );
    await expectRefused(
      transfer({ destination: contact(f.contacts.ethUsdcOnly.id) }),
      'destination.id',
      'ASSET_NOT_ALLOWED_FOR_CONTACT',
    );
    await expectRefused(
      transfer({ destination: vault('nowhere') }),
      'destination.id',
      'UNKNOWN_VAULT',
    );
    await expectRefused(
      transfer({ destination: vault(f.treasury.id) }),
      'destination.id',
      'SAME_SOURCE_AND_DESTINATION',
    );
    await expectRefused(
      transfer({ destination: { type: 'EXTERNAL_ADDRESS', id: '0xabc' } }),
      'destination.id',
      'INVALID_ADDRESS',
    );
    await expectRefused(
      transfer({ destination: { type: 'BANK_ACCOUNT', id: 'bank_1' } }),
      'destination.type',
      'INVALID_DESTINATION_TYPE',
    );
  });

  it("an external address in the chain's format is a destination", async ({
    requests: { transfer, create, expectRefused },
  }) => {
    const address = '0x52908400098527886E0F7030069857D2E4169EE7';
    const res = await create(transfer({ destination: { type: 'EXTERNAL_ADDRESS', id: address } }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.destination).toMatchObject({ type: 'EXTERNAL_ADDRESS', address });
    const tron = await expectRefused(
      transfer({
        destination: { type: 'EXTERNAL_ADDRESS', id: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' },
      }),
      'destination.id',
      'INVALID_ADDRESS',
    );
    expect(tron.message).toContain('0x followed by 40 hexadecimal characters');
  });

  it("an external address's EIP-55 checksum must hold; one case throughout carries none", async ({
    requests: { transfer, create, expectRefused },
  }) => {
    // EIP-55's own example with its last letter's case flipped: one mistyped character.
    const broken = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD';
    const byId = await expectRefused(
      transfer({ destination: { type: 'EXTERNAL_ADDRESS', id: broken } }),
      'destination.id',
      'INVALID_ADDRESS',
    );
    expect(byId.message).toMatch(/EIP-55 checksum/);
    // An SDK that sends the address as `address` hears about that field.
    await expectRefused(
      transfer({ destination: { type: 'EXTERNAL_ADDRESS', address: broken } }),
      'destination.address',
      'INVALID_ADDRESS',
    );
    for (const address of [broken.toLowerCase(), `0x${broken.slice(2).toUpperCase()}`]) {
      const res = await create(
        transfer({ destination: { type: 'EXTERNAL_ADDRESS', id: address } }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  });

  it("the sending vault's own address is not an external destination", async ({
    t,
    requests: { vault, transfer, expectRefused },
  }) => {
    const payroll = await createVault(t.db, { orgId: t.orgId, vaultName: 'Payroll' }, [
      { asset: 'ETH', chain: 'ETHEREUM', amount: '1' },
    ]);
    const own = `0x${randomBytes(20).toString('hex')}`;
    await t.db
      .update(wallets)
      .set({ address: own })
      .where(and(eq(wallets.vaultId, payroll.id), eq(wallets.blockchain, 'ETHEREUM')));
    for (const spelling of [own, toChecksumAddress(own)]) {
      const refused = await expectRefused(
        transfer({
          source: vault(payroll.id),
          destination: { type: 'EXTERNAL_ADDRESS', id: spelling },
        }),
        'destination.id',
        'SAME_SOURCE_AND_DESTINATION',
      );
      expect(refused.message).toMatch(/"Payroll".*itself/);
    }
  });

  it('fee payer', async ({ f, requests: { vault, transfer, expectRefused } }) => {
    await expectRefused(
      transfer({ feePayer: { id: f.gas.id } }),
      'feePayer',
      'FEE_PAYER_NOT_SUPPORTED',
    );
    await expectRefused(
      transfer({
        blockChain: 'SOLANA',
        asset: 'SOL',
        destination: vault(f.ops.id),
        feePayer: { id: 'ghost' },
      }),
      'feePayer.id',
      'UNKNOWN_VAULT',
    );
  });

  it('stake and delegation rules', async ({ f, requests: { vault, expectRefused } }) => {
    const stake = {
      category: 'STAKE',
      source: vault(f.treasury.id),
      asset: 'BTC',
      blockChain: 'BITCOIN',
      amount: '1',
    };
    await expectRefused(stake, 'blockChain', 'STAKE_NOT_SUPPORTED');
    await expectRefused(
      { ...stake, asset: 'ETH', blockChain: 'ETHEREUM', resourceType: 'TRON_ENERGY' },
      'resourceType',
      'RESOURCE_TYPE_NOT_SUPPORTED',
    );
    await expectRefused(
      { ...stake, asset: 'USDT', blockChain: 'TRON' },
      'asset',
      'NATIVE_ASSET_REQUIRED',
    );
    const delegate = {
      category: 'DELEGATE_RESOURCE',
      source: vault(f.treasury.id),
      destination: vault(f.ops.id),
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      amount: '1',
      resourceType: 'TRON_ENERGY',
    };
    await expectRefused(delegate, 'blockChain', 'DELEGATE_RESOURCE_NOT_SUPPORTED');
    const { resourceType: _r, ...noResource } = { ...delegate, asset: 'TRX', blockChain: 'TRON' };
    await expectRefused(noResource, 'resourceType', 'VALIDATION_ERROR');
  });

  it('contract call rules', async ({ f, requests: { expectRefused } }) => {
    const call = { category: 'CONTRACT_CALL', vaultId: f.treasury.id, blockChain: 'ETHEREUM' };
    await expectRefused(
      { ...call, blockChain: 'BITCOIN' },
      'blockChain',
      'CONTRACT_CALL_NOT_SUPPORTED',
    );
    await expectRefused(
      { ...call, data: { canisterId: 'c', method: 'm', arg: '' } },
      'data',
      'CONTRACT_DATA_MISMATCH',
    );
    const res = await expectRefused({ ...call, data: { callData: 'not hex' } }, 'data.callData');
    expect(res.message).toContain('callData');
    const shapeless = await expectRefused({ ...call, data: { colour: 'red' } }, 'data');
    expect(shapeless.message).toContain('callData');
    await expectRefused({ ...call, vaultId: 'ghost' }, 'vaultId', 'UNKNOWN_VAULT');
    let params: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 40; i += 1) params = { nested: params };
    await expectRefused(
      { ...call, blockChain: 'TRON', data: { method: 'transfer', params } },
      'data',
      'CONTRACT_DATA_TOO_DEEP',
    );
    await expectRefused({ ...call, amount: '0.0000000000000000001' }, 'amount', 'AMOUNT_PRECISION');
  });

  it('answers 400, never 5xx, for bodies that are not JSON objects', async ({ t }) => {
    for (const body of ['[]', 'null', '"x"', '{', '']) {
      const res = await t.app.request(paths.transactions(), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(res.status, body).toBe(400);
    }
  });
});
