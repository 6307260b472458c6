import { describe, expect } from 'vitest';
import { ApiError } from '#contract/api-error.ts';
import { paths } from '#contract/paths.ts';
import {
  createBankAccount,
  createOrg,
  createSubOrg,
  createTransaction,
  minutesAgo,
} from '../../test/fixtures.ts';
import { appTest } from '../../test/app-test.ts';
import type {} from '../../test/test-app.ts';
import { decodeCursor, encodeCursor } from './keyset.ts';

const position = { createdAt: new Date('2026-01-02T03:04:05.678Z'), id: 'tx-1' };

describe('keyset cursors', () => {
  appTest('round-trips a position, to the millisecond', () => {
    expect(decodeCursor('transactions', encodeCursor('transactions', position))).toEqual(position);
  });

  appTest('is URL-safe', () => {
    expect(encodeCursor('transactions', { ...position, id: 'a/b+c?d' })).toMatch(
      /^[A-Za-z0-9_.-]+$/,
    );
  });

  appTest.for([
    ['another list', encodeCursor('bank_accounts', position)],
    [
      'an edited body',
      encodeCursor('transactions', position).replace(/^./, (c) => (c === 'e' ? 'f' : 'e')),
    ],
    ['no digest', encodeCursor('transactions', position).split('.')[0] ?? ''],
    ['garbage', '!!!'],
    ['valid base64 of non-JSON', `${Buffer.from('hello').toString('base64url')}.xxxxxxxxxxxxxxxx`],
  ] as const)('refuses %s with INVALID_CURSOR', ([_label, cursor]) => {
    try {
      decodeCursor('transactions', cursor);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(400);
      expect((error as ApiError).code).toBe('INVALID_CURSOR');
    }
  });
});

// The digest has no key: anyone can make a cursor that decodes (docs/security.md). What
// one chooses is only where a page starts; the organization and scope come from the caller.
describe('a cursor made up by the caller', () => {
  appTest('moves where a page starts, never what a member may see', async ({ t }) => {
    const home = await createSubOrg(t.db, t.orgId, 'Forged home');
    const away = await createSubOrg(t.db, t.orgId, 'Forged away');
    const elsewhere = await createOrg(t.db, 'Another organization');
    const mine = await createTransaction(t.db, {
      orgId: t.orgId,
      subOrgId: home.id,
      createdAt: minutesAgo(3),
    });
    const notMine = await createTransaction(t.db, {
      orgId: t.orgId,
      subOrgId: away.id,
      createdAt: minutesAgo(2),
    });
    const foreign = await createTransaction(t.db, {
      orgId: elsewhere.id,
      createdAt: minutesAgo(1),
    });
    const foreignAccount = await createBankAccount(t.db, { orgId: elsewhere.id });
    const member = await t.signIn('viewer', { subOrgIds: [home.id] });

    const forged = (kind: 'transactions' | 'bank_accounts', id: string) =>
      encodeCursor(kind, { createdAt: new Date('9999-01-01T00:00:00.000Z'), id });
    const listed = await member.json(
      `${paths.transactions()}?limit=100&cursor=${forged('transactions', foreign.id)}`,
    );
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const ids = (listed.body as { results: Array<{ id: string }> }).results.map((r) => r.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(notMine.id);
    expect(ids).not.toContain(foreign.id);

    const accounts = await t.admin.json(
      `${paths.bankAccounts()}?limit=100&cursor=${forged('bank_accounts', foreignAccount.id)}`,
    );
    expect(accounts.status).toBe(200);
    expect(JSON.stringify(accounts.body)).not.toContain(foreignAccount.id);
  });
});
