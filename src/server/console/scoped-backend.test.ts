import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { toChecksumAddress } from '#contract/contact-address.ts';
import { paths } from '#contract/paths.ts';
import { assets, wallets } from '../db/schema/sandbox.ts';
import { assetRows } from '../custody/sandbox/seed/reference-data.ts';
import { createContact, createSubOrg, createTransaction, createVault } from '../test/fixtures.ts';
import type { StaffSession } from '../test/staff-session.ts';
import { appTestWith } from '../test/app-test.ts';
import type { TestApp } from '../test/test-app.ts';

/**
 * Whom a member restricted to sub-org A may move funds from and pay, for each
 * kind of create, the fee estimate and a replacement: only vaults and
 * contacts of sub-org A. Another sub-org's and the organization-level ones
 * are 404, as if they did not exist; an unrestricted member may use them all.
 */

type Ids = Record<
  | 'vaultA'
  | 'gasA'
  | 'vaultB'
  | 'orgVault'
  | 'contactA'
  | 'contactB'
  | 'orgContact'
  | 'tronA'
  | 'tronB'
  | 'subOrgA'
  | 'subOrgB',
  string
>;
/**
 * Vault B's, the organization-level vault's and sub-org A's gas vault's
 * Ethereum addresses, as EVM addresses: checksummed, as a typed one must be.
 */
const VAULT_B_ADDRESS = toChecksumAddress(`0x${'ab'.repeat(20)}`);
const ORG_VAULT_ADDRESS = toChecksumAddress(`0x${'cd'.repeat(20)}`);
const GAS_A_ADDRESS = toChecksumAddress(`0x${'ef'.repeat(20)}`);

/** Sub-orgs A and B, their vaults and contacts, and the organization-level ones. */
async function scopeWorld(t: TestApp): Promise<Ids> {
  const ids = {} as Ids;
  await t.db.insert(assets).values(assetRows());
  const a = await createSubOrg(t.db, t.orgId, 'A');
  const b = await createSubOrg(t.db, t.orgId, 'B');
  ids.subOrgA = a.id;
  ids.subOrgB = b.id;
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
  for (const [vaultId, address] of [
    [ids.vaultB, VAULT_B_ADDRESS],
    [ids.orgVault, ORG_VAULT_ADDRESS],
    [ids.gasA, GAS_A_ADDRESS],
  ] as const) {
    await t.db
      .update(wallets)
      .set({ address })
      .where(and(eq(wallets.vaultId, vaultId), eq(wallets.blockchain, 'ETHEREUM')));
  }
  return ids;
}

const appTest = appTestWith()
  .extend('ids', { scope: 'file' }, ({ t }) => scopeWorld(t))
  .extend('restricted', { scope: 'file' }, ({ t, ids }) =>
    t.signIn('initiator', { subOrgIds: [ids.subOrgA] }),
  )
  .extend('unrestricted', { scope: 'file' }, ({ t }) => t.signIn('initiator'));

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

  appTest(
    'pays a contact of sub-org A, not one of sub-org B nor an organization-level one',
    async ({ ids, restricted }) => {
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
    },
  );

  appTest('sends to a vault of sub-org A only', async ({ ids, restricted }) => {
    await expectAccepted(restricted, create, transfer(ids.vaultA, vault(ids.gasA)));
    await expectHidden(restricted, create, transfer(ids.vaultA, vault(ids.vaultB)), ids.vaultB);
    await expectHidden(restricted, create, transfer(ids.vaultA, vault(ids.orgVault)), ids.orgVault);
    await expectHidden(restricted, create, transfer(ids.vaultB, contact(ids.contactA)), ids.vaultB);
  });

  appTest('has fees paid by a vault of sub-org A only', async ({ ids, restricted }) => {
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

  appTest(
    'stakes and calls contracts from a vault of sub-org A only',
    async ({ ids, restricted }) => {
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
    },
  );

  appTest('delegates resources to a contact of sub-org A only', async ({ ids, restricted }) => {
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

  appTest('estimates fees for contacts of sub-org A only', async ({ ids, restricted }) => {
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

  appTest(
    'leaves an unknown contact to the engine, which names the field',
    async ({ ids, restricted }) => {
      const res = await post(restricted, create, transfer(ids.vaultA, contact('no-such-contact')));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'UNKNOWN_CONTACT' });
    },
  );

  appTest('creates nothing when refused', async ({ t, ids, restricted }) => {
    const before = await t.admin.json(`${paths.transactions()}?limit=100`);
    await post(restricted, create, transfer(ids.vaultA, contact(ids.contactB)));
    const after = await t.admin.json(`${paths.transactions()}?limit=100`);
    expect((after.body as { results: unknown[] }).results).toHaveLength(
      (before.body as { results: unknown[] }).results.length,
    );
  });
});

describe('external addresses of a member restricted to sub-org A', () => {
  const create = paths.transactions();
  const external = (address: string) => ({ type: 'EXTERNAL_ADDRESS', id: address });

  appTest(
    "are refused when they are another sub-org's or an organization-level vault's address",
    async ({ ids, restricted }) => {
      for (const address of [VAULT_B_ADDRESS, VAULT_B_ADDRESS.toLowerCase(), ORG_VAULT_ADDRESS]) {
        for (const url of [create, paths.estimateFee()]) {
          const res = await post(restricted, url, transfer(ids.vaultA, external(address)));
          expect(res.status, JSON.stringify(res.body)).toBe(404);
          expect(res.body).toMatchObject({
            code: 'NOT_FOUND',
            message: expect.stringContaining('belongs to a vault outside your sub-organizations'),
          });
        }
      }
      // On another chain too: an EVM address is the same key on every EVM chain.
      const polygon = transfer(ids.vaultA, external(VAULT_B_ADDRESS), {
        asset: 'MATIC',
        blockChain: 'POLYGON',
      });
      expect((await post(restricted, create, polygon)).status).toBe(404);
    },
  );

  appTest(
    'are accepted when they belong to no vault, or to a vault of sub-org A',
    async ({ ids, restricted }) => {
      await expectAccepted(
        restricted,
        create,
        transfer(ids.vaultA, external(`0x${'12'.repeat(20)}`)),
      );
      // Another vault of sub-org A (the sending vault's own address is refused as a transfer to itself).
      await expectAccepted(restricted, create, transfer(ids.vaultA, external(GAS_A_ADDRESS)));
    },
  );

  appTest("are anyone's to pay for an unrestricted member", async ({ ids, unrestricted }) => {
    await expectAccepted(unrestricted, create, transfer(ids.vaultA, external(VAULT_B_ADDRESS)));
  });
});

describe('a duplicate externalId', () => {
  appTest(
    'names the original only to a caller who may see it',
    async ({ t, ids, restricted, unrestricted }) => {
      const externalId = `dup-${Date.now()}`;
      const original = await createTransaction(t.db, {
        orgId: t.orgId,
        subOrgId: ids.subOrgB,
        vaultId: ids.vaultB,
        externalId,
      });
      const body = transfer(ids.vaultA, contact(ids.contactA), { externalId });
      const hidden = await post(restricted, paths.transactions(), body);
      expect(hidden).toMatchObject({
        status: 400,
        body: {
          code: 'DUPLICATE_EXTERNAL_ID',
          fields: [{ field: 'externalId', message: expect.stringContaining('already used') }],
        },
      });
      expect(JSON.stringify(hidden.body)).not.toContain(original.id);

      const seen = await post(unrestricted, paths.transactions(), body);
      expect(seen).toMatchObject({ status: 400, body: { code: 'DUPLICATE_EXTERNAL_ID' } });
      expect(JSON.stringify(seen.body)).toContain(original.id);

      // An original in the member's own sub-org is theirs to find.
      const ownId = `own-${Date.now()}`;
      const own = await createTransaction(t.db, {
        orgId: t.orgId,
        subOrgId: ids.subOrgA,
        vaultId: ids.vaultA,
        externalId: ownId,
      });
      const mine = await post(restricted, paths.transactions(), { ...body, externalId: ownId });
      expect(mine.status).toBe(400);
      expect(JSON.stringify(mine.body)).toContain(own.id);
    },
  );
});

describe('bank accounts proposed by a restricted member', () => {
  const account = {
    paymentMethod: 'US_ACH',
    accountName: 'Scoped Holder',
    accountNumber: '000123456789',
    routingNumber: '021000021',
    bankName: 'Bank',
    country: 'US',
  };

  appTest(
    'of several sub-orgs must name one of them: never the organization level',
    async ({ t, ids }) => {
      const several = await t.signIn('initiator', { subOrgIds: [ids.subOrgA, ids.subOrgB] });
      const res = await post(several, paths.bankAccounts(), account);
      expect(res).toMatchObject({
        status: 400,
        body: { code: 'VALIDATION_ERROR', fields: [{ field: 'subOrgId' }] },
      });
      expect((res.body as { message: string }).message).toMatch(/^subOrgId is required/);
      const named = await post(several, paths.bankAccounts(), {
        ...account,
        subOrgId: ids.subOrgB,
      });
      expect(named).toMatchObject({ status: 200, body: { subOrgId: ids.subOrgB } });
    },
  );

  appTest('of one sub-org is proposed there by default', async ({ ids, restricted }) => {
    const res = await post(restricted, paths.bankAccounts(), account);
    expect(res).toMatchObject({ status: 200, body: { subOrgId: ids.subOrgA } });
  });

  appTest(
    'naming a sub-org outside their scope is refused on subOrgId, the same whether it exists or not',
    async ({ t, ids, restricted }) => {
      const refusals = [];
      for (const subOrgId of [ids.subOrgB, 'so_does_not_exist']) {
        const res = await post(restricted, paths.bankAccounts(), { ...account, subOrgId });
        expect(res).toMatchObject({
          status: 404,
          body: { code: 'NOT_FOUND', fields: [{ field: 'subOrgId' }] },
        });
        const { message } = res.body as { message: string };
        expect(message).toMatch(/^subOrgId is not one of your sub-organizations/);
        refusals.push(message.replace(subOrgId, '<id>'));
      }
      // One answer for another's sub-org and a made-up one: the refusal tells nothing of B.
      expect(refusals[0]).toBe(refusals[1]);
      const several = await t.signIn('initiator', { subOrgIds: [ids.subOrgA, ids.subOrgB] });
      const outside = await post(several, paths.bankAccounts(), {
        ...account,
        subOrgId: 'so_does_not_exist',
      });
      expect(outside).toMatchObject({ status: 404, body: { fields: [{ field: 'subOrgId' }] } });
    },
  );
});

describe('an unrestricted member', () => {
  appTest(
    'may pay organization-level contacts, and a sub-org’s contacts from that sub-org’s vaults',
    async ({ ids, unrestricted }) => {
      const create = paths.transactions();
      await expectAccepted(unrestricted, create, transfer(ids.orgVault, contact(ids.orgContact)));
      await expectAccepted(unrestricted, create, transfer(ids.vaultB, contact(ids.contactB)));
      // Scope is not the only rule: the engine pays a contact only from its own sub-org.
      const across = await post(unrestricted, create, transfer(ids.vaultA, contact(ids.contactB)));
      expect(across).toMatchObject({
        status: 400,
        body: { code: 'CONTACT_OF_ANOTHER_SUB_ORG' },
      });
    },
  );
});

describe('replacement', () => {
  async function submittedPayment(
    t: TestApp,
    ids: Ids,
    to: { type: string; id: string; subOrgId?: string },
  ) {
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

  appTest(
    'of a payment to a contact outside the scope is 404, though the original is readable',
    async ({ t, ids, restricted }) => {
      const original = await submittedPayment(t, ids, contact(ids.orgContact));
      const read = await restricted.json(paths.transaction(original.id));
      expect(read.status).toBe(200);
      await expectHidden(
        restricted,
        paths.replaceTransaction(),
        { transactionId: original.id },
        ids.orgContact,
      );
      const other = await submittedPayment(t, ids, contact(ids.contactB));
      await expectHidden(
        restricted,
        paths.replaceTransaction(),
        { transactionId: other.id },
        ids.contactB,
      );
    },
  );

  appTest(
    'of a payment to a contact of sub-org A reaches the engine',
    async ({ t, ids, restricted }) => {
      const original = await submittedPayment(t, ids, contact(ids.contactA));
      const res = await post(restricted, paths.replaceTransaction(), {
        transactionId: original.id,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    },
  );
});
