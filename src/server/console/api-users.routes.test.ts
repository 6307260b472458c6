import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import type { ApiUserInfo, ApiUserKeyIssued, CreateApiUser } from '#contract/api-users.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { pathOf } from '#contract/endpoint.ts';
import {
  createApiUser,
  listApiUsers,
  revokeApiUser,
  rotateApiUserKey,
} from '#contract/endpoints/api-users.ts';
import { paths } from '#contract/paths.ts';
import { auditLog } from '../db/schema/console.ts';
import { apiUsers } from '../db/schema/sandbox.ts';
import type { CustodyBackend } from '../custody/backend.ts';
import { appFixture, appTestWith } from '../test/app-test.ts';
import { signedInit, type TestApiUser } from '../test/api-client.ts';
import { createSubOrg } from '../test/fixtures.ts';
import type { StaffSession } from '../test/staff-session.ts';
import type { TestApp } from '../test/test-app.ts';

/**
 * API users made, rotated and revoked by admins in the console: the private
 * key is in the create or rotate answer only, each change is audited, a key
 * is held to its scope, an admin of some sub-organizations manages only API
 * users within them, and upstream the routes are 409.
 */
const withoutApiUsers = (backend: CustodyBackend): CustodyBackend => ({
  ...backend,
  apiClients: undefined,
});
const appTest = appTestWith().extend(
  'upstream',
  { scope: 'file' },
  appFixture({ wrapBackend: withoutApiUsers }),
);

const valid = (over: Partial<CreateApiUser> = {}): CreateApiUser => ({
  name: 'Treasury bot',
  scope: 'read_only',
  subOrgIds: null,
  allowedCidrs: null,
  expiresAt: null,
  ...over,
});

async function post(as: StaffSession, url: string, body: unknown) {
  return as.json(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The key the answer carries, as a client's SDK would hold it. */
function clientOf(t: TestApp, issued: ApiUserKeyIssued): TestApiUser {
  return {
    id: issued.apiUser.id,
    orgId: t.orgId,
    name: issued.apiUser.name,
    apiKey: issued.apiKey,
    subOrgIds: issued.apiUser.subOrgIds,
    privateKeyHex: issued.privateKeyHex,
    clock: t.authClock,
  };
}

async function call(
  t: TestApp,
  user: TestApiUser,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
) {
  const res = await t.app.request(url, signedInit(user, method, url, body));
  return { status: res.status, body: (await res.json()) as unknown };
}

const codeOf = (body: unknown) => ApiErrorBody.parse(body).code;
const fieldsOf = (body: unknown) => ApiErrorBody.parse(body).fields?.map((f) => f.field) ?? [];

async function auditRows(t: TestApp, action: string, entityId: string) {
  return t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, entityId)));
}

describe('API users in the console', () => {
  appTest(
    'an admin makes a read-only key: shown once, audited, stored as a public key only, held to reads',
    async ({ t }) => {
      const made = await post(t.admin, pathOf(createApiUser, {}), valid());
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const issued = made.body as ApiUserKeyIssued;
      expect(issued.privateKeyHex).toMatch(/^[0-9a-f]{64,}$/);
      expect(issued.apiUser).toMatchObject({
        name: 'Treasury bot',
        scope: 'read_only',
        status: 'active',
        createdBy: { id: t.admin.member.id, name: t.admin.member.name },
        lastUsedAt: null,
      });

      // Never readable again: not in the list, not in the database, not in the audit log.
      const list = await t.admin.json(pathOf(listApiUsers, {}));
      expect(JSON.stringify(list.body)).not.toContain(issued.privateKeyHex);
      const [stored] = await t.db.select().from(apiUsers).where(eq(apiUsers.id, issued.apiUser.id));
      expect(JSON.stringify(stored)).not.toContain(issued.privateKeyHex);
      const [row] = await auditRows(t, 'api_user.create', issued.apiUser.id);
      expect(row).toMatchObject({ outcome: 'success', actorId: t.admin.member.id });
      expect(row?.summary).toContain('read only');
      expect(JSON.stringify(row)).not.toContain(issued.privateKeyHex);

      const client = clientOf(t, issued);
      expect((await call(t, client, 'GET', paths.vaults())).status).toBe(200);
      const write = await call(t, client, 'POST', paths.transactions(), {
        category: 'TRANSFER',
      });
      expect(write.status, JSON.stringify(write.body)).toBe(403);
      expect(codeOf(write.body)).toBe('OUTSIDE_API_USER_SCOPE');

      const listed = (await t.admin.json(pathOf(listApiUsers, {}))).body as {
        results: ApiUserInfo[];
      };
      const mine = listed.results.find((u) => u.id === issued.apiUser.id);
      expect(mine?.lastUsedAt).toBe(t.authClock.now().toISOString());
    },
  );

  appTest('each bad field is a 400 naming it and the rule', async ({ t }) => {
    const past = new Date(t.authClock.now().getTime() - 1000).toISOString();
    const cases: Array<[Partial<CreateApiUser> | Record<string, unknown>, string]> = [
      [{ name: '  ' }, 'name'],
      [{ scope: 'everything' }, 'scope'],
      [{ allowedCidrs: ['10.0.0.0/33'] }, 'allowedCidrs.0'],
      [{ allowedCidrs: ['not a network'] }, 'allowedCidrs.0'],
      [{ allowedCidrs: [] }, 'allowedCidrs'],
      [{ expiresAt: past }, 'expiresAt'],
      [{ subOrgIds: ['no-such-sub-org'] }, 'subOrgIds'],
    ];
    for (const [over, field] of cases) {
      const res = await post(t.admin, pathOf(createApiUser, {}), { ...valid(), ...over });
      const detail = `${JSON.stringify(over)}: ${JSON.stringify(res.body)}`;
      expect(res.status, detail).toBe(400);
      expect(fieldsOf(res.body), detail).toContain(field);
    }
    const network = await post(t.admin, pathOf(createApiUser, {}), {
      ...valid(),
      allowedCidrs: ['10.0.0.0/33'],
    });
    expect(JSON.stringify(network.body)).toContain('IPv4 or IPv6 network');
  });

  appTest(
    'rotating refuses the old key at once and answers the new one; revoking refuses it, 401, the row kept',
    async ({ t }) => {
      const issued = (
        await post(
          t.admin,
          pathOf(createApiUser, {}),
          valid({ name: 'Rotated bot', scope: 'create' }),
        )
      ).body as ApiUserKeyIssued;
      const old = clientOf(t, issued);
      expect((await call(t, old, 'GET', paths.vaults())).status).toBe(200);

      const rotateUrl = pathOf(rotateApiUserKey, { apiUserId: issued.apiUser.id });
      const rotated = await post(t.admin, rotateUrl, {});
      expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
      const fresh = rotated.body as ApiUserKeyIssued;
      expect(fresh.apiUser.id).toBe(issued.apiUser.id);
      expect(fresh.privateKeyHex).not.toBe(issued.privateKeyHex);
      expect(fresh.apiUser.rotatedAt).not.toBeNull();
      const refused = await call(t, old, 'GET', paths.vaults());
      expect(refused.status).toBe(401);
      const client = clientOf(t, fresh);
      expect((await call(t, client, 'GET', paths.vaults())).status).toBe(200);
      // Create, not approve: an approval's message is not its to read.
      const approving = await call(t, client, 'GET', `${paths.approvalMessage()}?entityId=x`);
      expect(approving.status, JSON.stringify(approving.body)).toBe(403);
      expect(codeOf(approving.body)).toBe('OUTSIDE_API_USER_SCOPE');
      expect(await auditRows(t, 'api_user.rotate', issued.apiUser.id)).toHaveLength(1);

      const revokeUrl = pathOf(revokeApiUser, { apiUserId: issued.apiUser.id });
      const revoked = await post(t.admin, revokeUrl, undefined);
      expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
      expect(revoked.body).toMatchObject({ status: 'revoked' });
      const after = await call(t, client, 'GET', paths.vaults());
      expect(after.status).toBe(401);
      expect(codeOf(after.body)).toBe('API_KEY_REVOKED');
      expect(await auditRows(t, 'api_user.revoke', issued.apiUser.id)).toHaveLength(1);

      const again = await post(t.admin, revokeUrl, undefined);
      expect(again.status).toBe(409);
      expect((await post(t.admin, rotateUrl, {})).status).toBe(409);
      const listed = (await t.admin.json(pathOf(listApiUsers, {}))).body as {
        results: ApiUserInfo[];
      };
      expect(listed.results.find((u) => u.id === issued.apiUser.id)?.status).toBe('revoked');
    },
  );

  appTest(
    'rotating a key with an expiry keeps that expiry: the new key is refused once it passes',
    async ({ t }) => {
      const inAWeek = new Date(t.authClock.now().getTime() + 7 * 24 * 3600_000).toISOString();
      const issued = (
        await post(
          t.admin,
          pathOf(createApiUser, {}),
          valid({ name: 'Weekly bot', expiresAt: inAWeek }),
        )
      ).body as ApiUserKeyIssued;
      const rotated = await post(
        t.admin,
        pathOf(rotateApiUserKey, { apiUserId: issued.apiUser.id }),
        {},
      );
      expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
      const fresh = rotated.body as ApiUserKeyIssued;
      expect(fresh.apiUser.expiresAt).toBe(inAWeek);
      const listed = (await t.admin.json(pathOf(listApiUsers, {}))).body as {
        results: ApiUserInfo[];
      };
      expect(listed.results.find((u) => u.id === issued.apiUser.id)?.expiresAt).toBe(inAWeek);

      const client = clientOf(t, fresh);
      expect((await call(t, client, 'GET', paths.vaults())).status).toBe(200);
      t.authClock.advance(7 * 24 * 3600_000 + 1_000);
      expect((await call(t, client, 'GET', paths.vaults())).status).toBe(401);
    },
  );

  appTest('an expired key is rotated with a new expiry, never the passed one', async ({ t }) => {
    const soon = new Date(t.authClock.now().getTime() + 60_000).toISOString();
    const issued = (
      await post(
        t.admin,
        pathOf(createApiUser, {}),
        valid({ name: 'Expiring bot', expiresAt: soon }),
      )
    ).body as ApiUserKeyIssued;
    t.authClock.advance(61_000);
    const rotateUrl = pathOf(rotateApiUserKey, { apiUserId: issued.apiUser.id });
    const kept = await post(t.admin, rotateUrl, {});
    expect(kept.status).toBe(400);
    expect(fieldsOf(kept.body)).toEqual(['expiresAt']);
    const renewed = await post(t.admin, rotateUrl, { expiresAt: null });
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    expect(renewed.body).toMatchObject({ apiUser: { expiresAt: null, status: 'active' } });
  });

  appTest(
    'an admin of some sub-organizations grants no more than they hold and sees only API users within them',
    async ({ t }) => {
      const mine = await createSubOrg(t.db, t.orgId, 'Desk A');
      const theirs = await createSubOrg(t.db, t.orgId, 'Desk B');
      const restricted = await t.signIn('admin', { subOrgIds: [mine.id] });

      const everywhere = await post(restricted, pathOf(createApiUser, {}), valid());
      expect(everywhere.status).toBe(403);
      expect(codeOf(everywhere.body)).toBe('OUTSIDE_ADMIN_SCOPE');
      const outside = await post(
        restricted,
        pathOf(createApiUser, {}),
        valid({ subOrgIds: [theirs.id] }),
      );
      expect(outside.status).toBe(403);

      const own = await post(
        restricted,
        pathOf(createApiUser, {}),
        valid({ name: 'Desk A bot', subOrgIds: [mine.id] }),
      );
      expect(own.status, JSON.stringify(own.body)).toBe(201);
      const other = (
        await post(
          t.admin,
          pathOf(createApiUser, {}),
          valid({ name: 'Desk B bot', subOrgIds: [theirs.id] }),
        )
      ).body as ApiUserKeyIssued;

      const listed = (await restricted.json(pathOf(listApiUsers, {}))).body as {
        results: ApiUserInfo[];
      };
      const names = listed.results.map((u) => u.name);
      expect(names).toContain('Desk A bot');
      expect(names).not.toContain('Desk B bot');
      expect(names).not.toContain('Treasury bot');
      const rotate = pathOf(rotateApiUserKey, { apiUserId: other.apiUser.id });
      expect((await post(restricted, rotate, {})).status).toBe(404);
      const revoke = pathOf(revokeApiUser, { apiUserId: other.apiUser.id });
      expect((await post(restricted, revoke, undefined)).status).toBe(404);
    },
  );

  appTest('members who are not admins are refused', async ({ approver }) => {
    const res = await post(approver, pathOf(createApiUser, {}), valid());
    expect(res.status).toBe(403);
    expect(codeOf(res.body)).toBe('FORBIDDEN_ROLE');
    expect((await approver.json(pathOf(listApiUsers, {}))).status).toBe(403);
  });

  appTest('upstream, API users are the provider’s: 409 SANDBOX_ONLY', async ({ upstream }) => {
    const made = await post(upstream.admin, pathOf(createApiUser, {}), valid());
    expect(made.status).toBe(409);
    expect(codeOf(made.body)).toBe('SANDBOX_ONLY');
    const list = await upstream.admin.json(pathOf(listApiUsers, {}));
    expect(list.status).toBe(409);
  });
});
