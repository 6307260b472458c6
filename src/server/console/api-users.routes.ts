import { Hono, type Context } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import { API_USER_SCOPE_LABELS, type ApiUserInfo } from '#contract/api-users.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import {
  createApiUser,
  listApiUsers,
  revokeApiUser,
  rotateApiUserKey,
  setApiUserNetworks,
} from '#contract/endpoints/api-users.ts';
import { audit } from '../auth/audit.ts';
import { unauthorized, type AuthOptions } from '../auth/session-auth.ts';
import { listStaff, type StaffRecord } from '../auth/staff.store.ts';
import type { ApiClientDirectory, ApiUserRow, CustodyBackend } from '../custody/backend.ts';
import type { AppEnv } from '../http/app-env.ts';
import { mount } from '../http/mount.ts';
import { administers, checkGrantedScope } from './admin-scope.ts';
import { notFound } from './scope-rules.ts';

/**
 * The API keys page's API: admins make, rotate and revoke API users, and
 * change the networks one's requests may come from. An
 * admin of some sub-organizations manages only API users held within them
 * (others are 404) and grants no more than they hold (403), as with members.
 * Each change is audited with what it set, never a key. Upstream, API
 * users are the provider's: 409 SANDBOX_ONLY.
 *
 * Rotation takes effect at once, with no grace period: a key is rotated
 * because it may have leaked, and the answer carries the new key for the
 * client to switch to.
 */
export function apiUserRoutes(options: AuthOptions, backend: CustodyBackend) {
  const { db, clock } = options;
  const app = new Hono<AppEnv>();

  function directory(): ApiClientDirectory {
    if (!backend.apiClients)
      throw new ApiError(
        409,
        ERROR_CODES.sandboxOnly,
        'The console acts on an upstream custody service: its API users and keys are made with the provider, not here (the sandbox only)',
      );
    return backend.apiClients;
  }

  function admin(c: Context<AppEnv>): StaffRecord {
    const member = c.get('staff');
    if (!member) throw unauthorized();
    return member;
  }

  async function wire(rows: readonly ApiUserRow[]): Promise<ApiUserInfo[]> {
    const creators = new Set(rows.flatMap((r) => (r.createdBy ? [r.createdBy] : [])));
    const names = new Map(
      creators.size > 0 ? (await listStaff(db)).map((m) => [m.id, m.name] as const) : [],
    );
    const now = clock.now().getTime();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      apiKey: r.apiKey,
      scope: r.scope,
      subOrgIds: r.subOrgIds,
      allowedCidrs: r.allowedCidrs,
      expiresAt: r.expiresAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
      createdBy: r.createdBy
        ? { id: r.createdBy, name: names.get(r.createdBy) ?? 'a former member' }
        : null,
      lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
      rotatedAt: r.rotatedAt?.toISOString() ?? null,
      revokedAt: r.revokedAt?.toISOString() ?? null,
      status: r.revokedAt
        ? 'revoked'
        : r.expiresAt && r.expiresAt.getTime() <= now
          ? 'expired'
          : 'active',
    }));
  }

  /** The API user, if this admin manages it: another's is 404, as if it did not exist. */
  async function managed(c: Context<AppEnv>, id: string): Promise<ApiUserRow> {
    const row = await directory().find(id);
    if (!row || !administers(admin(c), row)) throw notFound('API user', id);
    return row;
  }

  /** An expiry must lie ahead, or the key would be born refused. */
  function futureExpiry(value: string | null | undefined): Date | null | undefined {
    if (value === undefined || value === null) return value;
    const at = new Date(value);
    if (at.getTime() <= clock.now().getTime())
      throw new ApiError(400, ERROR_CODES.validation, 'expiresAt must be in the future', [
        { field: 'expiresAt', message: 'must be in the future' },
      ]);
    return at;
  }

  const describe = (r: ApiUserRow) =>
    [
      `scope ${API_USER_SCOPE_LABELS[r.scope].toLowerCase()}`,
      r.subOrgIds ? `sub-organizations ${r.subOrgIds.join(', ')}` : 'every sub-organization',
      r.allowedCidrs ? `networks ${r.allowedCidrs.join(', ')}` : 'any network',
      r.expiresAt ? `expires ${r.expiresAt.toISOString()}` : 'no expiry',
    ].join('; ');

  mount(app, CONSOLE_API_PREFIX, listApiUsers, async (_input, c) => {
    const member = admin(c);
    const rows = (await directory().list()).filter((r) => administers(member, r));
    return { results: await wire(rows) };
  });

  mount(app, CONSOLE_API_PREFIX, createApiUser, async ({ body }, c) => {
    const member = admin(c);
    const store = directory();
    checkGrantedScope(member, body.subOrgIds);
    const expiresAt = futureExpiry(body.expiresAt) ?? null;
    const issued = await store.create({
      name: body.name,
      scope: body.scope,
      subOrgIds: body.subOrgIds,
      allowedCidrs: body.allowedCidrs,
      expiresAt,
      createdBy: member.id,
      now: clock.now(),
    });
    await audit(c, options, {
      action: 'api_user.create',
      entityType: 'API_USER',
      entityId: issued.row.id,
      summary: `API user "${issued.row.name}" created: ${describe(issued.row)}`,
      outcome: 'success',
    });
    const [info] = await wire([issued.row]);
    if (!info) throw new Error('apiUserRoutes: the created user has no row');
    return { apiUser: info, apiKey: issued.row.apiKey, privateKeyHex: issued.privateKeyHex };
  });

  mount(app, CONSOLE_API_PREFIX, rotateApiUserKey, async ({ params, body }, c) => {
    const row = await managed(c, params.apiUserId);
    if (row.revokedAt)
      throw new ApiError(
        409,
        ERROR_CODES.conflict,
        'This API user is revoked: make a new one rather than rotating its key',
      );
    const expiresAt = futureExpiry(body.expiresAt);
    if (
      expiresAt === undefined &&
      row.expiresAt &&
      row.expiresAt.getTime() <= clock.now().getTime()
    )
      throw new ApiError(
        400,
        ERROR_CODES.validation,
        'expiresAt is required: this API user has expired, so its new key needs a new expiry (or none)',
        [{ field: 'expiresAt', message: 'is required: the current expiry has passed' }],
      );
    const issued = await directory().rotate(row.id, {
      now: clock.now(),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    });
    if (!issued) throw notFound('API user', params.apiUserId);
    await audit(c, options, {
      action: 'api_user.rotate',
      entityType: 'API_USER',
      entityId: row.id,
      summary: `API user "${row.name}": key rotated, the old one refused from now on${
        expiresAt !== undefined ? `; expiry ${expiresAt ? expiresAt.toISOString() : 'none'}` : ''
      }`,
      outcome: 'success',
    });
    const [info] = await wire([issued.row]);
    if (!info) throw new Error('apiUserRoutes: the rotated user has no row');
    return { apiUser: info, apiKey: issued.row.apiKey, privateKeyHex: issued.privateKeyHex };
  });

  const networks = (cidrs: readonly string[] | null) => (cidrs ? cidrs.join(', ') : 'any network');

  mount(app, CONSOLE_API_PREFIX, setApiUserNetworks, async ({ params, body }, c) => {
    const row = await managed(c, params.apiUserId);
    if (row.revokedAt)
      throw new ApiError(
        409,
        ERROR_CODES.conflict,
        'This API user is revoked: its key is refused from anywhere, so its networks no longer matter',
      );
    const changed = await directory().setNetworks(row.id, body.allowedCidrs);
    if (!changed) throw notFound('API user', params.apiUserId);
    await audit(c, options, {
      action: 'api_user.networks',
      entityType: 'API_USER',
      entityId: row.id,
      summary: `API user "${row.name}": allowed networks ${networks(row.allowedCidrs)} → ${networks(changed.allowedCidrs)}`,
      outcome: 'success',
    });
    const [info] = await wire([changed]);
    if (!info) throw new Error('apiUserRoutes: the changed user has no row');
    return info;
  });

  mount(app, CONSOLE_API_PREFIX, revokeApiUser, async ({ params }, c) => {
    const row = await managed(c, params.apiUserId);
    if (row.revokedAt)
      throw new ApiError(409, ERROR_CODES.conflict, 'This API user is already revoked');
    const revoked = await directory().revoke(row.id, clock.now());
    if (!revoked) throw notFound('API user', params.apiUserId);
    await audit(c, options, {
      action: 'api_user.revoke',
      entityType: 'API_USER',
      entityId: row.id,
      summary: `API user "${row.name}" revoked: its key is refused from now on`,
      outcome: 'success',
    });
    const [info] = await wire([revoked]);
    if (!info) throw new Error('apiUserRoutes: the revoked user has no row');
    return info;
  });

  return app;
}
