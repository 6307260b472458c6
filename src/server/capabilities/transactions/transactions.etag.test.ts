import path from 'node:path';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { describe, expect } from 'vitest';
import { paths } from '#contract/paths.ts';
import { createApp } from '../../app.ts';
import { transactionStatusEvents, transactions } from '../../db/schema/sandbox.ts';
import { createSubOrg, createTransaction, createVault } from '../../test/fixtures.ts';
import { signInStaff } from '../../test/staff-session.ts';
import { appTest } from '../../test/app-test.ts';
import type { TestApp } from '../../test/test-app.ts';
import { createSandboxBackend } from '../../wiring/sandbox-backend.ts';

/**
 * Conditional GET of one transaction: the detail page polls with the ETag it
 * holds and an unchanged transaction answers 304 with no body.
 */

async function submittedTransaction(t: TestApp, subOrgId?: string) {
  const vault = await createVault(t.db, { orgId: t.orgId, ...(subOrgId ? { subOrgId } : {}) });
  return createTransaction(t.db, {
    orgId: t.orgId,
    vaultId: vault.id,
    status: 'SUBMITTED',
    ...(subOrgId ? { subOrgId } : {}),
  });
}

const get = (t: TestApp, id: string, init?: RequestInit) =>
  t.app.request(paths.transaction(id), init);
const ifNoneMatch = (etag: string): RequestInit => ({ headers: { 'If-None-Match': etag } });

describe('GET /api/external/transactions/{id}/ with If-None-Match', () => {
  appTest(
    'answers 200 with an ETag, then 304 with no body while nothing changed',
    async ({ t }) => {
      const tx = await submittedTransaction(t);
      const first = await get(t, tx.id);
      expect(first.status).toBe(200);
      const etag = first.headers.get('ETag');
      expect(etag).toMatch(/^W\/"[0-9a-f]+"$/);
      expect((await first.json()) as unknown).toMatchObject({ id: tx.id, status: 'SUBMITTED' });

      const again = await get(t, tx.id, ifNoneMatch(etag ?? ''));
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('ETag')).toBe(etag);
      // Still never kept by a shared or browser cache: the client revalidates on purpose.
      expect(again.headers.get('Cache-Control')).toBe('no-store');

      // A list of tags, or the strong form of the same tag, matches too (RFC 9110 weak comparison).
      expect((await get(t, tx.id, ifNoneMatch(`"other", ${etag ?? ''}`))).status).toBe(304);
      expect((await get(t, tx.id, ifNoneMatch((etag ?? '').replace(/^W\//, '')))).status).toBe(304);
    },
  );

  appTest('answers 200 with a new ETag once the transaction moved on', async ({ t }) => {
    const tx = await submittedTransaction(t);
    const etag = (await get(t, tx.id)).headers.get('ETag') ?? '';

    await t.db
      .update(transactions)
      .set({ status: 'WAITING_CONFIRMATION', updatedAt: new Date(Date.now() + 1000) })
      .where(eq(transactions.id, tx.id));
    await t.db
      .insert(transactionStatusEvents)
      .values({ transactionId: tx.id, status: 'WAITING_CONFIRMATION', at: new Date() });

    const changed = await get(t, tx.id, ifNoneMatch(etag));
    expect(changed.status).toBe(200);
    const next = changed.headers.get('ETag');
    expect(next).not.toBe(etag);
    const body = (await changed.json()) as { status: string; statusHistory: unknown[] };
    expect(body.status).toBe('WAITING_CONFIRMATION');
    expect(body.statusHistory).toHaveLength(2);
    expect((await get(t, tx.id, ifNoneMatch(next ?? ''))).status).toBe(304);
  });

  appTest('gives the same ETag from a second server over the same database', async ({ t }) => {
    const tx = await submittedTransaction(t);
    const etag = (await get(t, tx.id)).headers.get('ETag') ?? '';
    const second = createApp({
      config: { staticDir: path.join(process.cwd(), '.tmp', 'no-spa-here') },
      backend: createSandboxBackend({ db: t.db, orgId: t.orgId }),
      database: t.database,
      logger: pino({ level: 'silent' }),
      auth: { db: t.db, clock: t.clock, demoAccounts: false, trustProxy: false },
    });
    const member = await signInStaff(second, t.db, t.clock, { role: 'viewer' });
    const res = await member.request(paths.transaction(tx.id), ifNoneMatch(etag));
    expect(res.status).toBe(304);
  });

  appTest('never answers 304 to a member the transaction is out of scope for', async ({ t }) => {
    const subOrg = await createSubOrg(t.db, t.orgId, 'ETag scope');
    const other = await createSubOrg(t.db, t.orgId, 'ETag elsewhere');
    const tx = await submittedTransaction(t, subOrg.id);
    const etag = (await get(t, tx.id)).headers.get('ETag') ?? '';
    const outsider = await t.signIn('viewer', { subOrgIds: [other.id] });
    const res = await outsider.request(paths.transaction(tx.id), ifNoneMatch(etag));
    expect(res.status).toBe(404);
    expect(res.headers.get('ETag')).toBeNull();
  });

  appTest('answers an unknown id 404 whatever the If-None-Match', async ({ t }) => {
    const res = await get(t, 'no-such-transaction', ifNoneMatch('*'));
    expect(res.status).toBe(404);
  });
});
