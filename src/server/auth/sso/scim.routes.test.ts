import { desc, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { SESSION_COOKIE } from '#contract/auth.ts';
import { auditLog, staff } from '../../db/schema/console.ts';
import { appTestWith } from '../../test/app-test.ts';
import { saveSsoSettingsApproved } from '../../test/sso-settings.ts';
import type { TestApp } from '../../test/test-app.ts';
import { createSession } from '../session.store.ts';

// SCIM 2.0 with the requests of RFC 7644's own examples (§3.3, §3.5.1, §3.5.2), an
// email added where the example has none: a console member is known by their email.
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

const scimTest = appTestWith({}).extend('token', { scope: 'file' }, async ({ t, subOrgId }) => {
  // Mapping a group widens access: a second admin approves it.
  const settings = await saveSsoSettingsApproved(t, {
    enabled: false,
    label: 'Example',
    issuer: 'https://idp.example.com',
    clientId: 'console',
    clientSecret: 'not used by these tests',
    passwordSignIn: 'everyone',
    breakGlassEmail: null,
    groups: [
      { groupName: 'Tour Guides', role: 'approver', subOrgIds: null },
      { groupName: 'Desk Approvers', role: 'approver', subOrgIds: [subOrgId] },
      { groupName: 'Desk Admins', role: 'admin', subOrgIds: [subOrgId] },
    ],
  });
  expect(settings.groups).toHaveLength(3);
  const made = await t.admin.request('/api/console/sso/scim-tokens/', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Example IdP' }),
  });
  expect(made.status).toBe(201);
  return ((await made.json()) as { token: string }).token;
});

async function scim(
  t: TestApp,
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown>; type: string | null }> {
  const answer = await t.anonymous(`/scim/v2${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'Content-Type': 'application/scim+json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await answer.text();
  return {
    status: answer.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    type: answer.headers.get('content-type'),
  };
}

let n = 0;
/** RFC 7644 §3.3's create, with a work email. */
function bjensen() {
  n += 1;
  return {
    schemas: [USER],
    userName: `bjensen${n}@example.com`,
    externalId: `bjensen${n}`,
    name: { formatted: 'Ms. Barbara J Jensen III', familyName: 'Jensen', givenName: 'Barbara' },
    emails: [{ value: `bjensen${n}@example.com`, type: 'work', primary: true }],
  };
}

async function member(t: TestApp, id: string) {
  const [row] = await t.db.select().from(staff).where(eq(staff.id, id));
  return row;
}

async function lastAudit(t: TestApp) {
  const [row] = await t.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  return row;
}

describe('SCIM provisioning', () => {
  scimTest('a request without a valid token gets the protocol’s 401', async ({ t, token }) => {
    expect(token).toMatch(/^scim_/);
    for (const given of [null, 'scim_not-a-token']) {
      const refused = await scim(t, given, 'GET', '/Users');
      expect(refused.status).toBe(401);
      expect(refused.type).toContain('application/scim+json');
      expect(refused.body).toMatchObject({ schemas: [ERROR], status: '401' });
    }
  });

  scimTest(
    'a user is created, given a role by a mapped group, changed, and deactivated',
    async ({ t, token }) => {
      const created = await scim(t, token, 'POST', '/Users', bjensen());
      expect(created.status).toBe(201);
      const id = created.body['id'] as string;
      expect(created.body).toMatchObject({
        schemas: [USER],
        userName: `bjensen${n}@example.com`,
        externalId: `bjensen${n}`,
        active: true,
        meta: { resourceType: 'User' },
      });
      // In no mapped group yet: present, but no access.
      expect(await member(t, id)).toMatchObject({ provisionedBy: 'scim', disabled: true });
      expect(await lastAudit(t)).toMatchObject({
        action: 'scim.user.create',
        actorType: 'SCIM',
        entityId: id,
      });

      const group = await scim(t, token, 'POST', '/Groups', {
        schemas: [GROUP],
        displayName: 'Tour Guides',
        members: [{ value: id, display: 'Babs Jensen' }],
      });
      expect(group.status).toBe(201);
      expect(await member(t, id)).toMatchObject({ role: 'approver', disabled: false });

      // §3.5.2.3: replace without a path; an attribute the console does not keep is ignored.
      const patched = await scim(t, token, 'PATCH', `/Users/${id}`, {
        schemas: [PATCH],
        Operations: [{ op: 'replace', value: { displayName: 'Babs Jensen', nickName: 'Babs' } }],
      });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect(patched.body['displayName']).toBe('Babs Jensen');
      expect(patched.body['groups']).toEqual([
        expect.objectContaining({ value: group.body['id'], display: 'Tour Guides' }),
      ]);

      // §3.5.1: PUT replaces the user.
      const replaced = await scim(t, token, 'PUT', `/Users/${id}`, {
        schemas: [USER],
        id,
        userName: `bjensen${n}@example.com`,
        externalId: `bjensen${n}`,
        name: { formatted: 'Ms. Barbara J Jensen III', familyName: 'Jensen', givenName: 'Barbara' },
        emails: [{ value: `bjensen${n}@example.com`, type: 'work', primary: true }],
        active: true,
      });
      expect(replaced.status).toBe(200);
      expect((await member(t, id))?.name).toBe('Ms. Barbara J Jensen III');

      const { token: cookie } = await createSession(t.db, id, t.clock.now());
      const session = () =>
        t.anonymous('/auth/session', { headers: { cookie: `${SESSION_COOKIE}=${cookie}` } });
      expect((await session()).status).toBe(200);

      const off = await scim(t, token, 'PATCH', `/Users/${id}`, {
        schemas: [PATCH],
        Operations: [{ op: 'replace', path: 'active', value: false }],
      });
      expect(off.status).toBe(200);
      expect(off.body['active']).toBe(false);
      expect(await member(t, id)).toMatchObject({ disabled: true, scimActive: false });
      expect((await session()).status).toBe(401);
      expect(await lastAudit(t)).toMatchObject({ action: 'scim.user.deactivate', entityId: id });
    },
  );

  scimTest('group membership follows PATCH add, remove and DELETE', async ({ t, token }) => {
    const user = await scim(t, token, 'POST', '/Users', bjensen());
    const id = user.body['id'] as string;
    const group = await scim(t, token, 'POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'Night Desk',
    });
    const groupId = group.body['id'] as string;
    // Not mapped: membership alone grants nothing.
    // §3.5.2.1: add members.
    await scim(t, token, 'PATCH', `/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'members', value: [{ display: 'Babs Jensen', value: id }] }],
    });
    expect((await member(t, id))?.disabled).toBe(true);
    // Rename it to the mapped group: the member is let in as its role.
    await scim(t, token, 'PATCH', `/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'displayName', value: 'Tour Guides' }],
    }).then((r) => expect(r.status).toBe(409));
    const mapped = await scim(t, token, 'GET', '/Groups?filter=displayName eq "Tour Guides"');
    const mappedId = ((mapped.body['Resources'] as { id: string }[])[0] ?? { id: '' }).id;
    await scim(t, token, 'PATCH', `/Groups/${mappedId}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'members', value: [{ value: id }] }],
    });
    expect(await member(t, id)).toMatchObject({ disabled: false, role: 'approver' });
    // §3.5.2.2: remove one member by a value filter.
    const removed = await scim(t, token, 'PATCH', `/Groups/${mappedId}`, {
      schemas: [PATCH],
      Operations: [{ op: 'remove', path: `members[value eq "${id}"]` }],
    });
    expect(removed.status).toBe(200);
    expect((await member(t, id))?.disabled).toBe(true);
    expect(await lastAudit(t)).toMatchObject({ action: 'scim.group.update' });

    const gone = await scim(t, token, 'DELETE', `/Groups/${groupId}`);
    expect(gone.status).toBe(204);
    expect((await scim(t, token, 'GET', `/Groups/${groupId}`)).body).toMatchObject({
      schemas: [ERROR],
      status: '404',
      scimType: 'noTarget',
    });
  });

  scimTest(
    'a group holds its members to its role and sub-organizations; the highest role of their groups wins',
    async ({ t, token, subOrgId }) => {
      const id = (await scim(t, token, 'POST', '/Users', bjensen())).body['id'] as string;
      const group = async (displayName: string) => {
        const found = await scim(t, token, 'GET', `/Groups?filter=displayName eq "${displayName}"`);
        const existing = (found.body['Resources'] as { id: string }[])[0];
        if (existing) return existing.id;
        const made = await scim(t, token, 'POST', '/Groups', { schemas: [GROUP], displayName });
        return made.body['id'] as string;
      };
      const join = async (groupId: string, op: 'add' | 'remove') =>
        expect(
          (
            await scim(t, token, 'PATCH', `/Groups/${groupId}`, {
              schemas: [PATCH],
              Operations:
                op === 'add'
                  ? [{ op, path: 'members', value: [{ value: id }] }]
                  : [{ op, path: `members[value eq "${id}"]` }],
            })
          ).status,
        ).toBe(200);

      const desk = await group('Desk Approvers');
      await join(desk, 'add');
      expect(await member(t, id)).toMatchObject({
        disabled: false,
        role: 'approver',
        subOrgIds: [subOrgId],
      });
      // Also in a group of every sub-organization at that role: the wider scope holds.
      const everywhere = await group('Tour Guides');
      await join(everywhere, 'add');
      expect(await member(t, id)).toMatchObject({ role: 'approver', subOrgIds: null });
      // A higher role in one sub-organization: that role, held to it.
      const admins = await group('Desk Admins');
      await join(admins, 'add');
      expect(await member(t, id)).toMatchObject({ role: 'admin', subOrgIds: [subOrgId] });
      await join(admins, 'remove');
      await join(everywhere, 'remove');
      expect(await member(t, id)).toMatchObject({ role: 'approver', subOrgIds: [subOrgId] });
      expect(await lastAudit(t)).toMatchObject({ action: 'scim.group.update', actorType: 'SCIM' });
    },
  );

  scimTest(
    'the protocol’s errors: uniqueness, a bad filter, a bad path, no email',
    async ({ t, token }) => {
      const first = bjensen();
      expect((await scim(t, token, 'POST', '/Users', first)).status).toBe(201);
      expect(await scim(t, token, 'POST', '/Users', first)).toMatchObject({
        status: 409,
        body: { schemas: [ERROR], status: '409', scimType: 'uniqueness' },
      });
      const found = await scim(t, token, 'GET', `/Users?filter=userName eq "${first.userName}"`);
      expect(found.body).toMatchObject({ totalResults: 1, itemsPerPage: 1, startIndex: 1 });
      expect(await scim(t, token, 'GET', '/Users?filter=title pr')).toMatchObject({
        status: 400,
        body: { scimType: 'invalidFilter' },
      });
      const id = (found.body['Resources'] as { id: string }[])[0]?.id ?? '';
      expect(
        await scim(t, token, 'PATCH', `/Users/${id}`, {
          schemas: [PATCH],
          Operations: [{ op: 'replace', path: 'x509Certificates', value: [] }],
        }),
      ).toMatchObject({ status: 400, body: { scimType: 'invalidPath' } });
      // RFC 7644 §3.3's create exactly: no email to know the member by.
      expect(
        await scim(t, token, 'POST', '/Users', {
          schemas: [USER],
          userName: 'bjensen',
          externalId: 'bjensen',
          name: {
            formatted: 'Ms. Barbara J Jensen III',
            familyName: 'Jensen',
            givenName: 'Barbara',
          },
        }),
      ).toMatchObject({ status: 400, body: { scimType: 'invalidValue' } });
      // Members the console made itself are not the client's.
      expect((await scim(t, token, 'GET', `/Users/${t.admin.member.id}`)).status).toBe(404);
    },
  );

  scimTest('a revoked token is refused', async ({ t }) => {
    const made = await t.admin.request('/api/console/sso/scim-tokens/', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Short-lived' }),
    });
    const { id, token } = (await made.json()) as { id: string; token: string };
    expect((await scim(t, token, 'GET', '/Groups')).status).toBe(200);
    const revoked = await t.admin.request(`/api/console/sso/scim-tokens/${id}/`, {
      method: 'DELETE',
    });
    expect(revoked.status).toBe(200);
    expect((await scim(t, token, 'GET', '/Groups')).status).toBe(401);
    expect(await lastAudit(t)).toMatchObject({ action: 'sso.scim_token.revoke', entityId: id });
  });
});
