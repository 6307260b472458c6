import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '#contract/paths.ts';
import { organizations } from '../../db/schema/sandbox.ts';
import { seedSandbox } from '../sandbox/seed.ts';
import { createTestApiUser, type TestApiUser } from '../../test/api-client.ts';
import {
  createEngineFixture,
  createEngineTestApp,
  type EngineFixture,
  type EngineTestApp,
} from '../../test/engine-test-app.ts';
import { sdkRequest } from '../../test/sdk-wire.ts';
import { sdkShapeProblems, type SdkRecordKind } from '../../test/sdk-required-fields.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { SEEDED_CATEGORIES } from '../sandbox/seed/transaction-shapes.ts';

// Every record the seed and the engine produce, read as the Python SDK reads
// it, carries every field the SDKs' types require (src/server/test/sdk-required-fields.ts).

type Json = Record<string, unknown>;

async function read(t: EngineTestApp, client: TestApiUser, url: string): Promise<unknown> {
  const res = await t.app.request(url, sdkRequest('python', client, 'GET', url));
  const text = await res.text();
  expect(res.status, `${url}: ${text}`).toBe(200);
  return JSON.parse(text) as unknown;
}

/** Every page of a list, first asked for with an empty cursor as the SDKs do. */
async function readAll(t: EngineTestApp, client: TestApiUser, list: string): Promise<Json[]> {
  const records: Json[] = [];
  let cursor = '';
  for (;;) {
    const page = (await read(t, client, `${list}?limit=100&cursor=${cursor}`)) as {
      results: Json[];
      nextCursor: string | null;
    };
    records.push(...page.results);
    if (!page.nextCursor) return records;
    cursor = encodeURIComponent(page.nextCursor);
  }
}

/** One line per record that misses something, naming the record; [] when all are whole. */
function problemsOf(kind: SdkRecordKind, records: readonly unknown[]): string[] {
  return records.flatMap((record) => {
    const problems = sdkShapeProblems(kind, record);
    const r = record as Json;
    const name = String(r.id ?? r.value ?? `${String(r.symbol)}@${String(r.blockChain)}`);
    return problems.length > 0 ? [`${kind} ${name}: ${problems.join('; ')}`] : [];
  });
}

describe('seeded records carry every field the SDKs require', () => {
  let t: EngineTestApp;
  let client: TestApiUser;
  beforeAll(async () => {
    const database = await createTestDatabase();
    const seeded = await seedSandbox(database.db, { now: new Date() });
    t = await createEngineTestApp({ database, orgId: seeded.organizationId ?? '' });
    client = await createTestApiUser(t, 'shape reader');
  });
  afterAll(() => t.close());

  it('transactions of every category, swaps and contract calls included, listed and fetched', async () => {
    const listed = await readAll(t, client, paths.transactions());
    expect(new Set(listed.map((r) => r.category))).toEqual(new Set(SEEDED_CATEGORIES));
    expect(problemsOf('transaction', listed)).toEqual([]);
    // One of each category fetched by id: the single read has its own extras.
    // Every seeded category (an FX, RAMP, is checked by ramps.fx.test).
    const oneEach = SEEDED_CATEGORIES.map((c) => listed.find((r) => r.category === c));
    const fetched = await Promise.all(
      oneEach.map((r) => read(t, client, paths.transaction(String(r?.id)))),
    );
    expect(problemsOf('transaction', fetched)).toEqual([]);
    expect(listed.filter((r) => r.category === 'SWAP').map((r) => r.subCategory)).not.toContain(
      undefined,
    );
  });

  it('vaults, contacts, bank accounts, assets and chains', async () => {
    const vaults = await readAll(t, client, paths.vaults());
    const contacts = await readAll(t, client, paths.contacts());
    const accounts = await readAll(t, client, paths.bankAccounts());
    const assets = (await read(t, client, paths.assets())) as unknown[];
    const chains = (await read(t, client, paths.supportedChains())) as unknown[];
    expect(vaults.length * contacts.length * accounts.length * assets.length).toBeGreaterThan(0);
    expect([
      ...problemsOf('vault', vaults),
      ...problemsOf('vault', [await read(t, client, paths.vault(String(vaults[0]?.id)))]),
      ...problemsOf('contact', contacts),
      ...problemsOf('bankAccount', accounts),
      ...problemsOf('asset', assets),
      ...problemsOf('chain', chains),
    ]).toEqual([]);
    // Seeded vaults name real people as signers.
    expect(vaults.every((v) => (v.signers as unknown[]).length > 0)).toBe(true);
  });
});

describe('records the engine creates carry every field the SDKs require', () => {
  let t: EngineTestApp;
  let f: EngineFixture;
  let client: TestApiUser;
  beforeAll(async () => {
    t = await createEngineTestApp();
    f = await createEngineFixture(t.db, t.orgId);
    client = await createTestApiUser(t, 'shape creator');
  });
  afterAll(() => t.close());

  async function post(url: string, body: Json): Promise<Json> {
    const res = await t.app.request(url, sdkRequest('python', client, 'POST', url, body));
    const text = await res.text();
    expect(res.status, `${url}: ${text}`).toBe(200);
    return JSON.parse(text) as Json;
  }

  it('every kind of create, as answered, fetched and listed, through approval to the end', async () => {
    const vault = (id: string) => ({ type: 'VAULT', id });
    const bodies: Json[] = [
      {
        category: 'TRANSFER',
        source: vault(f.treasury.id),
        destination: { type: 'CONTACT', id: f.contacts.eth.id },
        amount: '0.5',
        asset: 'ETH',
        blockChain: 'ETHEREUM',
      },
      {
        category: 'TRANSFER',
        source: vault(f.treasury.id),
        destination: vault(f.ops.id),
        amount: '0.1',
        asset: 'ETH',
        blockChain: 'ETHEREUM',
      },
      // A contract call that sends no native value still answers an amount: 0.
      {
        category: 'CONTRACT_CALL',
        vaultId: f.treasury.id,
        blockChain: 'ETHEREUM',
        data: { callData: '0xa9059cbb00', toAddress: null },
      },
      {
        category: 'CONTRACT_CALL',
        vaultId: f.treasury.id,
        blockChain: 'POLYGON',
        amount: '1.25',
        data: { callData: '0x00' },
      },
      {
        category: 'STAKE',
        source: vault(f.treasury.id),
        asset: 'TRX',
        blockChain: 'TRON',
        amount: '1000',
        resourceType: 'TRON_ENERGY',
      },
      {
        category: 'DELEGATE_RESOURCE',
        source: vault(f.treasury.id),
        destination: { type: 'CONTACT', id: f.contacts.tron.id },
        asset: 'TRX',
        blockChain: 'TRON',
        amount: '500',
        resourceType: 'TRON_BANDWIDTH',
      },
    ];
    const created: Json[] = [];
    for (const body of bodies) created.push(await post(paths.transactions(), body));
    expect(problemsOf('transaction', created)).toEqual([]);
    expect(created[2]).toMatchObject({ category: 'CONTRACT_CALL', amount: '0' });

    for (const tx of created) await t.approve(String(tx.id));
    for (let i = 0; i < 20; i += 1) await t.run(10 * 60_000);
    const fetched = await Promise.all(
      created.map((tx) => read(t, client, paths.transaction(String(tx.id)))),
    );
    expect(fetched.map((tx) => (tx as Json).status)).toEqual(created.map(() => 'COMPLETED'));
    expect(problemsOf('transaction', fetched)).toEqual([]);
    expect(problemsOf('transaction', await readAll(t, client, paths.transactions()))).toEqual([]);
  });

  it('a replacement and the original it replaces', async () => {
    // Ethereum is congested in minutes 0–14 of every hour: a LOW fee then waits in SUBMITTED.
    t.clock.set('2030-01-03T10:01:00.000Z');
    const stuck = await post(paths.transactions(), {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: f.treasury.id },
      destination: { type: 'CONTACT', id: f.contacts.eth.id },
      amount: '0.1',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      gasParams: { feeTier: 'LOW' },
    });
    await t.approve(String(stuck.id));
    await t.run(60_000);
    expect(await t.status(String(stuck.id))).toBe('SUBMITTED');
    const replacement = await post(paths.replaceTransaction(), { transactionId: stuck.id });
    await t.approve(String(replacement.id));
    for (let i = 0; i < 10; i += 1) await t.run(10 * 60_000);
    const [original, replaced] = await Promise.all(
      [stuck, replacement].map((tx) => read(t, client, paths.transaction(String(tx.id)))),
    );
    expect([original, replaced].map((tx) => (tx as Json).status)).toEqual(['FAILED', 'COMPLETED']);
    expect(problemsOf('transaction', [replacement, original, replaced])).toEqual([]);
  });

  it('a bank account created through the API belongs to the organization entity', async () => {
    const account = await post(paths.bankAccounts(), {
      paymentMethod: 'SEPA',
      accountName: 'Shape GmbH',
      accountNumber: 'DE89370400440532013000',
      bankName: 'Commerzbank',
      country: 'DE',
    });
    const [org] = await t.db
      .select({ entityId: organizations.entityId })
      .from(organizations)
      .where(eq(organizations.id, t.orgId));
    expect(account.orgEntityId).toBe(org?.entityId);
    const fetched = await read(t, client, paths.bankAccount(String(account.id)));
    expect([
      ...problemsOf('bankAccount', [account, fetched]),
      ...problemsOf('bankAccount', await readAll(t, client, paths.bankAccounts())),
    ]).toEqual([]);
  });

  it('vaults and contacts a test makes, assets and chains', async () => {
    expect([
      ...problemsOf('vault', await readAll(t, client, paths.vaults())),
      ...problemsOf('vault', [await read(t, client, paths.vault(f.treasury.id))]),
      ...problemsOf('contact', await readAll(t, client, paths.contacts())),
      ...problemsOf('asset', (await read(t, client, paths.assets())) as unknown[]),
      ...problemsOf('chain', (await read(t, client, paths.supportedChains())) as unknown[]),
    ]).toEqual([]);
  });
});
