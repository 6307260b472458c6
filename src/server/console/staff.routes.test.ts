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
