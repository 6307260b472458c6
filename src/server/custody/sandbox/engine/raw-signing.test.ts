import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { paths } from '#contract/paths.ts';
import { rawSigningDigest, recoverSigner } from '#contract/raw-signature.ts';
import { Transaction } from '#contract/transaction.ts';
import { wallets } from '../../../db/schema/sandbox.ts';
import { engineTest } from '../../../test/engine-test.ts';
import { sdkCaller, type SdkCaller } from '../../../test/sdk-wire.ts';
import type { EngineTestApp } from '../../../test/engine-test-app.ts';
import { createVault } from '../../../test/fixtures.ts';

// The SDKs' raw-signing examples as they build their requests
// (raw_message_signing.py / .tsx, evm_raw_signing_relaying.py): a contract call
// whose data is {messageHex}, approved, run to its end, then its signature checked
// as a relaying client checks it: ecrecover against the vault wallet's address.
const it = engineTest.extend('sdk', { scope: 'file' }, ({ t }) => sdkCaller(t, 'raw signer'));

/** The Python SDK's create_contract_call_transaction body: every key, unset ones as it sends them. */
function pythonContractCall(vaultId: string, messageHex: string, externalId: string) {
  return {
    vaultId,
    blockChain: 'ETHEREUM',
    amount: null,
    category: 'CONTRACT_CALL',
    data: { messageHex },
    externalId,
    gasParams: {},
    creationOptions: {},
  };
}

async function walletAddress(sdk: SdkCaller, vaultId: string, chain: string): Promise<string> {
  const res = await sdk.call('python', 'GET', paths.vault(vaultId));
  expect(res.status, res.text).toBe(200);
  const wallets = res.body['wallets'] as Array<{ blockchain: string; address: string }>;
  const wallet = wallets.find((w) => w.blockchain === chain);
  if (!wallet) throw new Error(`no ${chain} wallet`);
  return wallet.address;
}

async function runToEnd(t: EngineTestApp, id: string): Promise<Transaction> {
  for (let i = 0; i < 20; i += 1) {
    const status = await t.status(id);
    if (status === 'COMPLETED' || status === 'FAILED' || status === 'DECLINED') break;
    await t.run(10 * 60_000);
  }
  return Transaction.parse((await t.get(paths.transaction(id))).body);
}

describe('raw signing: a contract call whose data is {messageHex}', () => {
  it('evm_raw_signing_relaying.py: a 32-byte hash signed as is, COMPLETED with a signature that recovers to the wallet', async ({
    t,
    f,
    sdk,
  }) => {
    const hash = `0x${'ab'.repeat(32)}`;
    const created = await sdk.call(
      'python',
      'POST',
      paths.transactions(),
      pythonContractCall(f.treasury.id, hash, 'raw-py-1'),
    );
    expect(created.status, created.text).toBe(200);
    const id = String(created.body['id']);
    expect(created.body).not.toHaveProperty('txnSignature');
    await sdk.approve('python', id);
    const done = await runToEnd(t, id);
    expect(done.status, done.error).toBe('COMPLETED');

    const address = await walletAddress(sdk, f.treasury.id, 'ETHEREUM');
    expect(done.txnSignature).toMatch(/^0x[0-9a-f]{130}$/);
    expect(recoverSigner(hash.slice(2), done.txnSignature ?? '')).toBe(address);
    // The relaying example rebuilds the signature from txnSignatureData: int(r), int(s), int(v) - 27.
    const { r, s, v } = done.txnSignatureData ?? {};
    expect(v === 27 || v === 28).toBe(true);
    const rebuilt = `0x${BigInt(r ?? '0')
      .toString(16)
      .padStart(64, '0')}${BigInt(s ?? '0')
      .toString(16)
      .padStart(64, '0')}${(v ?? 0).toString(16)}`;
    expect(rebuilt).toBe(done.txnSignature);
  });

  it('raw_message_signing: a message of another length is signed by its keccak-256, as the JS SDK sends it', async ({
    t,
    f,
    sdk,
  }) => {
    const message = '0x095ea7b30000000000000000000000000c';
    const created = await sdk.call('js', 'POST', paths.transactions(), {
      vaultId: f.treasury.id,
      blockChain: 'ETHEREUM',
      category: 'CONTRACT_CALL',
      data: { messageHex: message },
      externalId: 'raw-js-1',
    });
    expect(created.status, created.text).toBe(200);
    const id = String(created.body['id']);
    await sdk.approve('js', id);
    const done = await runToEnd(t, id);
    expect(done.status, done.error).toBe('COMPLETED');
    const address = await walletAddress(sdk, f.treasury.id, 'ETHEREUM');
    expect(recoverSigner(rawSigningDigest(message), done.txnSignature ?? '')).toBe(address);
    // Not the message itself: it is not 32 bytes, so it was hashed first.
    expect(recoverSigner(`${'00'.repeat(32)}`, done.txnSignature ?? '')).not.toBe(address);
  });

  it('a wallet whose address no sandbox key matches ends FAILED, saying why', async ({
    t,
    sdk,
  }) => {
    const old = await createVault(t.db, { orgId: t.orgId, vaultName: 'Keyless' }, [
      { asset: 'ETH', chain: 'ETHEREUM', amount: '1' },
    ]);
    await t.db
      .update(wallets)
      .set({ address: `0x${'12'.repeat(20)}` })
      .where(and(eq(wallets.vaultId, old.id), eq(wallets.blockchain, 'ETHEREUM')));
    const created = await sdk.call('js', 'POST', paths.transactions(), {
      vaultId: old.id,
      blockChain: 'ETHEREUM',
      category: 'CONTRACT_CALL',
      data: { messageHex: `0x${'cd'.repeat(32)}` },
    });
    expect(created.status, created.text).toBe(200);
    const id = String(created.body['id']);
    await sdk.approve('js', id);
    const done = await runToEnd(t, id);
    expect(done.status).toBe('FAILED');
    expect(done.error).toContain('has no key in the sandbox');
    expect(done.txnSignature).toBeUndefined();
  });
});
