import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { AuditListResponse } from '#contract/auth.ts';
import { paths, toQueryString } from '#contract/paths.ts';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import type { Transaction } from '#contract/transaction.ts';
import { auditLog, staff } from '../db/schema/console.ts';
import { transactions, usedTokenIds } from '../db/schema/sandbox.ts';
import {
  createBankAccount,
  createSubOrg,
  createTransaction,
  createVault,
  minutesAgo,
} from '../test/fixtures.ts';
import type { StaffSession } from '../test/staff-session.ts';
import { twoConsolesTest, type TwoConsoles } from '../test/two-consoles.ts';

// Console A (upstream mode) on console B (sandbox) over real HTTP: what staff
// see through A is what B holds, and A's own rules hold on top.
const sub: Record<'east' | 'west' | 'north', string> = { east: '', west: '', north: '' };
const upstreamTest = twoConsolesTest({}, async (t) => {
  const orgId = t.b.orgId;
  for (const name of ['east', 'west', 'north'] as const) {
    sub[name] = (await createSubOrg(t.b.db, orgId, `Sub ${name}`)).id;
  }
  // 25 transactions spread over the sub-orgs, for paging and scope.
  for (let i = 0; i < 25; i += 1) {
    const subOrgId = [sub.east, sub.west, sub.north][i % 3];
    await createTransaction(t.b.db, {
      orgId,
      subOrgId,
      createdAt: minutesAgo(100 - i),
      status: i % 2 ? 'COMPLETED' : 'FAILED',
      asset: i % 4 ? 'ETH' : 'USDC',
    });
  }
  for (const [i, subOrgId] of [sub.east, sub.west, sub.north].entries()) {
    await createVault(t.b.db, { orgId, subOrgId, vaultName: `Vault ${i}` });
    await createBankAccount(t.b.db, {
      orgId,
      subOrgId,
      accountNumber: `55500011${i}`,
      status: 'APPROVED',
    });
  }
});

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

type ListBody<T = Record<string, unknown>> = {
  results: T[];
  nextCursor: string | null;
  hasNext: boolean;
};

/** Every page of a list through A, following cursors. */
async function allPages(
  as: StaffSession,
  path: string,
  query: Record<string, string | number> = {},
) {
  const rows: Array<Record<string, unknown>> = [];
  let cursor: string | undefined;
  for (let n = 0; n < 50; n += 1) {
    const res = await as.json(`${path}${toQueryString({ ...query, cursor })}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const page = res.body as ListBody;
    rows.push(...page.results);
    if (!page.hasNext) return rows;
    cursor = page.nextCursor ?? undefined;
  }
  throw new Error('paging did not end');
}

async function fromB(t: TwoConsoles, url: string) {
  const res = await t.b.get(url);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown;
}

// The two consoles and their rows are made before the first test, under the
// set-up limit: made by the first test that named them, they took most of its
// 60 s on a loaded machine, and the requests of the test that timed out went
// on into the next one's count of recorded tokens.
upstreamTest.beforeAll(async ({ t: _t, admin: _admin }) => {});

describe('reads through A equal what B holds', () => {
  upstreamTest('lists and pages every resource, with filters', async ({ t, admin }) => {
    for (const [path, query] of [
      [paths.transactions(), { limit: 7 }],
      [paths.transactions(), { limit: 5, status: 'FAILED' }],
      [paths.transactions(), { limit: 4, asset: 'USDC', subOrgId: sub.west }],
      [paths.bankAccounts(), { limit: 2 }],
      [paths.bankAccounts(), { limit: 2, status: 'APPROVED' }],
      [paths.vaults(), { limit: 2 }],
      [paths.vaults(), { limit: 2, vaultName: 'Vault 1' }],
      [paths.contacts(), { limit: 3 }],
      [paths.subOrgs(), { limit: 2 }],
    ] as const) {
      const throughA = await allPages(admin, path, query);
      const { limit: _limit, ...filters } = query as Record<string, string | number>;
      const inB = (await fromB(
        t,
        `${path}${toQueryString({ ...filters, limit: 100 })}`,
      )) as ListBody;
      expect(throughA, `${path} ${JSON.stringify(query)}`).toEqual(inB.results);
      expect(throughA.length).toBeGreaterThan(0);
    }
  });

  upstreamTest('gets each kind of entity, and the reference data', async ({ t, admin }) => {
    const [tx] = ((await fromB(t, `${paths.transactions()}?limit=1`)) as ListBody).results;
    const [account] = ((await fromB(t, `${paths.bankAccounts()}?limit=1`)) as ListBody).results;
    for (const url of [
      paths.transaction(String(tx?.id)),
      paths.bankAccount(String(account?.id)),
      paths.vault(t.fixture.treasury.id),
      paths.vaultBalances(t.fixture.treasury.id),
      paths.assets(),
      paths.supportedChains(),
    ]) {
      const res = await admin.json(url);
      expect(res.status, url).toBe(200);
      expect(res.body, url).toEqual(await fromB(t, url));
    }
    const missing = await admin.json(paths.transaction('no-such-transaction'));
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'NOT_FOUND' });
  });

  upstreamTest(
    'signs every request with a fresh token that B verified and recorded',
    async ({ t, admin }) => {
      const before = await t.b.db
        .select()
        .from(usedTokenIds)
        .where(eq(usedTokenIds.apiUserId, t.apiUser.id));
      await admin.json(paths.assets());
      await admin.json(`${paths.transactions()}?limit=3&status=COMPLETED`);
      const after = await t.b.db
        .select()
        .from(usedTokenIds)
        .where(eq(usedTokenIds.apiUserId, t.apiUser.id));
      expect(after.length).toBe(before.length + 2);
      expect(new Set(after.map((r) => r.jti)).size).toBe(after.length);
    },
  );
});

describe('creates, estimates, replacement and decisions through A', () => {
  const vault = (id: string) => ({ type: 'VAULT', id });
  const contact = (id: string) => ({ type: 'CONTACT', id });

  upstreamTest(
    'creates each category; B holds exactly what A answered',
    async ({ t, initiator }) => {
      const f = t.fixture;
      const bodies = [
        {
          category: 'TRANSFER',
          source: vault(f.treasury.id),
          destination: contact(f.contacts.eth.id),
          amount: '0.25',
          asset: 'ETH',
          blockChain: 'ETHEREUM',
          externalId: `a-transfer-${Date.now()}`,
        },
        {
          category: 'CONTRACT_CALL',
          vaultId: f.treasury.id,
          blockChain: 'ETHEREUM',
          data: { callData: '0xa9059cbb00', toAddress: '0xabc' },
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
          destination: contact(f.contacts.tron.id),
          asset: 'TRX',
          blockChain: 'TRON',
          amount: '500',
          resourceType: 'TRON_BANDWIDTH',
        },
      ];
      for (const body of bodies) {
        const res = await initiator.json(paths.transactions(), post(body));
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const created = res.body as Transaction;
        expect(created).toMatchObject({ category: body.category, status: 'PENDING' });
        // Every create A sends carries an externalId, the caller's or one A made.
        expect(created.externalId).toEqual(body.externalId ?? expect.stringMatching(/^console-/));
        // B's get adds detail (status history, links); the create answer is the rest of it.
        expect(await fromB(t, paths.transaction(String(created.id)))).toMatchObject(created);
        // A's get answers what B's does, status history included.
        expect((await initiator.json(paths.transaction(String(created.id)))).body).toEqual(
          await fromB(t, paths.transaction(String(created.id))),
        );
      }
      // B's own rules reach the member unchanged: a 4xx keeps its status and code.
      const refused = await initiator.json(
        paths.transactions(),
        post({ ...bodies[0], externalId: bodies[0]?.externalId }),
      );
      expect(refused).toMatchObject({ status: 400, body: { code: 'DUPLICATE_EXTERNAL_ID' } });
    },
  );

  upstreamTest('estimates a fee as B does', async ({ t, initiator }) => {
    const body = {
      category: 'TRANSFER',
      source: vault(t.fixture.treasury.id),
      destination: contact(t.fixture.contacts.eth.id),
      amount: '0.1',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
    };
    const res = await initiator.json(paths.estimateFee(), post(body));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual((await t.b.post(paths.estimateFee(), body)).body);
  });

  upstreamTest(
    'holds members to four-eyes, signs the decision with the API key, audits it under the member',
    async ({ t, admin, initiator, approver }) => {
      const res = await initiator.json(
        paths.bankAccounts(),
        post({
          paymentMethod: 'US_ACH',
          accountName: 'Upstream Payee LLC',
          accountNumber: '000123456789',
          routingNumber: '021000021',
          bankName: 'Bank',
          country: 'US',
        }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const account = res.body as { id: string; accountNumber: string };
      expect(account.accountNumber).toBe('•••• 6789');

      // Roles are A's: an initiator may not even read the approval message.
      const refused = await initiator.json(`${paths.approvalMessage()}?entityId=${account.id}`);
      expect(refused).toMatchObject({ status: 403, body: { code: 'FORBIDDEN_ROLE' } });
      const adminSession = await t.signIn('admin');
      const message = await adminSession.json(`${paths.approvalMessage()}?entityId=${account.id}`);
      expect(message.status, JSON.stringify(message.body)).toBe(200);
      const { approvalId } = ApprovalMessageResponse.parse(message.body);
      // An admin who created nothing here may; the creator, even as admin, may not.
      const creatorAdmin = await t.signIn('admin');
      const theirs = await creatorAdmin.json(
        paths.bankAccounts(),
        post({
          paymentMethod: 'US_ACH',
          accountName: 'Own Payee LLC',
          accountNumber: '000123450000',
          routingNumber: '021000021',
          bankName: 'Bank',
          country: 'US',
        }),
      );
      const theirId = (theirs.body as { id: string }).id;
      const theirMessage = ApprovalMessageResponse.parse(
        (await creatorAdmin.json(`${paths.approvalMessage()}?entityId=${theirId}`)).body,
      );
      const selfDecision = await creatorAdmin.json(
        paths.approvalAction(theirMessage.approvalId),
        post({ action: 'approve' }),
      );
      expect(selfDecision).toMatchObject({ status: 403, body: { code: 'FOUR_EYES' } });
      expect((await fromB(t, paths.bankAccount(theirId))) as object).toMatchObject({
        status: 'PENDING',
      });

      const decided = await adminSession.json(
        paths.approvalAction(approvalId),
        post({ action: 'approve' }),
      );
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      expect(decided.body).toMatchObject({
        success: true,
        status: 'APPROVED',
        entityId: account.id,
      });
      expect((await fromB(t, paths.bankAccount(account.id))) as object).toMatchObject({
        status: 'APPROVED',
      });

      const rejected = await approver.json(
        paths.approvalAction(theirMessage.approvalId),
        post({ action: 'reject', reason: 'not ours' }),
      );
      expect(rejected.body).toMatchObject({ status: 'REJECTED' });
      expect((await fromB(t, paths.bankAccount(theirId))) as object).toMatchObject({
        status: 'DECLINED',
      });

      const audit = AuditListResponse.parse(
        (await admin.json('/api/console/audit/?limit=50')).body,
      );
      const entry = audit.results.find(
        (e) => e.action === 'change_request.approve' && e.entityId === account.id,
      );
      expect(entry, JSON.stringify(audit.results.slice(0, 5))).toMatchObject({
        actorType: 'STAFF',
        actorId: adminSession.member.id,
        outcome: 'success',
      });
    },
  );

  upstreamTest(
    'replaces a stuck transaction; another member decides the replacement',
    async ({ t, initiator, approver }) => {
      t.b.clock.set('2030-01-03T10:01:00.000Z');
      const created = await initiator.json(
        paths.transactions(),
        post({
          category: 'TRANSFER',
          source: vault(t.fixture.treasury.id),
          destination: contact(t.fixture.contacts.eth.id),
          amount: '0.1',
          asset: 'ETH',
          blockChain: 'ETHEREUM',
          gasParams: { feeTier: 'LOW' },
        }),
      );
      const id = String((created.body as Transaction).id);
      // Approved on B's own clock, so the fee tier keeps it on the chain long enough to replace.
      expect(await t.b.approve(id)).toBe(true);
      await t.b.run(60_000);
      expect(await t.b.status(id)).toBe('SUBMITTED');

      const replaced = await initiator.json(
        paths.replaceTransaction(),
        post({ transactionId: id }),
      );
      expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
      const replacement = replaced.body as Transaction;
      expect(await fromB(t, paths.transaction(String(replacement.id)))).toMatchObject(replacement);
      const again = await initiator.json(paths.replaceTransaction(), post({ transactionId: id }));
      expect(again).toMatchObject({ status: 400, body: { code: 'REPLACEMENT_EXISTS' } });

      // The replacement is the initiator's: an approver decides it, through A, signed by A.
      const replacementMessage = ApprovalMessageResponse.parse(
        (await approver.json(`${paths.approvalMessage()}?entityId=${String(replacement.id)}`)).body,
      );
      const decision = await approver.json(
        paths.approvalAction(replacementMessage.approvalId),
        post({ action: 'reject', reason: 'not needed after all' }),
      );
      expect(decision.body).toMatchObject({ success: true, status: 'REJECTED' });
      expect(await t.b.status(String(replacement.id))).toBe('DECLINED');
    },
  );
});

describe('a ramp has no replacement through A either', () => {
  upstreamTest(
    'A refuses to replace a SUBMITTED off-ramp with CATEGORY_NOT_REPLACEABLE and sends nothing to B',
    async ({ t, initiator }) => {
      t.b.clock.set('2030-01-03T10:01:00.000Z');
      const created = await initiator.json(
        paths.transactions(),
        post({
          category: 'TRANSFER',
          source: { type: 'VAULT', id: t.fixture.treasury.id },
          destination: { type: 'CONTACT', id: t.fixture.contacts.eth.id },
          amount: '0.01',
          asset: 'ETH',
          blockChain: 'ETHEREUM',
          gasParams: { feeTier: 'LOW' },
          memo: 'held back [simulate:stuck]',
        }),
      );
      const id = String((created.body as Transaction).id);
      expect(await t.b.approve(id)).toBe(true);
      await t.b.run(60_000);
      expect(await t.b.status(id)).toBe('SUBMITTED');
      // As B records an off-ramp (the provider's operation is beside the point here).
      await t.b.db
        .update(transactions)
        .set({ category: 'OFF_RAMP', subCategory: 'OFF_RAMP' })
        .where(eq(transactions.id, id));

      const sent: string[] = [];
      t.intercept = (send, input, init) => {
        const url = String(input instanceof Request ? input.url : input);
        if (url.includes(paths.replaceTransaction())) sent.push(url);
        return send(input, init);
      };
      try {
        const res = await initiator.json(paths.replaceTransaction(), post({ transactionId: id }));
        expect(res).toMatchObject({
          status: 400,
          body: { code: 'CATEGORY_NOT_REPLACEABLE', fields: [{ field: 'transactionId' }] },
        });
      } finally {
        t.intercept = null;
      }
      expect(sent).toEqual([]);
      const replacements = await t.b.db
        .select({ id: transactions.id })
        .from(transactions)
        .where(eq(transactions.replacesTransactionId, id));
      expect(replacements).toEqual([]);
    },
  );
});

describe('second accounts through A', () => {
  upstreamTest(
    'flags a decision on a bank account whose proposer the decider created',
    async ({ t, admin }) => {
      const proposer = await t.signIn('initiator');
      // As if the admin had added the proposer through the staff page.
      await t.aDatabase.db
        .update(staff)
        .set({ createdBy: admin.member.id })
        .where(eq(staff.id, proposer.member.id));
      const created = await proposer.json(
        paths.bankAccounts(),
        post({
          paymentMethod: 'US_ACH',
          accountName: 'Linked Through A',
          accountNumber: '778899001122',
          routingNumber: '021000021',
          bankName: 'Bank',
          country: 'US',
        }),
      );
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const id = String((created.body as { id: string }).id);
      const { approvalId } = ApprovalMessageResponse.parse(
        (await admin.json(`${paths.approvalMessage()}?entityId=${id}`)).body,
      );
      expect(
        await admin.json(paths.approvalAction(approvalId), post({ action: 'approve' })),
      ).toMatchObject({ status: 200 });
      const flags = await t.aDatabase.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'change_request.linked_accounts'));
      expect(flags).toContainEqual(
        expect.objectContaining({
          entityId: id,
          actorId: admin.member.id,
          entityType: 'BANK_ACCOUNT',
        }),
      );
      const decisions = await proposer.json(`/api/console/approval_decisions/?entityIds=${id}`);
      expect(decisions.body).toMatchObject({
        results: [{ decidedBy: { id: admin.member.id }, linkedAccounts: true }],
      });
    },
  );
});

describe('scope through A', () => {
  upstreamTest(
    'a restricted member sees only their sub-orgs on lists, gets and approvals',
    async ({ t, admin }) => {
      const east = await t.signIn('approver', { subOrgIds: [sub.east] });
      const two = await t.signIn('viewer', { subOrgIds: [sub.east, sub.west] });
      for (const [member, allowed] of [
        [east, [sub.east]],
        [two, [sub.east, sub.west]],
      ] as const) {
        for (const path of [paths.transactions(), paths.bankAccounts(), paths.vaults()]) {
          const rows = await allPages(member, path, { limit: 4 });
          expect(rows.length, path).toBeGreaterThan(0);
          expect(
            rows.every((r) => (allowed as readonly string[]).includes(String(r.subOrgId))),
            path,
          ).toBe(true);
          const all = (await fromB(t, `${path}?limit=100`)) as ListBody;
          expect(rows.map((r) => r.id)).toEqual(
            all.results
              .filter((r) => (allowed as readonly string[]).includes(String(r.subOrgId)))
              .map((r) => r.id),
          );
        }
      }
      const outside = (
        (await fromB(t, `${paths.transactions()}?subOrgId=${sub.north}&limit=1`)) as ListBody
      ).results[0];
      expect((await east.json(paths.transaction(String(outside?.id)))).status).toBe(404);
      expect((await east.json(`${paths.transactions()}?subOrgId=${sub.north}`)).status).toBe(404);

      const northAccount = await createBankAccount(t.b.db, {
        orgId: t.b.orgId,
        subOrgId: sub.north,
        accountNumber: '777000111',
      });
      const creator = await t.signIn('initiator');
      const proposal = await creator.json(
        paths.bankAccounts(),
        post({
          paymentMethod: 'US_ACH',
          subOrgId: sub.north,
          accountName: 'North Payee',
          accountNumber: '000999888777',
          routingNumber: '021000021',
          bankName: 'Bank',
          country: 'US',
        }),
      );
      const id = (proposal.body as { id: string }).id;
      expect((await east.json(`${paths.approvalMessage()}?entityId=${id}`)).status).toBe(404);
      const { approvalId } = ApprovalMessageResponse.parse(
        (await admin.json(`${paths.approvalMessage()}?entityId=${id}`)).body,
      );
      expect(
        (await east.json(paths.approvalAction(approvalId), post({ action: 'approve' }))).status,
      ).toBe(404);
      expect((await fromB(t, paths.bankAccount(id))) as object).toMatchObject({
        status: 'PENDING',
      });
      expect((await east.json(paths.bankAccount(northAccount.id))).status).toBe(404);
    },
  );
});
