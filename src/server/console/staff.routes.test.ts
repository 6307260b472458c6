import { describe, expect } from 'vitest';
import { AuditListResponse, StaffChangeAnswer, StaffListResponse } from '#contract/auth.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { getStaff } from '../auth/staff.store.ts';
import type {} from '../test/staff-session.ts';
import { appTestWith } from '../test/app-test.ts';
import type { TestApp } from '../test/test-app.ts';

/**
 * An admin restricted to some sub-organizations
 * administers only inside them (admin-scope.ts). Each refusal is checked,
 * and that an admin of every sub-organization is held to none of it.
 */

const appTest = appTestWith().extend('scoped', { scope: 'file' }, ({ t }) =>
  t.signIn('admin', { subOrgIds: ['so-a', 'so-b'] }),
);

const send = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

let counter = 0;
const newMember = (subOrgIds?: string[] | null) => {
  counter += 1;
  return {
    email: `member-${counter}@bank.test`,
    name: `Member ${counter}`,
    role: 'viewer',
    ...(subOrgIds === undefined ? {} : { subOrgIds }),
  };
};

/** A second unrestricted admin approves a staff proposal: the decision's status. */
async function approve(t: TestApp, proposalId: string): Promise<number> {
  const other = await t.signIn('admin');
  const res = await other.json(
    `/api/console/staff/proposals/${proposalId}/decision/`,
    send('POST', { action: 'approve' }),
  );
  return res.status;
}

function expectOutsideScope(res: { status: number; body: unknown }, field?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(403);
  const error = ApiErrorBody.parse(res.body);
  expect(error.code).toBe('OUTSIDE_ADMIN_SCOPE');
  if (field) expect(error.fields?.map((f) => f.field)).toEqual([field]);
}

describe('a sub-organization-restricted admin', () => {
  appTest('cannot lift, widen or change their own scope or role', async ({ t, scoped }) => {
    const own = `/api/console/staff/${scoped.member.id}/`;
    expectOutsideScope(await scoped.json(own, send('PATCH', { subOrgIds: null })), 'subOrgIds');
    expectOutsideScope(
      await scoped.json(own, send('PATCH', { subOrgIds: ['so-a', 'so-b', 'so-c'] })),
      'subOrgIds',
    );
    expectOutsideScope(await scoped.json(own, send('PATCH', { subOrgIds: ['so-a'] })), 'subOrgIds');
    expectOutsideScope(await scoped.json(own, send('PATCH', { role: 'admin' })), 'role');
    expect((await getStaff(t.db, scoped.member.id))?.subOrgIds).toEqual(['so-a', 'so-b']);
    // Their own name is theirs to change.
    const renamed = await scoped.json(own, send('PATCH', { name: 'Scoped Admin' }));
    expect(renamed).toMatchObject({
      status: 200,
      body: { outcome: 'applied', member: { name: 'Scoped Admin' } },
    });
  });

  appTest(
    'creates members only inside their scope, never unrestricted ones',
    async ({ scoped }) => {
      const url = '/api/console/staff/';
      expectOutsideScope(await scoped.json(url, send('POST', newMember(null))), 'subOrgIds');
      expectOutsideScope(await scoped.json(url, send('POST', newMember())), 'subOrgIds');
      expectOutsideScope(
        await scoped.json(url, send('POST', newMember(['so-a', 'so-c']))),
        'subOrgIds',
      );
      const created = await scoped.json(url, send('POST', newMember(['so-b'])));
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(StaffChangeAnswer.parse(created.body).member).toMatchObject({
        subOrgIds: ['so-b'],
        createdBy: scoped.member.id,
      });
    },
  );

  appTest('sees and changes only members whose scope lies within theirs', async ({ t, scoped }) => {
    const inside = await t.signIn('initiator', { subOrgIds: ['so-a'] });
    const wider = await t.signIn('initiator', { subOrgIds: ['so-a', 'so-c'] });
    const everywhere = await t.signIn('viewer');

    const list = StaffListResponse.parse((await scoped.json('/api/console/staff/')).body);
    const ids = list.results.map((m) => m.id);
    expect(ids).toContain(inside.member.id);
    expect(ids).toContain(scoped.member.id);
    expect(ids).not.toContain(wider.member.id);
    expect(ids).not.toContain(everywhere.member.id);
    expect(ids).not.toContain(t.admin.member.id);
    for (const member of list.results) expect(member.subOrgIds).not.toBeNull();

    // A member they cannot see is not theirs to change, disable or promote: as if absent.
    for (const other of [wider, everywhere, t.admin]) {
      const res = await scoped.json(
        `/api/console/staff/${other.member.id}/`,
        send('PATCH', { disabled: true }),
      );
      expect(res.status).toBe(404);
      expect((await getStaff(t.db, other.member.id))?.disabled).toBe(false);
    }

    // One inside: any role, and any scope within theirs, but never beyond it.
    const url = `/api/console/staff/${inside.member.id}/`;
    expectOutsideScope(await scoped.json(url, send('PATCH', { subOrgIds: null })), 'subOrgIds');
    expectOutsideScope(await scoped.json(url, send('PATCH', { subOrgIds: ['so-c'] })), 'subOrgIds');
    const changed = await scoped.json(
      url,
      send('PATCH', { role: 'approver', subOrgIds: ['so-a', 'so-b'] }),
    );
    // Approve rights and a wider scope wait for another admin.
    expect(changed).toMatchObject({ status: 200, body: { outcome: 'proposed' } });
    const proposal = StaffChangeAnswer.parse(changed.body).proposal!;
    expect(await approve(t, proposal.id)).toBe(200);
    expect(await getStaff(t.db, inside.member.id)).toMatchObject({
      role: 'approver',
      subOrgIds: ['so-a', 'so-b'],
    });
  });

  appTest('does not read the audit log', async ({ scoped }) => {
    const res = await scoped.json('/api/console/audit/');
    expectOutsideScope(res);
    expect(JSON.stringify(res.body)).not.toContain('results');
  });

  appTest('leaves each refusal on record under their name', async ({ t, scoped }) => {
    const res = await t.admin.json(
      `/api/console/audit/?actorId=${scoped.member.id}&outcome=denied&limit=100`,
    );
    const rows = AuditListResponse.parse(res.body).results;
    expect(rows.length).toBeGreaterThanOrEqual(7);
    expect(rows.map((r) => r.action)).toEqual(
      expect.arrayContaining(['staff.update', 'staff.create']),
    );
    expect(rows.every((r) => r.summary.startsWith('Refused'))).toBe(true);
  });
});

describe('an admin of every sub-organization', () => {
  appTest(
    'administers everyone, and each member records who created them',
    async ({ t, scoped }) => {
      const created = await t.admin.json('/api/console/staff/', send('POST', newMember(null)));
      expect(created.status).toBe(201);
      const member = StaffChangeAnswer.parse(created.body).member!;
      expect(member).toMatchObject({ subOrgIds: null, createdBy: t.admin.member.id });
      expect((await getStaff(t.db, member.id))?.createdBy).toBe(t.admin.member.id);

      const list = StaffListResponse.parse((await t.admin.json('/api/console/staff/')).body);
      expect(list.results.map((m) => m.id)).toEqual(
        expect.arrayContaining([member.id, scoped.member.id, t.admin.member.id]),
      );
      const widened = await t.admin.json(
        `/api/console/staff/${scoped.member.id}/`,
        send('PATCH', { subOrgIds: ['so-a', 'so-b', 'so-c'] }),
      );
      expect(widened).toMatchObject({ status: 200, body: { outcome: 'proposed' } });
      expect(await approve(t, StaffChangeAnswer.parse(widened.body).proposal!.id)).toBe(200);
      expect((await getStaff(t.db, scoped.member.id))?.subOrgIds).toEqual(['so-a', 'so-b', 'so-c']);
      expect((await t.admin.json('/api/console/audit/')).status).toBe(200);
    },
  );
});

describe('the staff list, for a team of hundreds', () => {
  appTest(
    'is searched by name or email, filtered by role and sub-organization, and paged',
    async ({ t }) => {
      const list = async (query: string) => {
        const res = await t.admin.json(`/api/console/staff/?${query}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return StaffListResponse.parse(res.body);
      };
      const make = async (body: object) => {
        const res = await t.admin.json('/api/console/staff/', send('POST', body));
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      };
      // A desk of its own: a name no other test's members carry.
      for (let i = 0; i < 5; i += 1)
        await make({ email: `ledger-${i}@desk.test`, name: `Lena Ledger ${i}`, role: 'viewer' });
      await make({
        email: 'ledger-held@desk.test',
        name: 'Lena Ledger held',
        role: 'initiator',
        subOrgIds: ['so-ledger'],
      });

      // By name or email, whatever the case.
      expect((await list('q=lena%20LEDGER&limit=100')).results).toHaveLength(6);
      expect((await list('q=ledger-3%40desk&limit=100')).results.map((m) => m.name)).toEqual([
        'Lena Ledger 3',
      ]);
      expect((await list('q=ledger&role=initiator')).results.map((m) => m.name)).toEqual([
        'Lena Ledger held',
      ]);
      // A sub-organization's members are those held to it and those of every sub-organization.
      const inDesk = await list('subOrgId=so-ledger&q=ledger');
      // Joined in the same instant of the test clock: their order is the ids'.
      expect(inDesk.results.map((m) => m.name).sort()).toEqual([
        'Lena Ledger 0',
        'Lena Ledger 1',
        'Lena Ledger 2',
        'Lena Ledger 3',
        'Lena Ledger 4',
        'Lena Ledger held',
      ]);
      expect(await list('subOrgId=so-elsewhere&q=held')).toMatchObject({ results: [] });

      // Pages of two, in the order they joined, each page after the last.
      const seen: string[] = [];
      let cursor = '';
      for (let pages = 1; ; pages += 1) {
        const page = await list(`q=ledger&limit=2&cursor=${encodeURIComponent(cursor)}`);
        seen.push(...page.results.map((m) => m.name));
        expect(page.results.length).toBeLessThanOrEqual(2);
        if (!page.hasNext) {
          expect(pages).toBe(3);
          expect(page.nextCursor).toBeNull();
          break;
        }
        cursor = page.nextCursor ?? '';
      }
      expect(seen).toEqual(inDesk.results.map((m) => m.name));
    },
  );

  appTest('refuses a filter it does not know how to read, naming it', async ({ t }) => {
    for (const [query, field, code] of [
      ['role=owner', 'role', 'INVALID_FILTER'],
      ['cursor=not-one-we-issued', 'cursor', 'INVALID_CURSOR'],
      [`q=${'x'.repeat(201)}`, 'q', 'INVALID_FILTER'],
    ] as const) {
      const res = await t.admin.json(`/api/console/staff/?${query}`);
      expect(res.status, query).toBe(400);
      const error = ApiErrorBody.parse(res.body);
      expect(error.code, query).toBe(code);
      expect(
        error.fields?.map((f) => f.field),
        query,
      ).toEqual([field]);
    }
  });
});
