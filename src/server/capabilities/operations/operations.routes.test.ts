import { describe, expect } from 'vitest';
import { ApiErrorBody, ERROR_CODES } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { Vault } from '#contract/reference.ts';
import { Transaction } from '#contract/transaction.ts';
import { signApprovalMessage } from '../../protocol/api-token.ts';
import { engineTest } from '../../test/engine-test.ts';
import type { EngineTestApp } from '../../test/engine-test-app.ts';
import { createVault } from '../../test/fixtures.ts';
import { sdkCaller, type SdkCaller } from '../../test/sdk-wire.ts';

// The SDKs' operation calls as they build them (apiClient.ts / api_client.py):
// GET /api/external/operations/{operationId}/operation_message_to_sign/, then
// POST …/update_user_action/ with {isApproved, signatureHex, operationId}, the
// message signed with the API user's key as a change-request approval is.
const it = engineTest
  .extend('signer', { scope: 'file' }, ({ t }) => sdkCaller(t, 'vault signer'))
  .extend('other', { scope: 'file' }, ({ t }) => sdkCaller(t, 'not a signer'));

const messageUrl = (operationId: string) =>
  `/api/external/operations/${operationId}/operation_message_to_sign/`;
const actionUrl = (operationId: string) =>
  `/api/external/operations/${operationId}/update_user_action/`;

/** A vault whose signers name the API user, holding ETH to send. */
async function signedVault(t: EngineTestApp, signer: SdkCaller, name: string) {
  return createVault(
    t.db,
    {
      orgId: t.orgId,
      vaultName: name,
      signers: [{ id: signer.user.id, firstName: 'vault signer', type: 'API_USER' }],
    },
    [{ asset: 'ETH', chain: 'ETHEREUM', amount: '2' }],
  );
}

/** The Python SDK's create_transfer_transaction body, every key as it sends them. */
function transfer(vaultId: string, contactId: string, amount: string) {
  return {
    source: { type: 'VAULT', id: vaultId, value: null },
    destination: { type: 'CONTACT', id: contactId, value: null },
    amount,
    asset: 'ETH',
    blockChain: 'ETHEREUM',
    category: 'TRANSFER',
    gasParams: {},
    externalId: null,
    isAutomation: null,
    executeAt: null,
    memo: null,
    feePayer: null,
  };
}

async function read(t: EngineTestApp, id: string): Promise<Transaction> {
  return Transaction.parse((await t.get(paths.transaction(id))).body);
}

async function runUntilSettled(t: EngineTestApp, id: string): Promise<Transaction> {
  for (let i = 0; i < 20; i += 1) {
    const status = await t.status(id);
    if (status === 'COMPLETED' || status === 'FAILED' || status === 'DECLINED') break;
    await t.run(10 * 60_000);
  }
  return read(t, id);
}

describe("operations' user actions: a vault signer's approval of one operation", () => {
  it('waits at APPROVED for the signer, named by operationId; signed with the API key it goes on to COMPLETED', async ({
    t,
    f,
    signer,
    other,
  }) => {
    const vault = await signedVault(t, signer, 'Signed by its API user');
    const created = await signer.call(
      'python',
      'POST',
      paths.transactions(),
      transfer(vault.id, f.contacts.eth.id, '0.25'),
    );
    expect(created.status, created.text).toBe(200);
    const id = String(created.body['id']);

    // While its approval rule holds it (PENDING), no operation waits: nothing a user action can move.
    expect((await signer.call('js', 'GET', messageUrl(`${id}.1`))).status).toBe(404);
    const early = await signer.call('js', 'POST', actionUrl(`${id}.1`), {
      isApproved: true,
      signatureHex: '00',
      operationId: `${id}.1`,
    });
    expect(early.status, early.text).toBe(404);
    expect(await t.status(id)).toBe('PENDING');

    await signer.approve('python', id);
    await t.run(60_000);
    await t.run(60_000);
    const waiting = await read(t, id);
    expect(waiting.status).toBe('APPROVED');
    const operationId = String((waiting as Record<string, unknown>)['operationId']);
    expect(operationId).toBe(`${id}.1`);
    expect(waiting.operations?.[0]).toMatchObject({
      id: operationId,
      operationId,
      status: 'PENDING',
      sequence: 1,
    });

    const got = await signer.call('js', 'GET', messageUrl(operationId));
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({ operationId, transactionId: id });
    const message = String(got.body['message']);
    expect(message).toContain(operationId);
    expect(message).toContain('0.25 ETH');

    // A signature over anything else, or by an API user who does not sign for the vault, moves nothing.
    const forged = await signer.call('js', 'POST', actionUrl(operationId), {
      isApproved: true,
      signatureHex: signApprovalMessage(`${message} `, signer.user.privateKeyHex),
      operationId,
    });
    expect(forged.status, forged.text).toBe(403);
    expect(ApiErrorBody.parse(forged.body).code).toBe(ERROR_CODES.invalidApprovalSignature);
    const stranger = await other.call('js', 'POST', actionUrl(operationId), {
      isApproved: true,
      signatureHex: signApprovalMessage(message, other.user.privateKeyHex),
      operationId,
    });
    expect(stranger.status, stranger.text).toBe(403);
    expect(ApiErrorBody.parse(stranger.body).code).toBe(ERROR_CODES.notVaultSigner);
    const mismatched = await signer.call('js', 'POST', actionUrl(operationId), {
      isApproved: true,
      signatureHex: signApprovalMessage(message, signer.user.privateKeyHex),
      operationId: `${id}.2`,
    });
    expect(mismatched.status, mismatched.text).toBe(400);
    expect(ApiErrorBody.parse(mismatched.body).fields?.[0]?.field).toBe('operationId');
    await t.run(60_000);
    expect(await t.status(id)).toBe('APPROVED');

    const acted = await signer.call('python', 'POST', actionUrl(operationId), {
      isApproved: true,
      signatureHex: signApprovalMessage(message, signer.user.privateKeyHex),
      operationId,
    });
    expect(acted.status, acted.text).toBe(200);
    expect(acted.body).toMatchObject({ success: true, operationId, transactionId: id });
    const again = await signer.call('js', 'POST', actionUrl(operationId), {
      isApproved: true,
      signatureHex: signApprovalMessage(message, signer.user.privateKeyHex),
      operationId,
    });
    expect(again.status, again.text).toBe(409);

    const done = await runUntilSettled(t, id);
    expect(done.status, done.error).toBe('COMPLETED');
    expect(done.operations?.[0]?.id).toBe(operationId);
    expect(await t.balance(vault.id, 'ETH', 'ETHEREUM')).toMatchObject({ held: '0' });
  });

  it("the signer's refusal ends the transaction FAILED, saying so, and moves no money", async ({
    t,
    f,
    signer,
  }) => {
    const vault = await signedVault(t, signer, 'Refused by its API user');
    const created = await signer.call(
      'js',
      'POST',
      paths.transactions(),
      transfer(vault.id, f.contacts.eth.id, '0.5'),
    );
    expect(created.status, created.text).toBe(200);
    const id = String(created.body['id']);
    await signer.approve('js', id);
    await t.run(60_000);
    await t.run(60_000);
    const operationId = `${id}.1`;
    const got = await signer.call('python', 'GET', messageUrl(operationId));
    expect(got.status, got.text).toBe(200);
    const refused = await signer.call('js', 'POST', actionUrl(operationId), {
      isApproved: false,
      signatureHex: signApprovalMessage(String(got.body['message']), signer.user.privateKeyHex),
      operationId,
    });
    expect(refused.status, refused.text).toBe(200);
    const done = await read(t, id);
    expect(done.status).toBe('FAILED');
    expect(done.error).toContain('declined');
    expect(done.operations?.[0]).toMatchObject({ id: operationId, status: 'CANCELLED' });
    expect(await t.balance(vault.id, 'ETH', 'ETHEREUM')).toEqual({ amount: '2', held: '0' });
  });

  it('createVault names its API-user signers (vaultSigners); one not of the organization is refused naming the field', async ({
    signer,
  }) => {
    const made = await signer.call('js', 'POST', paths.vaults(), {
      vaultName: 'Vault with an API signer',
      chains: ['ETHEREUM'],
      vaultSigners: [signer.user.id],
    });
    expect(made.status, made.text).toBe(200);
    expect(Vault.parse(made.body).signers).toEqual([
      expect.objectContaining({ id: signer.user.id, type: 'API_USER' }),
    ]);
    const bad = await signer.call('js', 'POST', paths.vaults(), {
      vaultName: 'Vault with a stranger',
      chains: ['ETHEREUM'],
      vaultSigners: ['no-such-user'],
    });
    expect(bad.status, bad.text).toBe(400);
    expect(ApiErrorBody.parse(bad.body).fields?.[0]?.field).toBe('vaultSigners');
  });
});
