import { sql, type SQLWrapper } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../db/client.ts';
import { apiUsers, bankAccounts, transactions } from '../../../db/schema/sandbox.ts';
import { createOrg, createSubOrg } from '../../../test/fixtures.ts';
import { createTestDatabase } from '../../../test/test-database.ts';
import type { PendingApprovalsQuery } from '../port.ts';
import { pageQueries, pendingApprovalCounts, pendingApprovalPage } from './pending.ts';

/**
 * The inbox's page reads as the database plans them, on a database that was
 * never analyzed (PGlite never is): each reads its index in order and stops
 * after the page, however many items wait. A plan that sorts reads every
 * waiting row first; a partial index of PENDING rows by sub-org once led
 * the planner there.
 */

const WAITING = 300;

let database: DatabaseHandle;
let orgId: string;
let subOrgIds: string[];
const now = Date.UTC(2030, 0, 1);

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  orgId = (await createOrg(db)).id;
  subOrgIds = [];
  for (const name of ['North', 'South', 'East'])
    subOrgIds.push((await createSubOrg(db, orgId, name)).id);
  const at = (i: number) => new Date(now - i * 1000);
  await db.insert(transactions).values(
    Array.from({ length: WAITING }, (_, i): typeof transactions.$inferInsert => ({
      id: `tx-${i}`,
      orgId,
      subOrgId: subOrgIds[i % 3] ?? null,
      status: i % 5 === 0 ? 'COMPLETED' : 'PENDING',
      category: 'TRANSFER',
      transactionType: 'OUTGOING',
      blockChain: 'ETHEREUM',
      createdById: i % 2 === 0 ? 'member-a' : 'member-b',
      createdAt: at(i),
      updatedAt: at(i),
    })),
  );
  await db.insert(bankAccounts).values(
    Array.from({ length: WAITING }, (_, i): typeof bankAccounts.$inferInsert => ({
      id: `ba-${i}`,
      orgId,
      subOrgId: subOrgIds[i % 3] ?? null,
      status: i % 5 === 0 ? 'APPROVED' : 'PENDING',
      createdById: i % 2 === 0 ? 'member-a' : 'member-b',
      paymentMethod: 'US_ACH',
      accountNumber: '123456789',
      accountName: 'Holder',
      bankName: 'Bank',
      country: 'US',
      createdAt: at(i + 0.5),
      updatedAt: at(i + 0.5),
    })),
  );
  // Every seventh pending transaction and bank account proposed by an API client.
  await db.insert(apiUsers).values({
    id: 'bot',
    orgId,
    name: 'Treasury bot',
    apiKey: 'bot-key',
    publicKey: 'bot-public-key',
    createdAt: new Date(now),
  });
  for (const table of [transactions, bankAccounts])
    await db
      .update(table)
      .set({ createdById: 'bot' })
      .where(sql`(regexp_replace(${table.id}, '^[a-z]+-', ''))::int % 7 = 0`);
  await db.update(transactions).set({
    createdByType: sql`case when ${transactions.createdById} = 'bot' then 'API_USER' else 'STAFF' end`,
  });
});
afterAll(() => database.close());

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

async function plan(query: SQLWrapper): Promise<PlanNode> {
  const result = (await database.db.execute(
    sql`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`,
  )) as unknown as { rows: Array<Record<string, unknown>> };
  const cell = Object.values(result.rows[0] ?? {})[0];
  const parsed = (typeof cell === 'string' ? JSON.parse(cell) : cell) as Array<{ Plan: PlanNode }>;
  const root = parsed[0]?.Plan;
  if (!root) throw new Error('no plan');
  return root;
}

function nodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodes)];
}

describe('the inbox page reads', () => {
  const position = {
    createdAt: new Date(now - 150_000),
    kind: 'TRANSACTION' as const,
    id: 'tx-150',
  };
  it.each<[string, () => PendingApprovalsQuery]>([
    ['the first page', () => ({ limit: 20 })],
    ['a page after a cursor', () => ({ limit: 20, after: position })],
    ['one sub-org', () => ({ limit: 20, subOrgId: subOrgIds[1] })],
    ['several sub-orgs, after a cursor', () => ({ limit: 5, subOrgIds, after: position })],
  ])('%s: an index in order, never a sort of every waiting row', async (_name, query) => {
    const q = query();
    for (const read of Object.values(pageQueries(database.db, orgId, q))) {
      const all = nodes(await plan(read));
      expect(all.map((n) => n['Node Type'])).not.toContain('Sort');
      const scan = all.find((n) => n['Node Type'].includes('Index'));
      expect(scan, JSON.stringify(all)).toBeDefined();
      // One page, give or take the rows of other sub-orgs passed over on the way.
      expect(scan?.['Actual Rows']).toBeLessThanOrEqual(
        q.subOrgId || q.subOrgIds ? 3 * (q.limit + 1) : q.limit + 1,
      );
    }
  });

  it('names who proposed each item of a page, read with it', async () => {
    const page = await pendingApprovalPage(database.db, orgId, { limit: 20 });
    const initiators = new Map(
      page.items.map((item) => [
        item.kind === 'TRANSACTION'
          ? item.transaction.id
          : item.kind === 'BANK_ACCOUNT'
            ? item.bankAccount.id
            : item.contact.id,
        item.initiator,
      ]),
    );
    expect(initiators.get('tx-1')).toEqual({ type: 'STAFF', id: 'member-b', name: null });
    expect(initiators.get('tx-7')).toEqual({ type: 'API_USER', id: 'bot', name: 'Treasury bot' });
    expect(initiators.get('ba-7')).toEqual({ type: 'API_USER', id: 'bot', name: 'Treasury bot' });
    // A bank account records no creator type: the console looks the id up among its members.
    expect(initiators.get('ba-2')).toBeNull();
  });

  it('counts the waiting items, and apart those a member did not propose', async () => {
    const pending = WAITING - WAITING / 5;
    expect(await pendingApprovalCounts(database.db, orgId, { limit: 1 })).toEqual({
      totalCount: 2 * pending,
      actionableCount: 2 * pending,
      youApprovedCount: 0,
    });
    const counts = await pendingApprovalCounts(database.db, orgId, {
      limit: 1,
      creatorId: 'member-a',
    });
    expect(counts.totalCount).toBe(2 * pending);
    // member-a made the even ones the API client did not (every seventh); the rest are theirs to decide.
    const byMemberA = Array.from({ length: WAITING }, (_, i) => i).filter(
      (i) => i % 5 !== 0 && i % 2 === 0 && i % 7 !== 0,
    ).length;
    expect(counts.actionableCount).toBe(2 * (pending - byMemberA));
  });
});
