import { describe, expect } from 'vitest';
import { ApprovalCardResponse, intentDigest } from '#contract/approval-card.ts';
import { add, neg, sub } from '#contract/decimal.ts';
import { pathOf } from '#contract/endpoint.ts';
import { previewApprovalCard } from '#contract/endpoints/approval-card-preview.ts';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import { paths } from '#contract/paths.ts';
import { Transaction } from '#contract/transaction.ts';
import type { EngineFixture } from '../../../test/engine-test-app.ts';
import { erc20, UNLIMITED, USDC_ETHEREUM } from '../../../test/erc20-calls.ts';
import { createContact, createSubOrg, createTransaction } from '../../../test/fixtures.ts';
import { INTENT_CREATE_PATH, QUOTE_PATH, rampTest } from '../../../test/ramp-fixtures.ts';
import { proposeBankAccount } from '../../../test/staff-approvals.ts';
import { signInStaff, type StaffSession } from '../../../test/staff-session.ts';

/**
 * The approval card as the server computes it for each kind the inbox holds,
 * held to the item's scope, with bank numbers masked; and the initiator's
 * preview of a draft, which is the created item's card (the same digest).
 */

const cardTest = rampTest.extend('staff', { scope: 'file' }, async ({ t }) => {
  const desk = await createSubOrg(t.db, t.orgId, 'Card desk');
  const as = (role: 'initiator' | 'approver', name: string, subOrgIds?: string[]) =>
    signInStaff(t.app, t.db, t.authClock, { role, name, subOrgIds: subOrgIds ?? null });
  return {
    desk,
    ivy: await as('initiator', 'Ivy Card'),
    ada: await as('approver', 'Ada Card'),
    elsewhere: await as('approver', 'Eve Card', [desk.id]),
  };
});

const send = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

const toContact = (f: EngineFixture, amount: string, over: Record<string, unknown> = {}) => ({
  category: 'TRANSFER',
  source: { type: 'VAULT', id: f.treasury.id },
  destination: { type: 'CONTACT', id: f.contacts.eth.id },
  amount,
  asset: 'ETH',
  blockChain: 'ETHEREUM',
  gasParams: { feeTier: 'MEDIUM' },
  ...over,
});

async function create(by: StaffSession, body: Record<string, unknown>) {
  const made = await by.json(paths.transactions(), send(body));
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return Transaction.parse(made.body).id ?? '';
}

async function cardOf(by: StaffSession, entityId: string) {
  const res = await by.json(pathOf(approvalCard, { entityId }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ApprovalCardResponse.parse(res.body);
}

async function previewOf(by: StaffSession, body: Record<string, unknown>) {
  const res = await by.json(pathOf(previewApprovalCard), send(body));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ApprovalCardResponse.parse(res.body);
}

describe('a transaction’s approval card', () => {
  cardTest(
    'says where it goes, what leaves, the fee ceiling, each vault before → after and the rule',
    async ({ f, staff }) => {
      const id = await create(staff.ivy, toContact(f, '0.25'));
      const { card, digest } = await cardOf(staff.ada, id);
      expect(digest).toBe(intentDigest(card.intent));
      expect(card.intent).toMatchObject({
        kind: 'TRANSACTION',
        category: 'TRANSFER',
        source: { id: f.treasury.id, name: 'Treasury' },
        destination: {
          type: 'CONTACT',
          id: f.contacts.eth.id,
          name: 'Exchange',
          address: expect.stringMatching(/^0x/),
          ours: false,
          approvedContact: true,
        },
        asset: 'ETH',
        blockChain: 'ETHEREUM',
        amount: '0.25',
        feeCeiling: { tier: 'MEDIUM', asset: 'ETH' },
        call: null,
        quote: null,
        rule: { name: expect.any(String), summary: '1 approval from anyone who may approve' },
      });
      const ceiling = card.intent.feeCeiling?.maxFee ?? '';
      // One line for ETH: the amount and the fee leave the treasury together.
      expect(card.status.balances).toHaveLength(1);
      const [treasury] = card.status.balances;
      expect(treasury).toMatchObject({
        vault: { id: f.treasury.id, name: 'Treasury' },
        asset: 'ETH',
        change: neg(add('0.25', ceiling)),
      });
      expect(treasury?.after).toBe(sub(treasury?.before ?? '', add('0.25', ceiling)));
      expect(card.status).toMatchObject({
        entityId: id,
        state: 'PENDING',
        quorum: { required: 1, blocked: false, approvedBy: [], waitingOn: expect.any(String) },
      });
      expect(card.status.amountUsd).not.toBeNull();
      expect(card.status.priceUsd).not.toBeNull();
    },
  );

  cardTest('names our own destination vault and its balance after', async ({ f, staff }) => {
    const id = await create(staff.ivy, {
      ...toContact(f, '0.125'),
      destination: { type: 'VAULT', id: f.ops.id },
    });
    const { card } = await cardOf(staff.ada, id);
    expect(card.intent.destination).toMatchObject({
      type: 'VAULT',
      id: f.ops.id,
      name: 'Operations',
      ours: true,
      approvedContact: false,
    });
    const ops = card.status.balances.find((b) => b.vault.id === f.ops.id);
    expect(ops).toMatchObject({ asset: 'ETH', change: '0.125' });
    expect(ops?.after).toBe(add(ops?.before ?? '', '0.125'));
  });

  cardTest('reads a contract call: what it does, its spender, unlimited', async ({ f, staff }) => {
    const id = await create(staff.ivy, {
      category: 'CONTRACT_CALL',
      vaultId: f.treasury.id,
      blockChain: 'ETHEREUM',
      data: { callData: erc20.approve(UNLIMITED), toAddress: USDC_ETHEREUM },
    });
    const { card } = await cardOf(staff.ada, id);
    expect(card.intent).toMatchObject({
      category: 'CONTRACT_CALL',
      source: { id: f.treasury.id, name: 'Treasury' },
      call: {
        description: 'Unlimited USDC approval to 0x1111…1111',
        contract: USDC_ETHEREUM,
        function: 'approve(address,uint256)',
        spender: '0x1111111111111111111111111111111111111111',
        amount: UNLIMITED.toString(),
        unlimited: true,
      },
    });
  });

  cardTest('has a card for a stake too', async ({ t, f, staff }) => {
    const stake = await createTransaction(t.db, {
      orgId: t.orgId,
      vaultId: f.treasury.id,
      category: 'STAKE',
      status: 'PENDING',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      amount: '1',
    });
    const { card } = await cardOf(staff.ada, stake.id);
    expect(card.intent).toMatchObject({ kind: 'TRANSACTION', category: 'STAKE', amount: '1' });
    expect(card.intent.source?.id).toBe(f.treasury.id);
  });

  cardTest(
    'binds a ramp’s quote and shows its bank by rail and last 4 only',
    async ({ f, r, staff }) => {
      const intent = {
        source: { type: 'VAULT', id: f.treasury.id },
        destination: { type: 'BANK_ACCOUNT', id: r.usd.id },
        fromAsset: 'USDC',
        fromAmount: '150',
        fromChain: 'ETHEREUM',
        toAsset: 'USD',
      };
      const quoted = await staff.ivy.json(QUOTE_PATH, send({ intent }));
      expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
      const quoteId =
        (quoted.body as { quotes: Array<{ quoteId: string }> }).quotes[0]?.quoteId ?? '';
      const made = await staff.ivy.json(INTENT_CREATE_PATH, send({ intent, quoteId }));
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const id = Transaction.parse(made.body).id ?? '';

      const res = await staff.ada.json(pathOf(approvalCard, { entityId: id }));
      expect(JSON.stringify(res.body)).not.toContain('987654321');
      const { card } = ApprovalCardResponse.parse(res.body);
      expect(card.intent).toMatchObject({
        category: 'OFF_RAMP',
        destination: { type: 'BANK_ACCOUNT', rail: expect.any(String), last4: '4321' },
        quote: {
          quoteId,
          rate: expect.any(String),
          arrivesAmount: expect.any(String),
          arrivesAsset: 'USD',
          expiresAt: expect.any(String),
        },
      });
      expect(card.intent.quote?.provider).toBeTruthy();
    },
  );
});

describe('the cards of bank accounts and contacts', () => {
  cardTest('a bank account: its rail and last 4, never the full number', async ({ staff }) => {
    const id = await proposeBankAccount(staff.ivy, staff.desk.id, {
      accountName: 'Card Payee LLC',
      accountNumber: '555000111',
    });
    const res = await staff.ada.json(pathOf(approvalCard, { entityId: id }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain('555000111');
    expect(JSON.stringify(res.body)).not.toContain('021000021');
    const { card, digest } = ApprovalCardResponse.parse(res.body);
    expect(digest).toBe(intentDigest(card.intent));
    expect(card.intent).toMatchObject({
      kind: 'BANK_ACCOUNT',
      category: 'BANK_ACCOUNT',
      destination: { type: 'BANK_ACCOUNT', name: 'Card Payee LLC', rail: 'US_ACH', last4: '0111' },
      amount: null,
      feeCeiling: null,
    });
    expect(card.status).toMatchObject({ state: 'PENDING', quorum: { required: 1 } });
  });

  cardTest('a contact: its address, chain and the assets it may receive', async ({ t, staff }) => {
    const contact = await createContact(t.db, {
      orgId: t.orgId,
      name: 'Card Vendor',
      status: 'PENDING',
      assetList: ['ETH', 'USDC'],
    });
    const { card } = await cardOf(staff.ada, contact.id);
    expect(card.intent).toMatchObject({
      kind: 'CONTACT',
      category: 'CONTACT',
      destination: {
        type: 'CONTACT',
        name: 'Card Vendor',
        address: contact.address,
        blockChain: 'ETHEREUM',
        approvedContact: false,
      },
      assets: ['ETH', 'USDC'],
    });
    expect(card.status.state).toBe('PENDING');
  });
});

describe('who may read a card', () => {
  cardTest(
    'a member outside the item’s sub-organization gets 404, as the item’s own read',
    async ({ f, staff }) => {
      const id = await create(staff.ivy, toContact(f, '0.01'));
      const read = await staff.elsewhere.json(paths.transaction(id));
      expect(read.status).toBe(404);
      const res = await staff.elsewhere.json(pathOf(approvalCard, { entityId: id }));
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND' });
    },
  );

  cardTest('an id of nothing is 404', async ({ staff }) => {
    const res = await staff.ada.json(pathOf(approvalCard, { entityId: 'no-such-item' }));
    expect(res.status).toBe(404);
  });
});

describe('the initiator’s preview', () => {
  cardTest(
    'is the card of the item the same body creates: the same intent, the same digest',
    async ({ f, staff }) => {
      const body = toContact(f, '0.0625', { externalId: 'card-preview-1' });
      const preview = await previewOf(staff.ivy, body);
      expect(preview.card.status).toMatchObject({ entityId: null, state: null, quorum: null });
      expect(preview.card.status.balances[0]?.change).toBe(
        neg(add('0.0625', preview.card.intent.feeCeiling?.maxFee ?? '')),
      );
      // Nothing was made by the preview.
      const listed = await staff.ivy.json(`${paths.transactions()}?externalId=card-preview-1`);
      expect(listed.body).toMatchObject({ results: [] });

      const id = await create(staff.ivy, body);
      const made = await cardOf(staff.ada, id);
      expect(made.card.intent).toEqual(preview.card.intent);
      expect(made.digest).toBe(preview.digest);
    },
  );

  cardTest('is the same for a contract call', async ({ f, staff }) => {
    const body = {
      category: 'CONTRACT_CALL',
      vaultId: f.treasury.id,
      blockChain: 'ETHEREUM',
      data: { callData: erc20.transfer(2_000_000n), toAddress: USDC_ETHEREUM },
    };
    const preview = await previewOf(staff.ivy, body);
    const made = await cardOf(staff.ada, await create(staff.ivy, body));
    expect(made.card.intent).toEqual(preview.card.intent);
    expect(made.digest).toBe(preview.digest);
    expect(made.card.intent.call?.description).toBe('Transfer of 2 USDC to 0x1111…1111');
  });

  cardTest('refuses a body the create would refuse, naming the field', async ({ f, staff }) => {
    const res = await staff.ivy.json(
      pathOf(previewApprovalCard),
      send({ ...toContact(f, '-1'), amount: '-1' }),
    );
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('amount');
  });
});
