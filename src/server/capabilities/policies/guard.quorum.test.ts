import fc from 'fast-check';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { ApprovalProgressList } from '#contract/approval-progress.ts';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { paths, toQueryString } from '#contract/paths.ts';
import { DEFAULT_POLICY, type Policy } from '#contract/policies.ts';
import { Transaction } from '#contract/transaction.ts';
import { ApiError } from '#contract/api-error.ts';
import type { App } from '../../app.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { assets } from '../../db/schema/sandbox.ts';
import { approvalRequirements } from '../../db/schema/console.ts';
import { changeRequests, transactions } from '../../db/schema/sandbox.ts';
import { assetRows } from '../../custody/sandbox/seed/reference-data.ts';
import { appTestWith } from '../../test/app-test.ts';
import { createContact, createVault } from '../../test/fixtures.ts';
import { publishPolicy } from '../../test/policies.ts';
import { secondServer } from '../../test/second-server.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import type { TestApp } from '../../test/test-app.ts';
import { tally } from './evaluate.ts';
import { decisionsOn, initiatorOf } from './votes.store.ts';

/**
 * A quorum decided by eight members at once over two servers sharing one
 * database (two pools on PostgreSQL; on PGlite one handle, two apps): every
 * member's approve, decline or repeat leaves together, spread over both
 * servers. Whatever the interleaving, what the console records for the item
 * is what the custody API did with it: the same outcome, decided by a member
 * the record counts, sent once, and no decision recorded after the one that
 * settled it.
 *
 * QUORUM_ITEMS sets how many items: by default 24 on PostgreSQL and 12 on
 * PGlite (one connection for both apps). Who counts, the tally and who may
 * send a settled item again are pure functions, proven over thousands of
 * generated records in evaluate.test.ts; what only a database shows is the
 * interleaving of the two servers' requests under the item's lock, which
 * these runs exercise (four rounds of six items on PostgreSQL).
 *
 * Beside it, the sends that fail: the custody backend stands behind `custody`,
 * which a test sets to fail the next decision as it likes.
 */

const ITEMS = Number(process.env['QUORUM_ITEMS'] ?? (process.env['DATABASE_URL'] ? 24 : 12));
/** Items decided side by side in one run. */
const BATCH = 6;
const MEMBERS = 8;

/** ETH is $3,000: 1 ETH needs three approvals, 0.01 ETH two. */
const quorum: Policy = {
  rules: [
    {
      id: 'big',
      name: 'Three approvers',
      match: { categories: ['TRANSFER'], amountUsdAtLeast: '1000' },
      outcome: {
        action: 'ALLOW',
        approvals: 3,
        approvers: { kinds: ['approver', 'admin'], memberIds: [] },
        apiClientMayApproveOwn: false,
      },
    },
    {
      id: 'small',
      name: 'Two approvers',
      match: { categories: ['TRANSFER'] },
      outcome: {
        action: 'ALLOW',
        approvals: 2,
        approvers: { kinds: ['approver', 'admin'], memberIds: [] },
        apiClientMayApproveOwn: false,
      },
    },
  ],
  fallback: DEFAULT_POLICY.fallback,
};

interface Bed {
  servers: [App, App];
  members: StaffSession[];
  vaultId: string;
  contactId: string;
}

/** How the custody backend's next decision fails: after it landed, or instead of it. */
const custody: { next: { landed: boolean; status: number } | null } = { next: null };

function failingNextDecision(backend: CustodyBackend): CustodyBackend {
  return {
    ...backend,
    async decideApproval(ctx, approvalId, request) {
      const failure = custody.next;
      custody.next = null;
      if (!failure) return backend.decideApproval(ctx, approvalId, request);
      if (failure.landed) await backend.decideApproval(ctx, approvalId, request);
      throw new ApiError(
        failure.status,
        failure.status === 409 ? 'ALREADY_DECIDED' : 'UPSTREAM_ERROR',
        'it failed',
      );
    },
  };
}

const quorumTest = appTestWith({ wrapBackend: failingNextDecision }).extend(
  'bed',
  { scope: 'file' },
  async ({ t }, { onCleanup }) => {
    const second = secondServer(t);
    onCleanup(() => second.close());
    await t.db.insert(assets).values(assetRows()).onConflictDoNothing();
    const vault = await createVault(t.db, { orgId: t.orgId, vaultName: 'Quorum' }, [
      { asset: 'ETH', chain: 'ETHEREUM', amount: '100000000' },
    ]);
    const contact = await createContact(t.db, { orgId: t.orgId, name: 'Payee', assetList: [] });
    const [editor, reviewer] = [await t.signIn('admin'), await t.signIn('admin')];
    await publishPolicy(t.db, 'transactions', quorum, { editor, reviewer, now: t.clock.now() });
    const members: StaffSession[] = [];
    for (let i = 0; i < MEMBERS; i++)
      members.push(await t.signIn(i % 3 === 0 ? 'admin' : 'approver'));
    return {
      servers: [t.app, second.app],
      members,
      vaultId: vault.id,
      contactId: contact.id,
    } as Bed;
  },
);

const decisionArb = fc.record({
  member: fc.integer({ min: 0, max: MEMBERS - 1 }),
  // Mostly approvals, as a quorum gathers them; a decline now and then.
  action: fc.constantFrom('approve', 'approve', 'approve', 'reject'),
  server: fc.constantFrom(0, 1),
});
const itemArb = fc.record({
  big: fc.boolean(),
  // Some members decide twice (a repeat), some not at all.
  decisions: fc.array(decisionArb, { minLength: 1, maxLength: 12 }),
});

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

describe('a quorum decided at once over two servers', () => {
  quorumTest(
    'leaves the record and the executed outcome in agreement for every item',
    { timeout: Math.max(600_000, ITEMS * 3_000) },
    async ({ t, bed }) => {
      let done = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(itemArb, { minLength: BATCH, maxLength: BATCH }),
          async (items) => {
            const ids = await Promise.all(
              items.map(async (item) => {
                const made = await t.getJson(
                  paths.transactions(),
                  post({
                    category: 'TRANSFER',
                    source: { type: 'VAULT', id: bed.vaultId },
                    destination: { type: 'CONTACT', id: bed.contactId },
                    amount: item.big ? '1' : '0.01',
                    asset: 'ETH',
                    blockChain: 'ETHEREUM',
                  }),
                );
                expect(made.status, JSON.stringify(made.body)).toBe(200);
                const id = Transaction.parse(made.body).id ?? '';
                const message = await t.getJson(`${paths.approvalMessage()}?entityId=${id}`);
                return { id, approvalId: ApprovalMessageResponse.parse(message.body).approvalId };
              }),
            );
            const answers = await Promise.all(
              items.flatMap((item, i) =>
                item.decisions.map(async ({ member, action, server }) => {
                  const by = bed.members[member] as StaffSession;
                  const res = await bed.servers[server].request(
                    paths.approvalAction(ids[i]?.approvalId ?? ''),
                    by.init(post({ action, ...(action === 'reject' ? { reason: 'no' } : {}) })),
                  );
                  return { status: res.status, body: await res.text() };
                }),
              ),
            );
            // Refusals are the decided item's 409; nothing fails.
            for (const answer of answers) expect([200, 409], answer.body).toContain(answer.status);

            const entityIds = ids.map((i) => i.id);
            const progress = ApprovalProgressList.parse(
              (
                await t.getJson(
                  `/api/console/approval_progress/${toQueryString({ entityIds: entityIds.join(',') })}`,
                )
              ).body,
            ).results;
            const statuses = new Map(
              (
                await t.db
                  .select({ id: transactions.id, status: transactions.status })
                  .from(transactions)
                  .where(inArray(transactions.id, entityIds))
              ).map((r) => [r.id, r.status]),
            );
            for (const id of entityIds) {
              const record = progress.find((p) => p.entityId === id);
              const status = statuses.get(id);
              const context = JSON.stringify({ id, record, status });
              expect(record?.state, context).toBe(status);
              const [request] = await t.db
                .select()
                .from(changeRequests)
                .where(eq(changeRequests.entityId, id));
              const [row] = await t.db
                .select()
                .from(approvalRequirements)
                .where(eq(approvalRequirements.entityId, id));
              if (!record || !row) throw new Error(`no record for ${id}`);
              if (record.state === 'PENDING') {
                expect(row.settled, context).toBeNull();
                continue;
              }
              // Settled, sent, and by one of the members the record counts.
              expect(row.settled, context).toBe(record.state);
              expect(row.sentAt, context).not.toBeNull();
              const deciders =
                record.state === 'APPROVED'
                  ? record.approvals.map((a) => a.id)
                  : [record.declinedBy?.id];
              expect(deciders, context).toContain(request?.decidedById);
              if (record.state === 'APPROVED')
                expect(record.approvals).toHaveLength(record.required);
              // The last decision recorded is the one that settled it: none after.
              const votes = await decisionsOn(t.db, id);
              const before = tally(row.requirement, initiatorOf(row), votes.slice(0, -1));
              expect(before.state, context).toBe('PENDING');
            }
            done += items.length;
          },
        ),
        { numRuns: Math.ceil(ITEMS / BATCH) },
      );
      expect(done).toBeGreaterThanOrEqual(ITEMS);
    },
  );

  /** A $30 transfer (two approvals) by the app's admin, with its approval id. */
  async function item(t: TestApp, bed: Bed) {
    const made = await t.getJson(
      paths.transactions(),
      post({
        category: 'TRANSFER',
        source: { type: 'VAULT', id: bed.vaultId },
        destination: { type: 'CONTACT', id: bed.contactId },
        amount: '0.01',
        asset: 'ETH',
        blockChain: 'ETHEREUM',
      }),
    );
    const id = Transaction.parse(made.body).id ?? '';
    const message = await t.getJson(`${paths.approvalMessage()}?entityId=${id}`);
    const { approvalId } = ApprovalMessageResponse.parse(message.body);
    const decide = async (member: number, action: 'approve' | 'reject') => {
      const by = bed.members[member] as StaffSession;
      const res = await by.json(
        paths.approvalAction(approvalId),
        post({ action, ...(action === 'reject' ? { reason: 'no' } : {}) }),
      );
      return { status: res.status, code: (res.body as { code?: string }).code };
    };
    const state = async () => {
      const progress = await t.getJson(`/api/console/approval_progress/?entityIds=${id}`);
      const [record] = ApprovalProgressList.parse(progress.body).results;
      const [tx] = await t.db
        .select({ status: transactions.status })
        .from(transactions)
        .where(eq(transactions.id, id));
      return { record: record?.state, approvals: record?.approvals.length, status: tx?.status };
    };
    return { id, decide, state };
  }

  quorumTest(
    'a send refused because the item is decided keeps the vote that made the quorum',
    async ({ t, bed }) => {
      const { decide, state } = await item(t, bed);
      expect(await decide(0, 'approve')).toMatchObject({ status: 200 });
      // The quorum's approval lands, but its answer is a 409 (an earlier send of it landed).
      custody.next = { landed: true, status: 409 };
      expect(await decide(1, 'approve')).toMatchObject({ status: 409 });
      expect(await state()).toEqual({ record: 'APPROVED', approvals: 2, status: 'APPROVED' });
      // A decline after it is neither recorded nor sent.
      expect(await decide(2, 'reject')).toMatchObject({ status: 409, code: 'ALREADY_DECIDED' });
      expect(await state()).toEqual({ record: 'APPROVED', approvals: 2, status: 'APPROVED' });
    },
  );

  quorumTest(
    'a send the custody backend refuses while the item waits takes that decision back',
    async ({ t, bed }) => {
      const { decide, state } = await item(t, bed);
      expect(await decide(0, 'approve')).toMatchObject({ status: 200 });
      custody.next = { landed: false, status: 400 };
      expect(await decide(1, 'approve')).toMatchObject({ status: 400 });
      expect(await state()).toEqual({ record: 'PENDING', approvals: 1, status: 'PENDING' });
      expect(await decide(2, 'approve')).toMatchObject({ status: 200 });
      expect(await state()).toEqual({ record: 'APPROVED', approvals: 2, status: 'APPROVED' });
    },
  );

  quorumTest(
    'a send lost on the way leaves the item settled, sent again only by its quorum',
    async ({ t, bed }) => {
      const { decide, state } = await item(t, bed);
      expect(await decide(0, 'approve')).toMatchObject({ status: 200 });
      custody.next = { landed: false, status: 503 };
      expect(await decide(1, 'approve')).toMatchObject({ status: 503 });
      expect(await state()).toMatchObject({ record: 'APPROVED', status: 'PENDING' });
      // Someone else's decision is not the quorum's: not recorded, and nothing is sent for it.
      expect(await decide(2, 'reject')).toMatchObject({ status: 409, code: 'ALREADY_DECIDED' });
      expect(await decide(2, 'approve')).toMatchObject({ status: 409, code: 'ALREADY_DECIDED' });
      expect(await state()).toMatchObject({ record: 'APPROVED', status: 'PENDING' });
      // The member whose approval settled it sends it again.
      expect(await decide(1, 'approve')).toMatchObject({ status: 200 });
      expect(await state()).toEqual({ record: 'APPROVED', approvals: 2, status: 'APPROVED' });
    },
  );
});
