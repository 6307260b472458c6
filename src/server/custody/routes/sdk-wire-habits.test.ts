import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody } from '../../../contract/common.ts';
import { paths } from '../../../contract/paths.ts';
import { EstimatedFeeResponse, Transaction } from '../../../contract/transaction.ts';
import { createApiUser } from '../sandbox/api-users.store.ts';
import {
  createEngineFixture,
  createEngineTestApp,
  type EngineFixture,
  type EngineTestApp,
} from '../../test/engine-test-app.ts';
import type { TestApiUser } from '../../test/api-client.ts';
import { sdkRequest, type Sdk } from '../../test/sdk-wire.ts';

// Each test is one habit of the provider's SDKs, sent as they send it
// (src/server/test/sdk-wire.ts), through every endpoint it touches.
let t: EngineTestApp;
let f: EngineFixture;
let client: TestApiUser;
beforeAll(async () => {
  t = await createEngineTestApp();
  f = await createEngineFixture(t.db, t.orgId);
  client = await createApiUser(t.db, { orgId: t.orgId, name: 'sdk client' });
});
afterAll(() => t.close());

async function call(sdk: Sdk, method: 'GET' | 'POST', url: string, body?: Record<string, unknown>) {
  const res = await t.app.request(url, sdkRequest(sdk, client, method, url, body));
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Record<string, unknown>, text };
}

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

  beforeAll(async () => {
    // Something on every list: one transaction and one bank account of the client's own.
    const created = await call('js', 'POST', paths.transactions(), {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: f.treasury.id },
      destination: { type: 'VAULT', id: f.ops.id },
      amount: '0.1',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
    });
    expect(created.status, created.text).toBe(200);
    const account = await call('js', 'POST', paths.bankAccounts(), {
      paymentMethod: 'SEPA',
      accountName: 'Cursor GmbH',
      accountNumber: 'DE89370400440532013000',
      bankName: 'Commerzbank',
      country: 'DE',
    });
    expect(account.status, account.text).toBe(200);
  });

  for (const [name, url] of Object.entries(LISTS)) {
    for (const sdk of ['js', 'python'] as const) {
      it(`${name}: ?limit=20&cursor= from the ${sdk} SDK is the first page`, async () => {
        const first = await call(sdk, 'GET', `${url}?limit=20&cursor=`);
        expect(first.status, first.text).toBe(200);
        const plain = await call(sdk, 'GET', `${url}?limit=20`);
        expect(ids(first.body)).toEqual(ids(plain.body));
        if (name !== 'sub_orgs') expect(ids(first.body).length).toBeGreaterThan(0);
      });
    }
  }

  it('a cursor the server never issued is still 400 INVALID_CURSOR, on every list', async () => {
    for (const url of Object.values(LISTS)) {
      const res = await call('js', 'GET', `${url}?limit=20&cursor=bm90LWlzc3VlZA`);
      expect(res.status, `${url} ${res.text}`).toBe(400);
      expect(ApiErrorBody.parse(res.body).code).toBe('INVALID_CURSOR');
    }
  });
});

describe('SDK wire habit: the Python SDK sends every unset field as null, at every depth', () => {
  it('estimate_fee and a transfer create: null party fields, gasParams {}, null top-level options', async () => {
    const estimate = await call('python', 'POST', paths.estimateFee(), {
      source: pythonParty('VAULT', f.treasury.id),
      destination: pythonParty('CONTACT', f.contacts.eth.id),
      amount: '0.5',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      category: 'TRANSFER',
    });
    expect(estimate.status, estimate.text).toBe(200);
    expect(EstimatedFeeResponse.safeParse(estimate.body).success).toBe(true);

    const created = await call('python', 'POST', paths.transactions(), {
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

    const got = await call('python', 'GET', paths.transaction(tx.id ?? ''));
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({ id: tx.id, category: 'TRANSFER' });
  });

  it('a contract call: data {"callData", "toAddress": null}, gasParams {}, creationOptions {}', async () => {
    const created = await call('python', 'POST', paths.transactions(), {
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

  it('a bank account: every unset field of CreateBankAccountRequest null', async () => {
    const created = await call('python', 'POST', paths.bankAccounts(), {
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
