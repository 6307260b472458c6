import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { CSRF_HEADER } from '#contract/auth.ts';
import { pathOf } from '#contract/endpoint.ts';
import { revealBankAccount } from '#contract/endpoints/bank-accounts.ts';
import { auditLog } from '../../db/schema/console.ts';
import { createBankAccount, createSubOrg } from '../../test/fixtures.ts';
import type {} from '../../test/staff-session.ts';
import { appTestWith } from '../../test/app-test.ts';
import type { TestApp } from '../../test/test-app.ts';

/**
 * A reveal writes an audit row in the member's name, so
 * it is a mutation like any other: a POST with the session's CSRF token from
 * the console's own origin. A page on another port or a sibling subdomain
 * (same site, so the SameSite cookie goes along) reveals nothing and writes
 * no "Revealed" row.
 */

/** A bank account with a full number to reveal, in a sub-org of its own. */
async function accountToReveal(t: TestApp): Promise<string> {
  const subOrg = await createSubOrg(t.db, t.orgId);
  const account = await createBankAccount(t.db, {
    orgId: t.orgId,
    subOrgId: subOrg.id,
    accountNumber: '445566778899',
  });
  return account.id;
}

const appTest = appTestWith()
  .extend('accountId', { scope: 'file' }, ({ t }) => accountToReveal(t))
  .extend('member', { scope: 'file' }, ({ t }) => t.signIn('initiator'));

async function revealRows(t: TestApp, accountId: string) {
  return t.db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entityId, accountId),
        eq(auditLog.action, 'bank_account.reveal'),
        eq(auditLog.outcome, 'success'),
      ),
    );
}

describe('the reveal', () => {
  appTest(
    'is a POST with the CSRF token: the full numbers, audited',
    async ({ t, accountId, member }) => {
      const before = (await revealRows(t, accountId)).length;
      const res = await member.json(pathOf(revealBankAccount, { bankAccountId: accountId }), {
        method: 'POST',
      });
      expect(res).toMatchObject({ status: 200, body: { accountNumber: '445566778899' } });
      expect(await revealRows(t, accountId)).toHaveLength(before + 1);
    },
  );

  appTest(
    'is not a GET: the cookie alone reveals nothing and writes no row',
    async ({ t, accountId, member }) => {
      const before = (await revealRows(t, accountId)).length;
      const res = await t.anonymous(pathOf(revealBankAccount, { bankAccountId: accountId }), {
        headers: { cookie: member.cookie },
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(await res.text()).not.toContain('445566778899');
      expect(await revealRows(t, accountId)).toHaveLength(before);
    },
  );

  appTest(
    'is refused without the CSRF token or from another origin of the same site',
    async ({ t, accountId, member }) => {
      const before = (await revealRows(t, accountId)).length;
      const withoutToken = await t.anonymous(
        pathOf(revealBankAccount, { bankAccountId: accountId }),
        {
          method: 'POST',
          headers: { cookie: member.cookie, origin: 'http://localhost' },
        },
      );
      expect(withoutToken.status).toBe(403);
      expect(await withoutToken.json()).toMatchObject({ code: 'CSRF_REJECTED' });
      const sibling = await t.anonymous(pathOf(revealBankAccount, { bankAccountId: accountId }), {
        method: 'POST',
        headers: {
          cookie: member.cookie,
          [CSRF_HEADER]: member.csrfToken,
          origin: 'http://localhost:8081',
        },
      });
      expect(sibling.status).toBe(403);
      expect(await sibling.text()).not.toContain('445566778899');
      expect(await revealRows(t, accountId)).toHaveLength(before);
    },
  );
});
