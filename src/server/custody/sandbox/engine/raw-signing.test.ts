import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { paths } from '#contract/paths.ts';
import { rawSigningDigest, recoverSigner } from '#contract/raw-signature.ts';
import { Transaction } from '#contract/transaction.ts';
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { ApiErrorBody, ERROR_CODES } from '#contract/common.ts';
import { wallets } from '../../../db/schema/sandbox.ts';
import { engineTest } from '../../../test/engine-test.ts';
import { sdkCaller, type SdkCaller } from '../../../test/sdk-wire.ts';
import type { EngineTestApp } from '../../../test/engine-test-app.ts';
import { createVault } from '../../../test/fixtures.ts';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** A base58 text's bytes, as a Solana client reads an address into its public key. */
function base58Decode(text: string): Uint8Array {
  let value = 0n;
  for (const ch of text) {
    const digit = BASE58.indexOf(ch);
    if (digit < 0) throw new Error(`not base58: ${ch}`);
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value % 256n));
    value /= 256n;
  }
  for (const ch of text) {
    if (ch !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

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

  it("raw_message_signing: a message of another length (the JS example's, made whole bytes) is signed by its keccak-256", async ({
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

  it("raw_message_signing.tsx's odd-length message (33 hex digits) is refused naming data.messageHex and the rule, and nothing is created", async ({
    t,
    f,
    sdk,
  }) => {
    // The JS example's message exactly as written: half a byte short of whole bytes.
    const message = '0x095ea7b3000000000000000000000000c';
    const externalId = `raw-js-odd-${Date.now()}`;
    const created = await sdk.call('js', 'POST', paths.transactions(), {
      vaultId: f.treasury.id,
      blockChain: 'ETHEREUM',
      category: 'CONTRACT_CALL',
      data: { messageHex: message },
      externalId,
    });
    expect(created.status, created.text).toBe(400);
    const refusal = ApiErrorBody.parse(created.body);
    expect(refusal.code).toBe(ERROR_CODES.validation);
    expect(refusal.fields?.map((x) => x.field)).toEqual(['data.messageHex']);
    expect(refusal.message).toContain('data.messageHex');
    expect(refusal.message).toContain('33 hex digits');
    expect(refusal.message).toContain('two hex digits per byte');
    const listed = await t.get(`${paths.transactions()}?externalId=${externalId}`);
    expect(listed.body['results']).toEqual([]);
  });

  it("a raw signing on SOLANA (solana_raw_signing_and_relaying.py) is signed by the wallet's ed25519 key over the message bytes, verifiable against its base58 address", async ({
    t,
    sdk,
  }) => {
    // A new vault's SOLANA wallet is one the sandbox holds a key for; it pays the fee in SOL.
    const vault = await createVault(t.db, { orgId: t.orgId, vaultName: 'Solana signer' }, [
      { asset: 'SOL', chain: 'SOLANA', amount: '1' },
    ]);
    const vaultId = vault.id;
    const address = await walletAddress(sdk, vaultId, 'SOLANA');
    const publicKey = base58Decode(address);
    expect(publicKey).toHaveLength(32);

    // What the example sends: message_bytes.hex() of a legacy Solana message, no 0x.
    const messageHex = `01000103${'5a'.repeat(96)}${'00'.repeat(32)}010202000c02000000e803000000000000`;
    const created = await sdk.call('python', 'POST', paths.transactions(), {
      vaultId,
      blockChain: 'SOLANA',
      amount: null,
      category: 'CONTRACT_CALL',
      data: { messageHex },
      externalId: `raw-sol-${Date.now()}`,
      gasParams: {},
      creationOptions: {},
    });
    expect(created.status, created.text).toBe(200);
    const id = String(created.body['id']);
    await sdk.approve('python', id);
    const done = await runToEnd(t, id);
    expect(done.status, done.error).toBe('COMPLETED');
    // 64 bytes of ed25519 signature: Signature.from_bytes(bytes.fromhex(...)) in the example.
    expect(done.txnSignature).toMatch(/^(0x)?[0-9a-f]{128}$/);
    const signature = hexToBytes((done.txnSignature ?? '').replace(/^0x/, ''));
    expect(ed25519.verify(signature, hexToBytes(messageHex), publicKey)).toBe(true);
    // Over the bytes themselves, not a hash of them: Solana verifies the message as sent.
    expect(ed25519.verify(signature, sha256(hexToBytes(messageHex)), publicKey)).toBe(false);
  });
});
