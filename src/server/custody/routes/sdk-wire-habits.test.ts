import { describe, expect } from 'vitest';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { Vault } from '#contract/reference.ts';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { EstimatedFeeResponse, Transaction } from '#contract/transaction.ts';
import { signApprovalMessage } from '../../protocol/api-token.ts';
import type { EngineFixture } from '../../test/engine-test-app.ts';
import { engineTest } from '../../test/engine-test.ts';
import { sdkCaller, type SdkCaller } from '../../test/sdk-wire.ts';
import { treasuryToOps } from '../../test/create-requests.ts';

// Each test is one habit of the provider's SDKs, sent as they send it
// (src/server/test/sdk-wire.ts), through every endpoint it touches.
/**
 * The engine's fixtures, `api` (an API client calling as either SDK) and
 * `onEveryList`: something on every list the empty-cursor tests read.
 */
const it = engineTest
  .extend('api', { scope: 'file' }, ({ t }) => sdkCaller(t, 'sdk client'))
  .extend('onEveryList', { scope: 'file' }, async ({ f, api }) => {
    // Something on every list: one transaction and one bank account of the client's own.
    const created = await api.call('js', 'POST', paths.transactions(), treasuryToOps(f, '0.1'));
    expect(created.status, created.text).toBe(200);
    const account = await api.call('js', 'POST', paths.bankAccounts(), {
      paymentMethod: 'SEPA',
      accountName: 'Cursor GmbH',
      accountNumber: 'DE89370400440532013000',
      bankName: 'Commerzbank',
      country: 'DE',
    });
    expect(account.status, account.text).toBe(200);
    return true;
  });

const ids = (body: Record<string, unknown>) =>
  (body.results as Array<{ id: string }>).map((r) => r.id);

/** The Python SDK's TransferPartyData with only type and id set: every other field null. */
const pythonParty = (type: string, id: string) => ({
  type,
  id,
  value: null,
  name: null,
  address: null,
  exchange: null,
  bank: null,
});

describe('SDK wire habit: the first page is asked for with an empty cursor', () => {
  const LISTS = {
    transactions: paths.transactions(),
    bank_accounts: paths.bankAccounts(),
    vaults: paths.vaults(),
    contacts: paths.contacts(),
    sub_orgs: paths.subOrgs(),
  };

  for (const [name, url] of Object.entries(LISTS)) {
    for (const sdk of ['js', 'python'] as const) {
      it(`${name}: ?limit=20&cursor= from the ${sdk} SDK is the first page`, async ({
        api,
        onEveryList: _onEveryList,
      }) => {
        const first = await api.call(sdk, 'GET', `${url}?limit=20&cursor=`);
        expect(first.status, first.text).toBe(200);
        const plain = await api.call(sdk, 'GET', `${url}?limit=20`);
        expect(ids(first.body)).toEqual(ids(plain.body));
        if (name !== 'sub_orgs') expect(ids(first.body).length).toBeGreaterThan(0);
      });
    }
  }

  it('a cursor the server never issued is still 400 INVALID_CURSOR, on every list', async ({
    api,
  }) => {
    for (const url of Object.values(LISTS)) {
      const res = await api.call('js', 'GET', `${url}?limit=20&cursor=bm90LWlzc3VlZA`);
      expect(res.status, `${url} ${res.text}`).toBe(400);
      expect(ApiErrorBody.parse(res.body).code).toBe('INVALID_CURSOR');
    }
  });
});

describe('SDK wire habit: the Python SDK sends every unset field as null, at every depth', () => {
  it('estimate_fee and a transfer create: null party fields, gasParams {}, null top-level options', async ({
    f,
    api,
  }) => {
    const estimate = await api.call('python', 'POST', paths.estimateFee(), {
      source: pythonParty('VAULT', f.treasury.id),
      destination: pythonParty('CONTACT', f.contacts.eth.id),
      amount: '0.5',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      category: 'TRANSFER',
    });
    expect(estimate.status, estimate.text).toBe(200);
    expect(EstimatedFeeResponse.safeParse(estimate.body).success).toBe(true);

    const created = await api.call('python', 'POST', paths.transactions(), {
      source: pythonParty('VAULT', f.treasury.id),
      destination: pythonParty('CONTACT', f.contacts.eth.id),
      amount: '0.5',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      category: 'TRANSFER',
      gasParams: { feeTier: null },
      externalId: null,
      isAutomation: null,
      executeAt: null,
      memo: null,
      feePayer: null,
    });
    expect(created.status, created.text).toBe(200);
    const tx = Transaction.parse(created.body);
    expect(tx).toMatchObject({ status: 'PENDING', amount: '0.5', asset: 'ETH' });
    expect(tx.source).toMatchObject({ type: 'VAULT', id: f.treasury.id, name: 'Treasury' });

    const got = await api.call('python', 'GET', paths.transaction(tx.id ?? ''));
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({ id: tx.id, category: 'TRANSFER' });
  });

  it('a contract call: data {"callData", "toAddress": null}, gasParams {}, creationOptions {}', async ({
    f,
    api,
  }) => {
    const created = await api.call('python', 'POST', paths.transactions(), {
      vaultId: f.treasury.id,
      blockChain: 'ETHEREUM',
      amount: null,
      category: 'CONTRACT_CALL',
      data: { callData: '0xa9059cbb', toAddress: null },
      externalId: null,
      gasParams: {},
      creationOptions: {},
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({ category: 'CONTRACT_CALL', status: 'PENDING' });
  });

  it('a bank account: every unset field of CreateBankAccountRequest null', async ({ api }) => {
    const created = await api.call('python', 'POST', paths.bankAccounts(), {
      subOrgId: null,
      accountNumber: '000123456789',
      accountName: 'Nulls Inc',
      routingNumber: '021000021',
      clientBankAccountId: null,
      paymentMethod: 'US_ACH',
      bankName: 'JPMorgan Chase',
      streetLine: null,
      city: null,
      state: null,
      postalCode: null,
      country: 'US',
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({ status: 'PENDING', accountName: 'Nulls Inc' });
  });
});

/** A vault's address on a chain, as an SDK user reads it: from GET vault. */
async function walletAddress(api: SdkCaller, vaultId: string, chain: string): Promise<string> {
  const res = await api.call('python', 'GET', paths.vault(vaultId));
  const wallet = Vault.parse(res.body).wallets?.find((w) => w.blockchain === chain);
  return wallet?.address ?? '';
}

function expectRefusal(res: { status: number; body: unknown; text: string }, code: string) {
  expect(res.status, res.text).toBe(400);
  const body = ApiErrorBody.parse(res.body);
  expect(body.code).toBe(code);
  return body;
}

describe('SDK wire habit: parties carry value, name, address, exchange and bank', () => {
  const transfer = (source: object, destination: object) => ({
    source,
    destination,
    amount: '0.01',
    asset: 'ETH',
    blockChain: 'ETHEREUM',
    category: 'TRANSFER',
  });

  it("the party's own address and any name are accepted, on estimate_fee and create", async ({
    f,
    api,
  }) => {
    const contact = await api.call('js', 'GET', `${paths.contacts()}?limit=100&cursor=`);
    const eth = (contact.body.results as Array<{ id: string; address: string }>).find(
      (c) => c.id === f.contacts.eth.id,
    );
    const source = {
      type: 'VAULT',
      id: f.treasury.id,
      value: null,
      name: 'what the client calls it',
      address: await walletAddress(api, f.treasury.id, 'ETHEREUM'),
      exchange: null,
      bank: null,
    };
    const destination = {
      type: 'CONTACT',
      id: f.contacts.eth.id,
      value: null,
      name: null,
      address: eth?.address.toUpperCase().replace('0X', '0x'),
      exchange: null,
      bank: null,
    };
    const estimate = await api.call(
      'python',
      'POST',
      paths.estimateFee(),
      transfer(source, destination),
    );
    expect(estimate.status, estimate.text).toBe(200);
    const created = await api.call(
      'python',
      'POST',
      paths.transactions(),
      transfer(source, destination),
    );
    expect(created.status, created.text).toBe(200);
    // What the response names is the party's record, not what the client called it.
    expect(Transaction.parse(created.body).source).toMatchObject({ name: 'Treasury' });
  });

  it("an address that is not the party's is refused: 400 naming destination.address, nothing created", async ({
    f,
    api,
  }) => {
    const before = await api.call('js', 'GET', `${paths.transactions()}?limit=100&cursor=`);
    const res = await api.call(
      'python',
      'POST',
      paths.transactions(),
      transfer(pythonParty('VAULT', f.treasury.id), {
        ...pythonParty('CONTACT', f.contacts.eth.id),
        address: `0x${'1'.repeat(40)}`,
      }),
    );
    const body = expectRefusal(res, 'PARTY_ADDRESS_MISMATCH');
    expect(body.fields?.map((x) => x.field)).toEqual(['destination.address']);
    const after = await api.call('js', 'GET', `${paths.transactions()}?limit=100&cursor=`);
    expect(ids(after.body)).toEqual(ids(before.body));
  });

  it('an external address given as value (older SDKs) or address (newer) stands for id', async ({
    f,
    api,
  }) => {
    const external = `0x${'ab'.repeat(20)}`;
    for (const party of [
      { type: 'EXTERNAL_ADDRESS', value: external },
      { type: 'EXTERNAL_ADDRESS', address: external, name: 'Payee', bank: null },
    ]) {
      const created = await api.call('js', 'POST', paths.transactions(), {
        ...transfer({ type: 'VAULT', id: f.treasury.id }, party),
      });
      expect(created.status, created.text).toBe(200);
      expect(Transaction.parse(created.body).destination).toMatchObject({
        type: 'EXTERNAL_ADDRESS',
        address: external,
      });
    }
    const disagreeing = await api.call(
      'js',
      'POST',
      paths.transactions(),
      transfer(
        { type: 'VAULT', id: f.treasury.id },
        { type: 'EXTERNAL_ADDRESS', id: external, value: `0x${'cd'.repeat(20)}` },
      ),
    );
    expect(expectRefusal(disagreeing, 'VALIDATION_ERROR').fields?.[0]?.field).toBe(
      'destination.value',
    );
  });

  it('fields nobody sends stay refused, naming the field', async ({ f, api }) => {
    const res = await api.call(
      'js',
      'POST',
      paths.transactions(),
      transfer(
        { type: 'VAULT', id: f.treasury.id, walletId: 'w1' },
        pythonParty('CONTACT', f.contacts.eth.id),
      ),
    );
    expect(expectRefusal(res, 'VALIDATION_ERROR').message).toMatch(
      /walletId is not a field of this request/,
    );
  });

  it('ramp party fields of newer Python SDKs on a transfer: null is not given; a value is refused saying where ramps go', async ({
    f,
    api,
  }) => {
    const ramp = {
      provider: null,
      bankDetails: null,
      paymentRail: null,
      chain: null,
      subOrgId: null,
    };
    const unset = await api.call(
      'python',
      'POST',
      paths.transactions(),
      transfer(
        { ...pythonParty('VAULT', f.treasury.id), ...ramp },
        { ...pythonParty('CONTACT', f.contacts.eth.id), ...ramp },
      ),
    );
    expect(unset.status, unset.text).toBe(200);
    const set = await api.call(
      'python',
      'POST',
      paths.transactions(),
      transfer(pythonParty('VAULT', f.treasury.id), {
        ...pythonParty('CONTACT', f.contacts.eth.id),
        ...ramp,
        provider: 'BRIDGE',
        paymentRail: 'SEPA',
      }),
    );
    const refusal = expectRefusal(set, 'VALIDATION_ERROR');
    expect(refusal.fields?.map((x) => x.field).sort()).toEqual(['paymentRail', 'provider']);
    expect(refusal.message).toMatch(
      /provider is a ramp party field: only a ramp takes it \(POST …\/transactions\/quote\/, then intent\/create\//,
    );
  });
});

/** The Python SDK's approve as some versions send it: entityId and message echoed in the decision. */
async function pythonDecision(
  api: SdkCaller,
  entityId: string,
  overrides: Record<string, unknown> = {},
) {
  // requests adds params= after signing: the token's urlPath is the path alone.
  const path = paths.approvalMessage();
  const got = await api.call('python', 'GET', `${path}?entityId=${entityId}`, undefined, path);
  expect(got.status, got.text).toBe(200);
  const approval = ApprovalMessageResponse.parse(got.body);
  return api.call('python', 'POST', paths.approvalAction(approval.approvalId), {
    entityId,
    message: approval.message,
    signature: signApprovalMessage(approval.message, api.user.privateKeyHex),
    action: 'approve',
    reason: 'ok',
    ...overrides,
  });
}

async function pythonTransfer(api: SdkCaller, f: EngineFixture, memo: string | null = null) {
  const created = await api.call('python', 'POST', paths.transactions(), {
    source: pythonParty('VAULT', f.treasury.id),
    destination: pythonParty('CONTACT', f.contacts.eth.id),
    amount: '0.25',
    asset: 'ETH',
    blockChain: 'ETHEREUM',
    category: 'TRANSFER',
    gasParams: {},
    externalId: null,
    memo,
    feePayer: null,
  });
  expect(created.status, created.text).toBe(200);
  return Transaction.parse(created.body);
}

describe('SDK wire habit: the decision echoes entityId and message', () => {
  it('echoed as they are, the approval goes through', async ({ t, f, api }) => {
    const tx = await pythonTransfer(api, f);
    const decided = await pythonDecision(api, tx.id ?? '');
    expect(decided.status, decided.text).toBe(200);
    expect(decided.body).toMatchObject({ success: true, status: 'APPROVED', entityId: tx.id });
    expect(await t.status(tx.id ?? '')).toBe('APPROVED');
  });

  it("an entityId that is not the approval's entity: 400 naming entityId, nothing decided", async ({
    t,
    f,
    api,
  }) => {
    const tx = await pythonTransfer(api, f);
    const other = await pythonTransfer(api, f);
    const res = await pythonDecision(api, tx.id ?? '', { entityId: other.id });
    expect(expectRefusal(res, 'VALIDATION_ERROR').fields?.map((x) => x.field)).toEqual([
      'entityId',
    ]);
    expect(await t.status(tx.id ?? '')).toBe('PENDING');
    expect(await t.status(other.id ?? '')).toBe('PENDING');
  });

  it("a message that is not the approval's: 400 naming message, nothing decided", async ({
    t,
    f,
    api,
  }) => {
    const tx = await pythonTransfer(api, f);
    const res = await pythonDecision(api, tx.id ?? '', { message: 'approve everything' });
    expect(expectRefusal(res, 'VALIDATION_ERROR').fields?.map((x) => x.field)).toEqual(['message']);
    expect(await t.status(tx.id ?? '')).toBe('PENDING');
  });
});

describe('an SDK-shaped transfer from create to COMPLETED', () => {
  it('Python: nulls at every depth, dataSignatureHex, padded tokens; listed, fetched, approved, completed', async ({
    t,
    f,
    api,
  }) => {
    const tx = await pythonTransfer(api, f, 'paid through the Python SDK');
    expect(tx).toMatchObject({ status: 'PENDING', createdById: api.user.id });

    const listed = await api.call('python', 'GET', `${paths.transactions()}?limit=20&cursor=`);
    expect(ids(listed.body)).toContain(tx.id);
    const decided = await pythonDecision(api, tx.id ?? '');
    expect(decided.status, decided.text).toBe(200);

    // Well past any chain's confirmation time at scale 1, on the engine's test clock.
    for (let i = 0; i < 20 && (await t.status(tx.id ?? '')) !== 'COMPLETED'; i += 1) {
      await t.run(10 * 60_000);
    }
    const got = await api.call('python', 'GET', paths.transaction(tx.id ?? ''));
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({
      id: tx.id,
      status: 'COMPLETED',
      memo: 'paid through the Python SDK',
      amount: '0.25',
    });
    expect(got.body.txHash).toEqual(expect.any(String));
  });
});
