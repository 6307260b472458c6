import { and, eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import type { ApiUserInfo, ApiUserKeyIssued } from '#contract/api-users.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { pathOf } from '#contract/endpoint.ts';
import {
  createApiUser as createApiUserEndpoint,
  revokeApiUser,
  setApiUserNetworks,
} from '#contract/endpoints/api-users.ts';
import { paths } from '#contract/paths.ts';
import { auditLog } from '../db/schema/console.ts';
import { apiUsers } from '../db/schema/sandbox.ts';
import { createApiUser } from '../custody/sandbox/api-users.store.ts';
import { appTestWith } from '../test/app-test.ts';
import type { TestApiUser } from '../test/api-client.ts';
import { sdkRequest } from '../test/sdk-wire.ts';
import type { TestApp } from '../test/test-app.ts';
import { allowedFrom } from './api-client-auth.ts';

/**
 * An API user held to networks (CIDRs) and an expiry: a request from
 * elsewhere is 403 IP_NOT_ALLOWED with a row in the audit log, an expired
 * key 401 API_KEY_EXPIRED, and a request that passes notes when it was used.
 * Behind one trusted proxy, the caller's address is the one the proxy saw.
 */
const appTest = appTestWith({ trustProxy: 1 });

async function makeUser(
  t: TestApp,
  name: string,
  fields: { allowedCidrs?: string[]; expiresAt?: Date },
) {
  const user = await createApiUser(t.db, {
    orgId: t.orgId,
    name,
    now: t.authClock.now(),
    ...fields,
  });
  return { ...user, clock: t.authClock };
}

async function listVaults(t: TestApp, user: TestApiUser, from: string) {
  const url = paths.vaults();
  const init = sdkRequest('js', user, 'GET', url);
  const headers = new Headers(init.headers);
  headers.set('X-Forwarded-For', from);
  const res = await t.app.request(url, { ...init, headers });
  return { status: res.status, body: (await res.json()) as unknown };
}

describe('an API user held to networks and an expiry', () => {
  appTest(
    'inside its networks it is served and its last use noted; from elsewhere 403 and audited',
    async ({ t }) => {
      const user = await makeUser(t, 'allowlisted bot', {
        allowedCidrs: ['10.20.0.0/16', '2001:db8::/32'],
      });
      for (const from of ['10.20.3.4', '2001:db8::7']) {
        const ok = await listVaults(t, user, from);
        expect(ok.status, `${from}: ${JSON.stringify(ok.body)}`).toBe(200);
      }
      const [used] = await t.db
        .select({ at: apiUsers.lastUsedAt })
        .from(apiUsers)
        .where(eq(apiUsers.id, user.id));
      expect(used?.at?.toISOString()).toBe(t.authClock.now().toISOString());

      const outside = await listVaults(t, user, '10.21.0.1');
      expect(outside.status).toBe(403);
      expect(ApiErrorBody.parse(outside.body).code).toBe('IP_NOT_ALLOWED');
      const rows = await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'api_user.refused'), eq(auditLog.actorId, user.id)));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ outcome: 'denied', ip: '10.21.0.1', actorType: 'API_USER' });
    },
  );

  appTest('an expired key is 401 API_KEY_EXPIRED; one not yet expired is served', async ({ t }) => {
    const soon = new Date(t.authClock.now().getTime() + 60_000);
    const user = await makeUser(t, 'expiring bot', { expiresAt: soon });
    expect((await listVaults(t, user, '192.0.2.1')).status).toBe(200);
    t.authClock.advance(61_000);
    const expired = await listVaults(t, user, '192.0.2.1');
    expect(expired.status).toBe(401);
    expect(ApiErrorBody.parse(expired.body).code).toBe('API_KEY_EXPIRED');
  });
});

describe('an API user whose networks an admin changes in the console', () => {
  appTest(
    'the new networks hold from the next request, audited before and after; a revoked key is not changed',
    async ({ t }) => {
      const send = (method: string, url: string, body?: unknown) =>
        t.admin.json(url, {
          method,
          headers: { 'Content-Type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      const made = await send('POST', pathOf(createApiUserEndpoint, {}), {
        name: 'office bot',
        scope: 'read_only',
        subOrgIds: null,
        allowedCidrs: ['10.20.0.0/16'],
        expiresAt: null,
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const issued = made.body as ApiUserKeyIssued;
      const user = {
        id: issued.apiUser.id,
        orgId: t.orgId,
        name: issued.apiUser.name,
        apiKey: issued.apiKey,
        subOrgIds: null,
        privateKeyHex: issued.privateKeyHex,
        clock: t.authClock,
      };
      const networks = pathOf(setApiUserNetworks, { apiUserId: user.id });
      // The office moved: its new network is refused until the admin says so.
      expect((await listVaults(t, user, '10.30.0.9')).status).toBe(403);

      const moved = await send('PUT', networks, {
        allowedCidrs: ['10.30.0.0/16', '2001:db8::/32'],
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect((moved.body as ApiUserInfo).allowedCidrs).toEqual(['10.30.0.0/16', '2001:db8::/32']);
      expect((await listVaults(t, user, '10.30.0.9')).status).toBe(200);
      const old = await listVaults(t, user, '10.20.0.9');
      expect(old.status).toBe(403);
      expect(ApiErrorBody.parse(old.body).code).toBe('IP_NOT_ALLOWED');
      const [changed] = await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'api_user.networks'), eq(auditLog.entityId, user.id)));
      expect(changed).toMatchObject({ outcome: 'success', actorId: t.admin.member.id });
      expect(changed?.summary).toContain('10.20.0.0/16 → 10.30.0.0/16, 2001:db8::/32');

      const bad = await send('PUT', networks, { allowedCidrs: ['10.30.0.0/33'] });
      expect(bad.status).toBe(400);
      expect(ApiErrorBody.parse(bad.body).fields?.map((f) => f.field)).toEqual(['allowedCidrs.0']);

      const anywhere = await send('PUT', networks, { allowedCidrs: null });
      expect(anywhere.status).toBe(200);
      expect((await listVaults(t, user, '192.0.2.1')).status).toBe(200);

      expect((await send('POST', pathOf(revokeApiUser, { apiUserId: user.id }))).status).toBe(200);
      const revoked = await send('PUT', networks, { allowedCidrs: ['10.20.0.0/16'] });
      expect(revoked.status).toBe(409);
    },
  );
});

describe('allowedFrom', () => {
  test('reads IPv4 and IPv6 networks, a bare address as itself, an IPv4-mapped address as IPv4', () => {
    expect(allowedFrom(['192.0.2.0/24'], '192.0.2.200')).toBe(true);
    expect(allowedFrom(['192.0.2.0/24'], '192.0.3.1')).toBe(false);
    expect(allowedFrom(['192.0.2.7'], '192.0.2.7')).toBe(true);
    expect(allowedFrom(['192.0.2.0/24'], '::ffff:192.0.2.9')).toBe(true);
    expect(allowedFrom(['2001:db8::/32'], '2001:db9::1')).toBe(false);
    expect(allowedFrom(['192.0.2.0/24'], 'unknown')).toBe(false);
  });
});
