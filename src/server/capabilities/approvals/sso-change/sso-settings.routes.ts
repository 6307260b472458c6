import { Hono, type Context } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import {
  createScimToken,
  getSsoSettings,
  revokeScimToken,
  updateSsoSettings,
} from '#contract/endpoints/sso.ts';
import type { SsoSettings, UpdateSsoSettings } from '#contract/sso.ts';
import { ssoWidens } from '#contract/sso-widening.ts';
import {
  checkBreakGlass,
  pendingSsoChange,
  proposeSsoChange,
  SSO_CHANGE,
  withdrawSsoChanges,
} from './sso-change.ts';
import { outsideAdminScope } from '../../../console/admin-scope.ts';
import type { AppEnv } from '../../../http/app-env.ts';
import { mount } from '../../../http/mount.ts';
import { audit } from '../../../auth/audit.ts';
import { requestOrigin } from '../../../auth/csrf.ts';
import { unauthorized, type AuthOptions } from '../../../auth/session-auth.ts';
import type { StaffRecord } from '../../../auth/staff.store.ts';
import { callbackUrl } from '../../../auth/sso/sign-in.routes.ts';
import {
  createScimToken as makeScimToken,
  listScimTokens,
  readGroupRoles,
  readSsoSettings,
  revokeScimToken as endScimToken,
  saveSsoSettings,
  type ScimTokenRow,
} from '../../../auth/sso.store.ts';

/**
 * The single sign-on settings page's API: an organization's sign-in, so only
 * an admin of every sub-organization reads or changes it. Each change is
 * audited with what changed (never the secret's value).
 */

function wireToken(row: ScimTokenRow) {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

const withdrawnText = (ids: string[]) =>
  ids.length > 0 ? `; the change that waited (${ids.join(', ')}) is withdrawn` : '';

export function ssoSettingsRoutes(options: AuthOptions) {
  const { db, clock } = options;
  const app = new Hono<AppEnv>();

  function organizationAdmin(c: Context<AppEnv>): StaffRecord {
    const member = c.get('staff');
    if (!member) throw unauthorized();
    if (member.subOrgIds)
      throw outsideAdminScope(
        'Single sign-on decides who enters every sub-organization: only an admin of all of them may manage it',
      );
    return member;
  }

  async function current(c: Context<AppEnv>): Promise<SsoSettings> {
    const settings = await readSsoSettings(db);
    return {
      configured: settings !== undefined,
      enabled: settings?.enabled ?? false,
      label: settings?.label ?? '',
      issuer: settings?.issuer ?? '',
      clientId: settings?.clientId ?? '',
      clientSecretSet: Boolean(settings?.clientSecret),
      groupsClaim: settings?.groupsClaim ?? 'groups',
      scopes: settings?.scopes ?? 'openid email profile offline_access',
      passwordSignIn: settings?.passwordSignIn ?? 'everyone',
      breakGlassEmail: settings?.breakGlassEmail ?? null,
      groups: await readGroupRoles(db),
      redirectUri: callbackUrl(c, options),
      scimBaseUrl: `${requestOrigin(c, options.trustProxy)}/scim/v2`,
      scimTokens: (await listScimTokens(db)).map(wireToken),
      updatedAt: settings?.updatedAt.toISOString() ?? null,
      pendingChange: await pendingSsoChange(db),
    };
  }

  /** What a save changes, in words for the audit row: never the secret's value. */
  function describeChanges(before: SsoSettings, after: UpdateSsoSettings, secretChanged: boolean) {
    const changed: string[] = [];
    const fields = [
      'enabled',
      'label',
      'issuer',
      'clientId',
      'groupsClaim',
      'scopes',
      'passwordSignIn',
      'breakGlassEmail',
    ] as const;
    for (const field of fields)
      if (before[field] !== after[field])
        changed.push(`${field} ${JSON.stringify(before[field])} → ${JSON.stringify(after[field])}`);
    if (secretChanged) changed.push('client secret replaced');
    const groups = (list: UpdateSsoSettings['groups']) =>
      list
        .map((g) => `${g.groupName}=${g.role}@${g.subOrgIds ? g.subOrgIds.join('+') : 'all'}`)
        .sort()
        .join(', ');
    if (groups(before.groups) !== groups(after.groups))
      changed.push(`groups [${groups(before.groups)}] → [${groups(after.groups)}]`);
    return changed.length > 0 ? changed.join('; ') : 'nothing changed';
  }

  mount(app, '/api/console', getSsoSettings, async (_input, c) => {
    organizationAdmin(c);
    return current(c);
  });

  mount(app, '/api/console', updateSsoSettings, async ({ body }, c) => {
    const member = organizationAdmin(c);
    const stored = await readSsoSettings(db);
    const secret = body.clientSecret ?? stored?.clientSecret;
    if (!secret)
      throw new ApiError(400, ERROR_CODES.validation, 'clientSecret is required the first time', [
        { field: 'clientSecret', message: 'is required the first time' },
      ]);
    await checkBreakGlass(db, body);
    const before = await current(c);
    const summary = describeChanges(before, body, body.clientSecret !== undefined);
    const widens = ssoWidens(before, body);
    if (widens.length > 0) {
      // More people in, or more rights: another admin of every sub-organization approves it first.
      const { id, withdrawn } = await proposeSsoChange(
        db,
        clock,
        { settings: body, widens, summary },
        member,
      );
      await audit(c, options, {
        action: 'sso.propose',
        entityType: SSO_CHANGE,
        entityId: id,
        summary: `${summary}; waits for another admin: ${widens.join(' ')}${withdrawnText(withdrawn)}`,
        outcome: 'success',
      });
      return current(c);
    }
    const withdrawn = await db.transaction(async (tx) => {
      await saveSsoSettings(tx, body, secret, member.id, clock.now());
      return withdrawSsoChanges(tx, clock);
    });
    await audit(c, options, {
      action: 'sso.update',
      entityType: 'SSO_SETTINGS',
      entityId: 'oidc',
      summary: `${summary}${withdrawnText(withdrawn)}`,
      outcome: 'success',
    });
    return current(c);
  });

  mount(app, '/api/console', createScimToken, async ({ body }, c) => {
    const member = organizationAdmin(c);
    const { row, token } = await makeScimToken(db, body.name, member.id, clock.now());
    await audit(c, options, {
      action: 'sso.scim_token.create',
      entityType: 'SCIM_TOKEN',
      entityId: row.id,
      summary: `SCIM token "${row.name}" made`,
      outcome: 'success',
    });
    return { id: row.id, name: row.name, token };
  });

  mount(app, '/api/console', revokeScimToken, async ({ params }, c) => {
    organizationAdmin(c);
    const row = await endScimToken(db, params.tokenId, clock.now());
    if (!row) throw new ApiError(404, ERROR_CODES.notFound, 'No SCIM token with that id');
    await audit(c, options, {
      action: 'sso.scim_token.revoke',
      entityType: 'SCIM_TOKEN',
      entityId: row.id,
      summary: `SCIM token "${row.name}" revoked`,
      outcome: 'success',
    });
    return wireToken(row);
  });
  return app;
}
