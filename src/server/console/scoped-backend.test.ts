import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../contract/paths.ts';
import { assets } from '../db/schema/sandbox.ts';
import { assetRows } from '../custody/sandbox/seed/reference-data.ts';
import { createContact, createSubOrg, createTransaction, createVault } from '../test/fixtures.ts';
import type { StaffSession } from '../test/staff-session.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

/**
 * Whom a member restricted to sub-org A may move funds from and pay, for each
 * kind of create, the fee estimate and a replacement: only vaults and
 * contacts of sub-org A. Another sub-org's and the organization-level ones
 * are 404, as if they did not exist; an unrestricted member may use them all.
 */

let t: TestApp;
let restricted: StaffSession;
let unrestricted: StaffSession;
const ids = {} as Record<
  | 'vaultA'
  | 'gasA'
  | 'vaultB'
  | 'orgVault'
  | 'contactA'
  | 'contactB'
  | 'orgContact'
  | 'tronA'
  | 'tronB'
  | 'subOrgA',
  string
>;

beforeAll(async () => {
  t = await createTestApp();
  await t.db.insert(assets).values(assetRows());
  const a = await createSubOrg(t.db, t.orgId, 'A');
  const b = await createSubOrg(t.db, t.orgId, 'B');
  ids.subOrgA = a.id;
  const balances = [
    { asset: 'ETH', chain: 'ETHEREUM', amount: '10' },
    { asset: 'SOL', chain: 'SOLANA', amount: '50' },
    { asset: 'TRX', chain: 'TRON', amount: '100000' },
  ];
  const orgId = t.orgId;
  ids.vaultA = (await createVault(t.db, { orgId, subOrgId: a.id }, balances)).id;
  ids.gasA = (await createVault(t.db, { orgId, subOrgId: a.id, vaultType: 'GAS' }, balances)).id;
  ids.vaultB = (await createVault(t.db, { orgId, subOrgId: b.id }, balances)).id;
  ids.orgVault = (await createVault(t.db, { orgId, subOrgId: null }, balances)).id;
  ids.contactA = (await createContact(t.db, { orgId, subOrgId: a.id })).id;
  ids.contactB = (await createContact(t.db, { orgId, subOrgId: b.id })).id;
  ids.orgContact = (await createContact(t.db, { orgId, subOrgId: null })).id;
  const tron = { blockChain: 'TRON', address: 'TXYZ1234567890abcdefghijklmnopqrs', assetList: [] };
  ids.tronA = (await createContact(t.db, { orgId, subOrgId: a.id, ...tron })).id;
  ids.tronB = (await createContact(t.db, { orgId, subOrgId: b.id, ...tron })).id;
  restricted = await t.signIn('initiator', { subOrgIds: [a.id] });
  unrestricted = await t.signIn('initiator');
});
afterAll(() => t.close());

const vault = (id: string) => ({ type: 'VAULT', id });
const contact = (id: string) => ({ type: 'CONTACT', id });

function transfer(from: string, to: { type: string; id: string }, over: object = {}) {
  return {
    category: 'TRANSFER',
    source: vault(from),
    destination: to,
    amount: '0.01',
    asset: 'ETH',
    blockChain: 'ETHEREUM',
    ...over,
  };
}

async function post(member: StaffSession, url: string, body: unknown) {
  return member.json(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function expectHidden(member: StaffSession, url: string, body: unknown, id: string) {
  const res = await post(member, url, body);
  expect(res.status, JSON.stringify(res.body)).toBe(404);
  expect(res.body).toMatchObject({ code: 'NOT_FOUND' });
  expect((res.body as { message: string }).message).toContain(id);
}

async function expectAccepted(member: StaffSession, url: string, body: unknown) {
  const res = await post(member, url, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id?: string };
}

describe('creates by a member restricted to sub-org A', () => {
  const create = paths.transactions();

  it('pays a contact of sub-org A, not one of sub-org B nor an organization-level one', async () => {
    await expectAccepted(restricted, create, transfer(ids.vaultA, contact(ids.contactA)));
    await expectHidden(
      restricted,
      create,
      transfer(ids.vaultA, contact(ids.contactB)),
      ids.contactB,
    );
    await expectHidden(
      restricted,
      create,
      transfer(ids.vaultA, contact(ids.orgContact)),
      ids.orgContact,
    );
  });

  it('sends to a vault of sub-org A only', async () => {
    await expectAccepted(restricted, create, transfer(ids.vaultA, vault(ids.gasA)));
    await expectHidden(restricted, create, transfer(ids.vaultA, vault(ids.vaultB)), ids.vaultB);
    await expectHidden(restricted, create, transfer(ids.vaultA, vault(ids.orgVault)), ids.orgVault);
    await expectHidden(restricted, create, transfer(ids.vaultB, contact(ids.contactA)), ids.vaultB);
  });

  it('has fees paid by a vault of sub-org A only', async () => {
    const solana = (feePayer: string) =>
      transfer(ids.vaultA, vault(ids.gasA), {
        asset: 'SOL',
        blockChain: 'SOLANA',
        feePayer: { id: feePayer },
      });
    await expectHidden(restricted, create, solana(ids.vaultB), ids.vaultB);
    await expectHidden(restricted, create, solana(ids.orgVault), ids.orgVault);
    const ok = solana(ids.gasA);
    await expectAccepted(restricted, create, { ...ok, source: vault(ids.vaultA) });
  });

  it('stakes and calls contracts from a vault of sub-org A only', async () => {
    const stake = (from: string) => ({
      category: 'STAKE',
      source: vault(from),
      asset: 'SOL',
      blockChain: 'SOLANA',
      amount: '1',
    });
    await expectAccepted(restricted, create, stake(ids.vaultA));
    await expectHidden(restricted, create, stake(ids.vaultB), ids.vaultB);
    const call = (from: string) => ({
      category: 'CONTRACT_CALL',
      vaultId: from,
      blockChain: 'ETHEREUM',
      data: { callData: '0xa9059cbb' },
    });
    await expectAccepted(restricted, create, call(ids.vaultA));
    await expectHidden(restricted, create, call(ids.orgVault), ids.orgVault);
  });

  it('delegates resources to a contact of sub-org A only', async () => {
    const delegate = (to: string) => ({
      category: 'DELEGATE_RESOURCE',
      source: vault(ids.vaultA),
      destination: contact(to),
      asset: 'TRX',
      blockChain: 'TRON',
      amount: '100',
      resourceType: 'TRON_ENERGY',
    });
    await expectAccepted(restricted, create, delegate(ids.tronA));
    await expectHidden(restricted, create, delegate(ids.tronB), ids.tronB);
  });

  it('estimates fees for contacts of sub-org A only', async () => {
    const estimate = paths.estimateFee();
    await expectAccepted(restricted, estimate, transfer(ids.vaultA, contact(ids.contactA)));
    await expectHidden(
      restricted,
      estimate,
      transfer(ids.vaultA, contact(ids.contactB)),
      ids.contactB,
    );
    await expectHidden(
      restricted,
      estimate,
      transfer(ids.vaultA, contact(ids.orgContact)),
      ids.orgContact,
    );
  });

  it('leaves an unknown contact to the engine, which names the field', async () => {
    const res = await post(restricted, create, transfer(ids.vaultA, contact('no-such-contact')));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'UNKNOWN_CONTACT' });
  });

  it('creates nothing when refused', async () => {
    const before = await t.admin.json(`${paths.transactions()}?limit=100`);
    await post(restricted, create, transfer(ids.vaultA, contact(ids.contactB)));
    const after = await t.admin.json(`${paths.transactions()}?limit=100`);
    expect((after.body as { results: unknown[] }).results).toHaveLength(
      (before.body as { results: unknown[] }).results.length,
    );
  });
});

describe('an unrestricted member', () => {
  it('may pay organization-level and any sub-org contacts', async () => {
    const create = paths.transactions();
    await expectAccepted(unrestricted, create, transfer(ids.orgVault, contact(ids.orgContact)));
    await expectAccepted(unrestricted, create, transfer(ids.vaultA, contact(ids.contactB)));
  });
});

describe('replacement', () => {
  async function submittedPayment(to: { type: string; id: string; subOrgId?: string }) {
    return createTransaction(t.db, {
      orgId: t.orgId,
      subOrgId: ids.subOrgA,
      vaultId: ids.vaultA,
      status: 'SUBMITTED',
      nonce: 3,
      feeTier: 'LOW',
      source: { type: 'VAULT', id: ids.vaultA },
      destination: to,
    });
  }

  it('of a payment to a contact outside the scope is 404, though the original is readable', async () => {
    const original = await submittedPayment(contact(ids.orgContact));
    const read = await restricted.json(paths.transaction(original.id));
    expect(read.status).toBe(200);
    await expectHidden(
      restricted,
      paths.replaceTransaction(),
      { transactionId: original.id },
      ids.orgContact,
    );
    const other = await submittedPayment(contact(ids.contactB));
    await expectHidden(
      restricted,
      paths.replaceTransaction(),
      { transactionId: other.id },
      ids.contactB,
    );
  });

  it('of a payment to a contact of sub-org A reaches the engine', async () => {
    const original = await submittedPayment(contact(ids.contactA));
    const res = await post(restricted, paths.replaceTransaction(), { transactionId: original.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
