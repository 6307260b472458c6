import { describe, expect } from 'vitest';
import { ApprovalInboxResponse } from '#contract/approval-inbox.ts';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { ChangeRequestHistory } from '#contract/change-request.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { pathOf, toQueryString } from '#contract/endpoint.ts';
import { approvalInbox } from '#contract/endpoints/approvals.ts';
import { contactHistory } from '#contract/endpoints/contacts.ts';
import { paths } from '#contract/paths.ts';
import { Contact, ContactListResponse } from '#contract/reference.ts';
import { signApprovalMessage } from '../../protocol/api-token.ts';
import { createTestApiUser, type TestApiUser } from '../../test/api-client.ts';
import { appTest } from '../../test/app-test.ts';
import { engineTest } from '../../test/engine-test.ts';
import type { EngineTestApp } from '../../test/engine-test-app.ts';
import { createContact, createSubOrg, minutesAgo } from '../../test/fixtures.ts';
import { sdkRequest, type Sdk } from '../../test/sdk-wire.ts';
import { signInStaff } from '../../test/staff-session.ts';
import type { TestApp } from '../../test/test-app.ts';

// The address book through the real app on a real database: its list, both
// provider SDKs' calls as they put them on the wire, and the console's members.

const contactPath = (id: string) => `${paths.contacts()}${encodeURIComponent(id)}/`;

/** A fresh EVM address each call, all lowercase (no checksum written). */
let counter = 0;
function lowercaseAddress(): string {
  counter += 1;
  return `0x${(counter * 7919 + Date.now()).toString(16).padStart(40, 'a').slice(-40)}`;
}

async function sdkCall(
  t: EngineTestApp,
  sdk: Sdk,
  user: TestApiUser,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  body?: Record<string, unknown>,
) {
  const res = await t.app.request(url, sdkRequest(sdk, user, method, url, body));
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Record<string, unknown>, text };
}

/** createContact as each SDK builds its body. */
function createBody(sdk: Sdk, contact: { name: string; address: string; assetList?: string[] }) {
  return sdk === 'python'
    ? {
        name: contact.name,
        address: contact.address,
        blockChain: 'ETHEREUM',
        tags: null,
        externalId: null,
        assetList: contact.assetList ?? [],
      }
    : {
        name: contact.name,
        address: contact.address,
        blockChain: 'ETHEREUM',
        ...(contact.assetList ? { assetList: contact.assetList } : {}),
      };
}

/** The change-request approval as each SDK makes it: the message, then the signed action. */
async function sdkApprove(t: EngineTestApp, sdk: Sdk, user: TestApiUser, entityId: string) {
  const messageUrl = `${paths.approvalMessage()}${toQueryString({ entityId })}`;
  const got = await sdkCall(t, sdk, user, 'GET', messageUrl);
  expect(got.status, got.text).toBe(200);
  const message = ApprovalMessageResponse.parse(got.body);
  const signature = signApprovalMessage(message.message, user.privateKeyHex);
  const action =
    sdk === 'python'
      ? { entityId, message: message.message, signature, action: 'approve', reason: 'ok' }
      : { action: 'approve', signature };
  const decided = await sdkCall(
    t,
    sdk,
    user,
    'POST',
    paths.approvalAction(message.approvalId),
    action,
  );
  expect(decided.status, decided.text).toBe(200);
  return { message: message.message, body: decided.body };
}

async function ok(t: TestApp, url: string) {
  const res = await t.getJson(url);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('contacts', () => {
  appTest('lists contacts newest first, filtered by name', async ({ t }) => {
    const older = await createContact(t.db, {
      orgId: t.orgId,
      name: 'Kestrel Exchange',
      createdAt: minutesAgo(2),
    });
    const newer = await createContact(t.db, {
      orgId: t.orgId,
      name: 'kestrel OTC',
      status: 'PENDING',
      createdAt: minutesAgo(1),
    });
    await createContact(t.db, { orgId: t.orgId, name: 'Someone else' });
    const page = ContactListResponse.parse(await ok(t, `${paths.contacts()}?name=KESTREL`));
    expect(page.results.map((c) => c.id)).toEqual([newer.id, older.id]);
    expect(page.results[0]).toMatchObject({
      status: 'PENDING',
      blockChain: 'ETHEREUM',
      assetList: ['ETH'],
    });
  });
});

describe('the address book through both provider SDKs', () => {
  for (const sdk of ['js', 'python'] as const) {
    engineTest(
      `${sdk}: creates a contact (PENDING, shown checksummed), approves it, changes its assets through approval`,
      // The fixture's assets: a contact's asset list names assets of its chain.
      async ({ t, f: _assets }) => {
        const user = await createTestApiUser(t, `${sdk} contacts client`);
        const address = lowercaseAddress();
        const created = await sdkCall(
          t,
          sdk,
          user,
          'POST',
          paths.contacts(),
          createBody(sdk, { name: `${sdk} desk`, address, assetList: ['ETH'] }),
        );
        expect(created.status, created.text).toBe(200);
        const contact = Contact.parse(created.body);
        expect(contact).toMatchObject({
          status: 'PENDING',
          blockChain: 'ETHEREUM',
          assetList: ['ETH'],
        });
        // Stored and answered in its EIP-55 spelling: the same address, checksummed.
        expect(contact.address?.toLowerCase()).toBe(address);
        expect(contact.address).not.toBe(address);

        const id = contact.id ?? '';
        await sdkApprove(t, sdk, user, id);
        const approved = await sdkCall(t, sdk, user, 'GET', contactPath(id));
        expect(Contact.parse(approved.body).status).toBe('APPROVED');

        // updateContact: a change request of its own; the approved list stays in force until approved.
        const updated = await sdkCall(t, sdk, user, 'PUT', contactPath(id), {
          assetList: ['ETH', 'USDC'],
        });
        expect(updated.status, updated.text).toBe(200);
        expect(Contact.parse(updated.body)).toMatchObject({
          id,
          assetList: ['ETH'],
          pendingAssetList: ['ETH', 'USDC'],
          status: 'APPROVED',
        });
        const { message } = await sdkApprove(t, sdk, user, id);
        // The signature covers what changes, not only which contact.
        expect(JSON.parse(message)).toMatchObject({
          proposedChange: { assetList: ['ETH', 'USDC'] },
        });
        const after = Contact.parse((await sdkCall(t, sdk, user, 'GET', contactPath(id))).body);
        expect(after.assetList).toEqual(['ETH', 'USDC']);
        expect(after.pendingAssetList).toBeUndefined();
      },
    );
  }
});

describe('POST /api/external/contacts/: the address rules', () => {
  engineTest(
    'a mixed-case EVM address whose EIP-55 checksum fails is refused, naming the field and rule',
    async ({ t }) => {
      const user = await createTestApiUser(t, 'checksum client');
      // EIP-55's own example with one letter's case flipped.
      const res = await sdkCall(t, 'js', user, 'POST', paths.contacts(), {
        name: 'Typo desk',
        address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
        blockChain: 'ETHEREUM',
      });
      expect(res.status, res.text).toBe(400);
      const error = ApiErrorBody.parse(res.body);
      expect(error.fields).toEqual([
        { field: 'address', message: expect.stringMatching(/EIP-55 checksum/) as unknown },
      ]);
      const right = await sdkCall(t, 'js', user, 'POST', paths.contacts(), {
        name: 'EIP-55 desk',
        address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        blockChain: 'ETHEREUM',
      });
      expect(right.status, right.text).toBe(200);
    },
  );

  engineTest('Bitcoin and Tron addresses are held to their checksums', async ({ t }) => {
    const user = await createTestApiUser(t, 'utxo client');
    const propose = (blockChain: string, address: string) =>
      sdkCall(t, 'js', user, 'POST', paths.contacts(), {
        name: `${blockChain} desk`,
        address,
        blockChain,
      });
    expect((await propose('BITCOIN', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).status).toBe(
      200,
    );
    const typo = await propose('BITCOIN', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5');
    expect(typo.status).toBe(400);
    expect(ApiErrorBody.parse(typo.body).message).toMatch(/address fails its bech32 checksum/);
    const tron = await propose('TRON', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u');
    expect(ApiErrorBody.parse(tron.body).message).toMatch(/base58check/);
  });

  engineTest(
    'an asset not on the chain, a duplicate address and a reused externalId are refused',
    async ({ t }) => {
      const user = await createTestApiUser(t, 'rules client');
      const address = lowercaseAddress();
      const base = { name: 'Rules desk', address, blockChain: 'ETHEREUM' };
      const badAsset = await sdkCall(t, 'js', user, 'POST', paths.contacts(), {
        ...base,
        assetList: ['BTC'],
      });
      expect(badAsset.status).toBe(400);
      expect(ApiErrorBody.parse(badAsset.body).fields?.[0]?.field).toBe('assetList');

      const first = await sdkCall(t, 'js', user, 'POST', paths.contacts(), {
        ...base,
        externalId: 'desk-1',
      });
      expect(first.status, first.text).toBe(200);
      const twin = await sdkCall(t, 'js', user, 'POST', paths.contacts(), {
        ...base,
        address: address.toUpperCase().replace('0X', '0x'),
      });
      expect(ApiErrorBody.parse(twin.body).code).toBe('DUPLICATE_CONTACT');
      const reused = await sdkCall(t, 'js', user, 'POST', paths.contacts(), {
        ...base,
        address: lowercaseAddress(),
        externalId: 'desk-1',
      });
      expect(ApiErrorBody.parse(reused.body).code).toBe('DUPLICATE_EXTERNAL_ID');
      const found = await sdkCall(t, 'js', user, 'GET', `${paths.contacts()}?externalId=desk-1`);
      expect(ContactListResponse.parse(found.body).results.map((c) => c.id)).toEqual([
        first.body.id,
      ]);
    },
  );
});

describe('contacts decided by the console’s members', () => {
  engineTest(
    'four eyes, a reason to decline, the inbox, the history and the audit log',
    async ({ t, f }) => {
      const initiator = await signInStaff(t.app, t.db, t.authClock, { role: 'initiator' });
      const approver = await signInStaff(t.app, t.db, t.authClock, { role: 'approver' });
      const post = (url: string, body: unknown) =>
        initiator.json(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const proposed = await post(paths.contacts(), {
        name: 'Console desk',
        address: lowercaseAddress(),
        blockChain: 'ETHEREUM',
        assetList: ['USDC'],
        tags: ['otc'],
        isSmartContractAddress: true,
      });
      expect(proposed.status, JSON.stringify(proposed.body)).toBe(200);
      const contact = Contact.parse(proposed.body);
      expect(contact).toMatchObject({
        tags: ['otc'],
        isSmartContractAddress: true,
        status: 'PENDING',
      });
      const id = contact.id ?? '';

      // In the approvals inbox, as a contact, named by its proposer.
      const inbox = ApprovalInboxResponse.parse(
        (await approver.json(`${pathOf(approvalInbox)}?limit=100`)).body,
      );
      const item = inbox.results.find((i) => i.kind === 'CONTACT' && i.id === id);
      expect(item).toMatchObject({
        yours: false,
        initiator: { type: 'STAFF', name: initiator.member.name },
      });

      // The proposer cannot decide it: four eyes.
      const decide = async (who: typeof approver, body: Record<string, unknown>) => {
        const message = await who.json(
          `${paths.approvalMessage()}${toQueryString({ entityId: id })}`,
        );
        if (message.status !== 200) return message;
        const { approvalId } = ApprovalMessageResponse.parse(message.body);
        return who.json(paths.approvalAction(approvalId), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      };
      // An admin may both propose and approve, but never what they proposed.
      const own = await signInStaff(t.app, t.db, t.authClock, { role: 'admin' });
      const ownProposal = await own.json(paths.contacts(), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Own desk',
          address: lowercaseAddress(),
          blockChain: 'ETHEREUM',
        }),
      });
      const ownId = Contact.parse(ownProposal.body).id ?? '';
      const ownMessage = await own.json(
        `${paths.approvalMessage()}${toQueryString({ entityId: ownId })}`,
      );
      const refused = await own.json(
        paths.approvalAction(ApprovalMessageResponse.parse(ownMessage.body).approvalId),
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"action":"approve"}',
        },
      );
      expect(ApiErrorBody.parse(refused.body).code).toBe('FOUR_EYES');

      const noReason = await decide(approver, { action: 'reject' });
      expect(noReason.status).toBe(400);
      const declined = await decide(approver, { action: 'reject', reason: 'Not our counterparty' });
      expect(declined.status, JSON.stringify(declined.body)).toBe(200);
      expect(Contact.parse((await approver.json(contactPath(id))).body).status).toBe('DECLINED');

      // A declined contact is final: never paid, never changed.
      const paid = await t.post(paths.transactions(), {
        category: 'TRANSFER',
        source: { type: 'VAULT', id: f.treasury.id },
        destination: { type: 'CONTACT', id },
        amount: '1',
        asset: 'USDC',
        blockChain: 'ETHEREUM',
      });
      expect(paid.status).toBe(400);
      expect(ApiErrorBody.parse(paid.body).code).toBe('CONTACT_NOT_APPROVED');
      const changed = await initiator.json(contactPath(id), {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ assetList: ['ETH'] }),
      });
      expect(ApiErrorBody.parse(changed.body).code).toBe('CONTACT_DECLINED');

      const history = ChangeRequestHistory.parse(
        (await approver.json(pathOf(contactHistory, { contactId: id }))).body,
      );
      expect(history.results).toMatchObject([
        {
          status: 'REJECTED',
          reason: 'Not our counterparty',
          proposedBy: { type: 'STAFF', name: initiator.member.name },
          decidedBy: { type: 'STAFF', name: approver.member.name },
        },
      ]);
      const audit = await own.json('/api/console/audit/?limit=100');
      const actions = (
        audit.body as { results: Array<{ action: string; entityId: string | null }> }
      ).results;
      expect(actions).toContainEqual(
        expect.objectContaining({ action: 'contact.create', entityId: id }),
      );
    },
  );

  engineTest(
    'an approved contact’s asset change waits in the inbox; until approved it receives only the old list',
    async ({ t, f }) => {
      const initiator = await signInStaff(t.app, t.db, t.authClock, { role: 'initiator' });
      const approver = await signInStaff(t.app, t.db, t.authClock, { role: 'approver' });
      const send = (who: typeof approver, method: string, url: string, body: unknown) =>
        who.json(url, {
          method,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const approve = async (id: string) => {
        const message = await approver.json(
          `${paths.approvalMessage()}${toQueryString({ entityId: id })}`,
        );
        expect(message.status, JSON.stringify(message.body)).toBe(200);
        const { approvalId } = ApprovalMessageResponse.parse(message.body);
        const res = await send(approver, 'POST', paths.approvalAction(approvalId), {
          action: 'approve',
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      };
      const created = await send(initiator, 'POST', paths.contacts(), {
        name: 'Edit desk',
        address: lowercaseAddress(),
        blockChain: 'ETHEREUM',
        assetList: ['ETH'],
      });
      const id = Contact.parse(created.body).id ?? '';
      // Waiting for its own approval: no change on top.
      const early = await send(initiator, 'PUT', contactPath(id), { assetList: ['USDC'] });
      expect(ApiErrorBody.parse(early.body).code).toBe('CHANGE_PENDING');
      await approve(id);

      const same = await send(initiator, 'PUT', contactPath(id), { assetList: ['ETH'] });
      expect(ApiErrorBody.parse(same.body).fields?.[0]?.field).toBe('assetList');
      const edit = await send(initiator, 'PUT', contactPath(id), { assetList: ['USDC'] });
      expect(edit.status, JSON.stringify(edit.body)).toBe(200);
      const again = await send(initiator, 'PUT', contactPath(id), { assetList: ['ETH', 'USDC'] });
      expect(ApiErrorBody.parse(again.body).code).toBe('CHANGE_PENDING');

      const inbox = ApprovalInboxResponse.parse(
        (await approver.json(`${pathOf(approvalInbox)}?limit=100`)).body,
      );
      const item = inbox.results.find((i) => i.kind === 'CONTACT' && i.id === id);
      expect(item?.kind === 'CONTACT' && item.contact.pendingAssetList).toEqual(['USDC']);

      const usdc = {
        category: 'TRANSFER',
        source: { type: 'VAULT', id: f.treasury.id },
        destination: { type: 'CONTACT', id },
        amount: '1',
        asset: 'USDC',
        blockChain: 'ETHEREUM',
      };
      const early2 = await t.post(paths.transactions(), usdc);
      expect(ApiErrorBody.parse(early2.body).code).toBe('ASSET_NOT_ALLOWED_FOR_CONTACT');
      await approve(id);
      expect((await t.post(paths.transactions(), usdc)).status).toBe(200);
    },
  );

  engineTest(
    'a member restricted to sub-organizations proposes in theirs and cannot see others’',
    async ({ t }) => {
      const mine = await createSubOrg(t.db, t.orgId);
      const theirs = await createSubOrg(t.db, t.orgId);
      const restricted = await signInStaff(t.app, t.db, t.authClock, {
        role: 'initiator',
        subOrgIds: [mine.id],
      });
      const other = await signInStaff(t.app, t.db, t.authClock, {
        role: 'initiator',
        subOrgIds: [theirs.id],
      });
      const propose = (who: typeof other) =>
        who.json(paths.contacts(), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            name: 'Scoped desk',
            address: lowercaseAddress(),
            blockChain: 'ETHEREUM',
          }),
        });
      const created = Contact.parse((await propose(restricted)).body);
      expect(created.subOrgId).toBe(mine.id);
      const seen = await other.json(contactPath(created.id ?? ''));
      expect(seen.status).toBe(404);
      const edited = await other.json(contactPath(created.id ?? ''), {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ assetList: ['ETH'] }),
      });
      expect(edited.status).toBe(404);
      const listed = ContactListResponse.parse(
        (await other.json(`${paths.contacts()}?limit=100`)).body,
      );
      expect(listed.results.map((c) => c.id)).not.toContain(created.id);
    },
  );
});
