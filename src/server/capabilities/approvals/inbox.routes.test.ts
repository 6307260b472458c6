import { approvalInboxCount } from '#contract/endpoints/approval-counts.ts';
import { approvalInbox } from '#contract/endpoints/approvals.ts';
import { overview } from '#contract/endpoints/overview.ts';
import { pathOf } from '#contract/endpoint.ts';
import { OverviewResponse } from '#contract/overview.ts';
import { describe, expect } from 'vitest';
import { ApprovalInboxResponse } from '#contract/approval-inbox.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { assetRows } from '../../custody/sandbox/seed/reference-data.ts';
import { assets, transactions } from '../../db/schema/sandbox.ts';
import {
  createBankAccount,
  createSubOrg,
  createTransaction,
  createVault,
  minutesAgo,
} from '../../test/fixtures.ts';
import { appTestWith } from '../../test/app-test.ts';
import { decideAsStaff, proposeBankAccount } from '../../test/staff-approvals.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import type { TestApp } from '../../test/test-app.ts';

// The approvals inbox through the real app and database, twice: on the
// sandbox, which pages and counts in the database (pendingApprovals), and on
// the same backend without that method, as upstream lacks it, where the
// console pages the two custody lists itself. Each test works in sub-orgs of
// its own, so what it lists is only the rows it made.
const BACKENDS = [
  ['the sandbox (keyset reads and counts)', appTestWith()],
  [
    'a backend without pendingApprovals (as upstream)',
    appTestWith({ wrapBackend: (backend) => ({ ...backend, pendingApprovals: undefined }) }),
  ],
] as const;

async function desk(t: TestApp, name: string) {
  const subOrg = await createSubOrg(t.db, t.orgId, name);
  const vault = await createVault(t.db, { orgId: t.orgId, subOrgId: subOrg.id });
  return { subOrgId: subOrg.id, vaultId: vault.id };
}

async function pendingTransaction(
  t: TestApp,
  d: { subOrgId: string; vaultId: string },
  createdAt: Date,
  createdById = 'someone-else',
) {
  return createTransaction(t.db, {
    orgId: t.orgId,
    subOrgId: d.subOrgId,
    vaultId: d.vaultId,
    status: 'PENDING',
    createdAt,
    createdById,
  });
}

async function pendingAccount(
  t: TestApp,
  subOrgId: string,
  createdAt: Date,
  createdById = 'someone-else',
) {
  return createBankAccount(t.db, { orgId: t.orgId, subOrgId, createdAt, createdById });
}

/** `member` asks to move `amount` ETH between two vaults; the console's answer. */
function transfer(member: StaffSession, from: string, to: string, amount: string) {
  return member.json(paths.transactions(), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      category: 'TRANSFER',
      source: { type: 'VAULT', id: from },
      destination: { type: 'VAULT', id: to },
      amount,
      asset: 'ETH',
      blockChain: 'ETHEREUM',
    }),
  });
}

describe.each(BACKENDS)('GET /api/console/approvals/ on %s', (_name, appTest) => {
  async function inbox(member: StaffSession, query: string) {
    const res = await member.json(`${approvalInbox.path}?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return ApprovalInboxResponse.parse(res.body);
  }

  /** Every page of `query` at `limit`, following nextCursor. */
  async function walk(member: StaffSession, query: string, limit: number) {
    const seen: string[] = [];
    let cursor = '';
    for (let pages = 0; pages < 50; pages++) {
      const page = await inbox(member, `${query}${query && '&'}limit=${limit}&cursor=${cursor}`);
      seen.push(...page.results.map((i) => i.id));
      if (!page.hasNext) return seen;
      cursor = page.nextCursor ?? '';
    }
    throw new Error('more than 50 pages');
  }

  appTest(
    'lists pending transactions and bank accounts together, newest first, numbers masked',
    async ({ t }) => {
      const d = await desk(t, 'Inbox desk');
      const now = new Date();
      const oldTx = await pendingTransaction(t, d, minutesAgo(4, now));
      const account = await pendingAccount(t, d.subOrgId, minutesAgo(3, now));
      const newTx = await pendingTransaction(t, d, minutesAgo(1, now));
      // Decided or in flight: not waiting for anyone.
      await createTransaction(t.db, { orgId: t.orgId, subOrgId: d.subOrgId, status: 'APPROVED' });
      await createBankAccount(t.db, { orgId: t.orgId, subOrgId: d.subOrgId, status: 'APPROVED' });

      const approver = await t.signIn('approver');
      const body = await inbox(approver, `subOrgId=${d.subOrgId}`);
      expect(body.results.map((i) => [i.kind, i.id])).toEqual([
        ['TRANSACTION', newTx.id],
        ['BANK_ACCOUNT', account.id],
        ['TRANSACTION', oldTx.id],
      ]);
      expect(body).toMatchObject({ totalCount: 3, actionableCount: 3, hasNext: false });
      const listed = body.results[1];
      expect(listed?.kind === 'BANK_ACCOUNT' && listed.bankAccount.accountNumber).toBe('•••• 6789');
      expect(JSON.stringify(body)).not.toContain('123456789');
    },
  );

  appTest(
    'names who proposed each item, the vault a transaction spends from, and its USD value',
    async ({ t }) => {
      await t.db.insert(assets).values(assetRows()).onConflictDoNothing();
      const subOrg = await createSubOrg(t.db, t.orgId, 'Named desk');
      const hot = await createVault(
        t.db,
        { orgId: t.orgId, subOrgId: subOrg.id, vaultName: 'Hot wallet' },
        [{ asset: 'ETH', chain: 'ETHEREUM', amount: '10' }],
      );
      const cold = await createVault(t.db, {
        orgId: t.orgId,
        subOrgId: subOrg.id,
        vaultName: 'Cold store',
      });
      const proposer = await t.signIn('initiator', { name: 'Ivy Proposer' });
      const proposed = await transfer(proposer, hot.id, cold.id, '0.5');
      expect(proposed.status, JSON.stringify(proposed.body)).toBe(200);
      const accountId = await proposeBankAccount(proposer, subOrg.id, {
        accountName: 'Named LLC',
        accountNumber: '555000999',
      });
      // Made below the API: a member's id is all that names its proposer, or nobody's.
      const member = await t.signIn('initiator', { name: 'Otto Older' });
      const older = await pendingTransaction(
        t,
        { subOrgId: subOrg.id, vaultId: hot.id },
        minutesAgo(5),
        member.member.id,
      );
      const stranger = await pendingAccount(t, subOrg.id, minutesAgo(6), 'not-a-member');

      const approver = await t.signIn('approver');
      const body = await inbox(approver, `subOrgId=${subOrg.id}`);
      const byId = new Map(body.results.map((item) => [item.id, item]));
      const proposedBy = { type: 'STAFF', id: proposer.member.id, name: 'Ivy Proposer' };
      const tx = byId.get((proposed.body as { id: string }).id);
      expect(tx).toMatchObject({
        kind: 'TRANSACTION',
        initiator: proposedBy,
        vault: { id: hot.id, name: 'Hot wallet' },
        yours: false,
      });
      // The custody API's own USD value, exact, as a decimal string.
      expect(tx?.kind === 'TRANSACTION' && tx.transaction.amountInUSD).toMatch(
        /^[1-9]\d*(\.\d+)?$/,
      );
      expect(byId.get(accountId)).toMatchObject({
        kind: 'BANK_ACCOUNT',
        initiator: proposedBy,
      });
      expect(byId.get(older.id)).toMatchObject({
        initiator: { type: 'STAFF', id: member.member.id, name: 'Otto Older' },
        vault: { id: hot.id },
      });
      expect(byId.get(stranger.id)).toMatchObject({ initiator: null, createdById: 'not-a-member' });

      // The proposer's own items are theirs, whichever record names them.
      const admin = await t.signIn('admin', { name: 'Ada Admin' });
      const own = await transfer(admin, hot.id, cold.id, '0.25');
      expect(own.status, JSON.stringify(own.body)).toBe(200);
      const adminView = await inbox(admin, `subOrgId=${subOrg.id}`);
      expect(adminView.results.find((i) => i.id === (own.body as { id: string }).id)).toMatchObject(
        {
          yours: true,
          initiator: { type: 'STAFF', id: admin.member.id, name: 'Ada Admin' },
        },
      );
      expect(adminView).toMatchObject({ totalCount: 5, actionableCount: 4 });
    },
  );

  appTest("marks the member's own items and leaves them out of the count", async ({ t }) => {
    const d = await desk(t, 'Own items desk');
    const admin = await t.signIn('admin');
    const mine = await pendingTransaction(t, d, minutesAgo(2), admin.member.id);
    const minedAccount = await pendingAccount(t, d.subOrgId, minutesAgo(1), admin.member.id);
    const theirs = await pendingTransaction(t, d, minutesAgo(3));

    const body = await inbox(admin, `subOrgId=${d.subOrgId}`);
    const yours = Object.fromEntries(body.results.map((i) => [i.id, i.yours]));
    expect(yours).toEqual({ [mine.id]: true, [minedAccount.id]: true, [theirs.id]: false });
    expect(body).toMatchObject({ totalCount: 3, actionableCount: 1 });

    // Another member sees the same items as theirs to decide.
    const approver = await t.signIn('approver');
    expect(await inbox(approver, `subOrgId=${d.subOrgId}`)).toMatchObject({ actionableCount: 3 });

    // The badge's read: the same counts, without the rows.
    for (const [member, actionableCount] of [
      [admin, 1],
      [approver, 3],
    ] as const) {
      const counts = await member.json(`${approvalInboxCount.path}?subOrgId=${d.subOrgId}`);
      expect(counts.body).toEqual({ actionableCount, totalCount: 3, youApprovedCount: 0 });
    }
  });

  appTest(
    "the overview's waiting figure is the inbox's: its counts and its oldest item not the member's",
    async ({ t }) => {
      const d = await desk(t, 'Waiting desk');
      const admin = await t.signIn('admin');
      const now = new Date();
      // The oldest is the admin's own: not theirs to decide, so not what waits on them.
      await pendingTransaction(t, d, minutesAgo(9, now), admin.member.id);
      await pendingAccount(t, d.subOrgId, minutesAgo(7, now));
      await pendingTransaction(t, d, minutesAgo(5, now));
      await pendingAccount(t, d.subOrgId, minutesAgo(3, now), admin.member.id);

      const approver = await t.signIn('approver');
      for (const [member, oldest] of [
        [admin, minutesAgo(7, now)],
        [approver, minutesAgo(9, now)],
      ] as const) {
        const res = await member.json(`${pathOf(overview)}?subOrgId=${d.subOrgId}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const { waiting } = OverviewResponse.parse(res.body);
        const counts = await member.json(`${approvalInboxCount.path}?subOrgId=${d.subOrgId}`);
        const { actionableCount, totalCount } = counts.body as {
          actionableCount: number;
          totalCount: number;
        };
        // The inbox's own items, every page: its oldest that the member did not propose.
        const items = (await inbox(member, `subOrgId=${d.subOrgId}&limit=100`)).results;
        const notTheirs = items.filter((item) => !item.yours);
        expect(waiting).toEqual({
          actionableCount,
          totalCount,
          oldestAt: notTheirs.at(-1)?.createdAt,
        });
        expect(waiting?.totalCount).toBe(4);
        expect(waiting?.oldestAt).toBe(oldest.toISOString());
      }
    },
  );

  appTest('pages with its own cursor: every item once, in order, across pages', async ({ t }) => {
    const d = await desk(t, 'Paging desk');
    const now = new Date();
    const made: string[] = [];
    // Equal times on purpose: the order must still be total.
    for (let i = 0; i < 3; i++) made.push((await pendingTransaction(t, d, minutesAgo(i, now))).id);
    for (let i = 0; i < 3; i++)
      made.push((await pendingAccount(t, d.subOrgId, minutesAgo(i, now))).id);

    const approver = await t.signIn('approver');
    const all = await inbox(approver, `subOrgId=${d.subOrgId}&limit=100`);
    const seen: string[] = [];
    let cursor = '';
    for (let pages = 0; pages < 10; pages++) {
      const page = await inbox(approver, `subOrgId=${d.subOrgId}&limit=4&cursor=${cursor}`);
      seen.push(...page.results.map((i) => i.id));
      expect(page.totalCount).toBe(6);
      if (!page.hasNext) break;
      cursor = page.nextCursor ?? '';
    }
    expect(seen).toEqual(all.results.map((i) => i.id));
    expect([...seen].sort()).toEqual([...made].sort());
  });

  appTest(
    'refuses a cursor it did not issue and a limit out of range, naming the field',
    async ({ t }) => {
      const approver = await t.signIn('approver');
      for (const [query, code, field] of [
        ['cursor=bm9wZQ', 'INVALID_CURSOR', 'cursor'],
        ['cursor=%5B1%2C2%5D', 'INVALID_CURSOR', 'cursor'],
        ['limit=0', 'INVALID_LIMIT', 'limit'],
        ['limit=101', 'INVALID_LIMIT', 'limit'],
      ] as const) {
        const res = await approver.json(`${approvalInbox.path}?${query}`);
        expect(res.status, query).toBe(400);
        const body = ApiErrorBody.parse(res.body);
        expect(body.code, query).toBe(code);
        expect(body.message, query).toContain(field);
      }
    },
  );

  appTest(
    'is for the roles that decide: viewers and initiators are refused, strangers asked to sign in',
    async ({ t }) => {
      for (const role of ['viewer', 'initiator'] as const) {
        const member = await t.signIn(role);
        const res = await member.json(approvalInbox.path);
        expect(res.status, role).toBe(403);
        expect(ApiErrorBody.parse(res.body).message).toContain('approvals inbox');
      }
      const res = await t.anonymous(approvalInbox.path);
      expect(res.status).toBe(401);
    },
  );

  appTest('holds a restricted approver to their sub-orgs', async ({ t }) => {
    const home = await desk(t, 'Home desk');
    const away = await desk(t, 'Away desk');
    const inside = await pendingAccount(t, home.subOrgId, minutesAgo(1));
    const outside = await pendingAccount(t, away.subOrgId, minutesAgo(1));
    const approver = await t.signIn('approver', { subOrgIds: [home.subOrgId] });

    const ids = (await inbox(approver, 'limit=100')).results.map((i) => i.id);
    expect(ids).toContain(inside.id);
    expect(ids).not.toContain(outside.id);
    const res = await approver.json(`${approvalInbox.path}?subOrgId=${away.subOrgId}`);
    expect(res.status).toBe(404);
  });

  appTest('drops an item once it is decided', async ({ t }) => {
    const d = await desk(t, 'Decided desk');
    const initiator = await t.signIn('initiator');
    const approver = await t.signIn('approver');
    const id = await proposeBankAccount(initiator, d.subOrgId, {
      accountName: 'Inbox LLC',
      accountNumber: '555000111',
    });
    const before = await inbox(approver, `subOrgId=${d.subOrgId}`);
    expect(before.results.map((i) => i.id)).toEqual([id]);
    expect(before.actionableCount).toBe(1);

    await decideAsStaff(approver, id, 'approve');

    expect(await inbox(approver, `subOrgId=${d.subOrgId}`)).toMatchObject({
      results: [],
      actionableCount: 0,
      totalCount: 0,
    });
  });

  appTest(
    'keeps one total order across kinds at the same instant and across pages of any size',
    async ({ t }) => {
      const d = await desk(t, 'Tie desk');
      const now = new Date();
      const made: string[] = [];
      // A transaction and a bank account at each instant: a transaction comes first.
      for (let i = 0; i < 4; i++) {
        made.push((await pendingTransaction(t, d, minutesAgo(i, now))).id);
        made.push((await pendingAccount(t, d.subOrgId, minutesAgo(i, now))).id);
      }
      const approver = await t.signIn('approver');
      const all = await inbox(approver, `subOrgId=${d.subOrgId}&limit=100`);
      expect(all.results.map((i) => i.id)).toEqual(made);
      for (const limit of [1, 2, 3, 5])
        expect(await walk(approver, `subOrgId=${d.subOrgId}`, limit), `limit ${limit}`).toEqual(
          made,
        );
    },
  );

  appTest('pages rows of one kind at the same instant, every one once', async ({ t }) => {
    const d = await desk(t, 'Same instant desk');
    const at = minutesAgo(1);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await pendingTransaction(t, d, at)).id);
    for (let i = 0; i < 3; i++) made.push((await pendingAccount(t, d.subOrgId, at)).id);
    const approver = await t.signIn('approver');
    const seen = await walk(approver, `subOrgId=${d.subOrgId}`, 2);
    expect(seen).toHaveLength(6);
    expect([...seen].sort()).toEqual([...made].sort());
  });

  appTest('counts for a member of several sub-orgs only what lies in them', async ({ t }) => {
    const one = await desk(t, 'First of two');
    const two = await desk(t, 'Second of two');
    const other = await desk(t, 'Not theirs');
    await pendingTransaction(t, one, minutesAgo(3));
    await pendingAccount(t, two.subOrgId, minutesAgo(2));
    await pendingTransaction(t, other, minutesAgo(1));
    await pendingAccount(t, other.subOrgId, minutesAgo(1));
    const approver = await t.signIn('approver', { subOrgIds: [one.subOrgId, two.subOrgId] });
    expect(await inbox(approver, 'limit=1')).toMatchObject({
      totalCount: 2,
      actionableCount: 2,
      hasNext: true,
    });
    expect(await walk(approver, '', 1)).toHaveLength(2);
  });

  appTest('refuses a cursor naming an unknown kind or a time no row can have', async ({ t }) => {
    const approver = await t.signIn('approver');
    const cursor = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url');
    for (const key of [
      [Date.now(), 'VAULT', 'x'],
      [8.64e15, 'TRANSACTION', 'x'],
      [-8.64e15, 'BANK_ACCOUNT', 'x'],
      [1.5, 'TRANSACTION', 'x'],
    ]) {
      const res = await approver.json(`${approvalInbox.path}?cursor=${cursor(key)}`);
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(ApiErrorBody.parse(res.body).code).toBe('INVALID_CURSOR');
    }
  });
});

/** Rows the backend's list and pending reads returned, summed: one app's, for the test below. */
let rowsRead = 0;
const appTestCountingRows = appTestWith({
  wrapBackend: (backend) => ({
    ...backend,
    listTransactions: async (ctx, q) => {
      const page = await backend.listTransactions(ctx, q);
      rowsRead += page.results.length;
      return page;
    },
    listBankAccounts: async (ctx, q) => {
      const page = await backend.listBankAccounts(ctx, q);
      rowsRead += page.results.length;
      return page;
    },
    ...(backend.pendingApprovals && {
      pendingApprovals: async (ctx, q) => {
        const found = await backend.pendingApprovals!(ctx, q);
        rowsRead += found.items.length;
        return found;
      },
    }),
  }),
});

describe('the approvals inbox on the sandbox', () => {
  appTestCountingRows(
    'reads one page of rows for a page, one for its count and none for the badge, however many items wait',
    async ({ t }) => {
      rowsRead = 0;
      const now = Date.now();
      await t.db.insert(transactions).values(
        Array.from({ length: 250 }, (_, i): typeof transactions.$inferInsert => ({
          id: `pending-${String(i).padStart(3, '0')}`,
          orgId: t.orgId,
          status: 'PENDING',
          category: 'TRANSFER',
          transactionType: 'OUTGOING',
          blockChain: 'ETHEREUM',
          createdById: 'someone-else',
          createdAt: new Date(now - i * 1000),
          updatedAt: new Date(now - i * 1000),
        })),
      );
      await createBankAccount(t.db, { orgId: t.orgId, createdAt: new Date(now - 500) });
      const approver = await t.signIn('approver');

      const count = await approver.json(`${approvalInbox.path}?limit=1`);
      expect(ApprovalInboxResponse.parse(count.body)).toMatchObject({
        totalCount: 251,
        actionableCount: 251,
      });
      expect(rowsRead).toBe(1);

      // The badge's count, asked by every page: no row read at all.
      rowsRead = 0;
      const badge = await approver.json(pathOf(approvalInboxCount));
      expect(badge.body).toEqual({ totalCount: 251, actionableCount: 251, youApprovedCount: 0 });
      expect(rowsRead).toBe(0);

      rowsRead = 0;
      const page = ApprovalInboxResponse.parse(
        (await approver.json(`${approvalInbox.path}?limit=20`)).body,
      );
      expect(page.results.map((i) => i.kind).slice(0, 3)).toEqual([
        'TRANSACTION',
        'BANK_ACCOUNT',
        'TRANSACTION',
      ]);
      expect(rowsRead).toBe(20);
      const next = ApprovalInboxResponse.parse(
        (await approver.json(`${approvalInbox.path}?limit=20&cursor=${page.nextCursor}`)).body,
      );
      expect(next.results[0]?.id).toBe('pending-019');
    },
  );
});
