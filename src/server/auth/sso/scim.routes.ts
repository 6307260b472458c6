import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import * as z from 'zod/mini';
import { ApiError } from '#contract/api-error.ts';
import {
  SCIM_ERROR_SCHEMA,
  SCIM_GROUP_SCHEMA,
  SCIM_LIST_SCHEMA,
  SCIM_USER_SCHEMA,
  ScimBoolean,
  ScimGroupBody,
  ScimPatchBody,
  ScimUserBody,
} from '#contract/scim.ts';
import { scimGroups, staff } from '../../db/schema/console.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { audit } from '../audit.ts';
import { requestOrigin } from '../csrf.ts';
import { endSessionStreams, type AuthOptions } from '../session-auth.ts';
import { revokeStaffSessions } from '../session.store.ts';
import { findStaffByEmail, getStaff, updateStaff, type StaffRecord } from '../staff.store.ts';
import { createProvisioned } from './provision.ts';
import { grantOf, readGroupRoles, useScimToken, type ScimTokenRow } from '../sso.store.ts';

/**
 * SCIM 2.0 (RFC 7644) at /scim/v2: an identity provider pushes users and
 * groups with a bearer token an admin made. A user is a staff member the
 * client made; it may act only while `active` and in a group mapped to a role
 * (the settings' group mappings, by the group's displayName), and holds the
 * role and sub-organizations those groups grant. Deactivating (PATCH/PUT
 * active false, or DELETE) disables the member and ends their sessions at
 * once; nothing is deleted (the audit log names them). Members the console
 * made itself are not the client's to see or change. Every change is audited
 * under the token; errors are the protocol's own (RFC 7644 §3.12).
 */

type ScimType =
  | 'invalidFilter'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'invalidValue'
  | 'uniqueness'
  | 'noTarget'
  | 'mutability';

class ScimError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 500,
    message: string,
    readonly scimType?: ScimType,
  ) {
    super(message);
  }
}

function scimJson(c: Context, body: unknown, status: 200 | 201 = 200) {
  return c.body(JSON.stringify(body), status, { 'Content-Type': 'application/scim+json' });
}

function errorResponse(c: Context, error: ScimError) {
  return c.body(
    JSON.stringify({
      schemas: [SCIM_ERROR_SCHEMA],
      status: String(error.status),
      ...(error.scimType ? { scimType: error.scimType } : {}),
      detail: error.message,
    }),
    error.status,
    {
      'Content-Type': 'application/scim+json',
      ...(error.status === 401 ? { 'WWW-Authenticate': 'Bearer realm="scim"' } : {}),
    },
  );
}

async function parse<S extends z.core.$ZodType>(
  c: Context<AppEnv>,
  schema: S,
): Promise<z.output<S>> {
  let raw: unknown;
  try {
    raw = await readJsonBody(c);
  } catch (error) {
    throw new ScimError(
      400,
      error instanceof Error ? error.message : 'unreadable body',
      'invalidSyntax',
    );
  }
  const parsed = z.safeParse(schema, raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.map(String).join('.') || 'body';
  throw new ScimError(400, `${field}: ${issue?.message ?? 'invalid'}`, 'invalidValue');
}

/** The user attributes the console keeps (lower case): PATCH without a path ignores the rest. */
const KEPT_USER_ATTRIBUTES = new Set([
  'active',
  'username',
  'emails',
  'displayname',
  'name',
  'externalid',
]);

function emailOf(body: ScimUserBody): string {
  const emails = body.emails ?? [];
  const chosen = emails.find((e) => e.primary) ?? emails[0];
  const email = (chosen?.value ?? body.userName).trim().toLowerCase();
  if (!z.regexes.email.test(email))
    throw new ScimError(
      400,
      'userName or a primary email must be an email address',
      'invalidValue',
    );
  return email;
}

function nameOf(body: ScimUserBody, fallback: string): string {
  const given = [body.name?.givenName, body.name?.familyName].filter(Boolean).join(' ');
  return (body.displayName || body.name?.formatted || given || fallback).trim().slice(0, 200);
}

export function scimRoutes(options: AuthOptions) {
  const { db, clock } = options;
  const app = new Hono<AppEnv>();
  // The token each request came with: audited as the actor of what it changes.
  const tokens = new WeakMap<Context, ScimTokenRow>();

  const location = (c: Context, kind: 'Users' | 'Groups', id: string) =>
    `${requestOrigin(c, options.trustProxy)}/scim/v2/${kind}/${id}`;

  async function groupsOf(memberId: string) {
    return db
      .select({ id: scimGroups.id, displayName: scimGroups.displayName })
      .from(scimGroups)
      .where(sql`${scimGroups.memberIds} @> ${JSON.stringify([memberId])}::jsonb`)
      .orderBy(asc(scimGroups.displayName));
  }

  async function userResource(c: Context, member: StaffRecord) {
    return {
      schemas: [SCIM_USER_SCHEMA],
      id: member.id,
      ...(member.scimExternalId ? { externalId: member.scimExternalId } : {}),
      userName: member.email,
      name: { formatted: member.name },
      displayName: member.name,
      emails: [{ value: member.email, primary: true, type: 'work' }],
      active: member.scimActive ?? !member.disabled,
      groups: (await groupsOf(member.id)).map((g) => ({
        value: g.id,
        display: g.displayName,
        $ref: location(c, 'Groups', g.id),
      })),
      meta: {
        resourceType: 'User',
        created: member.createdAt.toISOString(),
        location: location(c, 'Users', member.id),
      },
    };
  }

  function groupResource(c: Context, group: typeof scimGroups.$inferSelect) {
    return {
      schemas: [SCIM_GROUP_SCHEMA],
      id: group.id,
      ...(group.externalId ? { externalId: group.externalId } : {}),
      displayName: group.displayName,
      members: group.memberIds.map((value) => ({ value, $ref: location(c, 'Users', value) })),
      meta: {
        resourceType: 'Group',
        created: group.createdAt.toISOString(),
        lastModified: group.updatedAt.toISOString(),
        location: location(c, 'Groups', group.id),
      },
    };
  }

  /**
   * Holds a SCIM member to their groups and `active`: the role and scope the
   * mapped groups grant, disabled while inactive or in none. Ends their
   * sessions when they lose access or it changes.
   */
  async function sync(member: StaffRecord): Promise<StaffRecord> {
    const grant = grantOf(
      (await groupsOf(member.id)).map((g) => g.displayName),
      await readGroupRoles(db),
    );
    const disabled = member.scimActive === false || grant === null;
    const changes = {
      disabled,
      ...(grant ? { role: grant.role, subOrgIds: grant.subOrgIds } : {}),
    };
    const moved =
      (disabled && !member.disabled) ||
      (grant !== null &&
        (grant.role !== member.role ||
          JSON.stringify(grant.subOrgIds) !== JSON.stringify(member.subOrgIds ?? null)));
    const updated = (await updateStaff(db, member.id, changes)) ?? member;
    if (moved) endSessionStreams(options, await revokeStaffSessions(db, member.id, clock.now()));
    return updated;
  }

  async function scimMember(id: string): Promise<StaffRecord> {
    const member = await getStaff(db, id).catch(() => undefined);
    if (!member || member.provisionedBy !== 'scim')
      throw new ScimError(404, `No user with id ${id}`, 'noTarget');
    return member;
  }

  async function record(
    c: Context<AppEnv>,
    action: string,
    entityType: 'STAFF' | 'SCIM_GROUP',
    entityId: string,
    summary: string,
  ) {
    const token = tokens.get(c);
    if (!token) throw new ScimError(401, 'A valid SCIM bearer token is required');
    await audit(c, options, {
      action,
      entityType,
      entityId,
      summary,
      outcome: 'success',
      actor: { type: 'SCIM', id: token.id, name: `SCIM token ${token.name}` },
    });
  }

  app.onError((error, c) => {
    if (error instanceof ScimError) return errorResponse(c, error);
    if (error instanceof ApiError)
      return errorResponse(
        c,
        new ScimError(
          error.status === 409 ? 409 : error.status === 404 ? 404 : 400,
          error.message,
          error.status === 409 ? 'uniqueness' : 'invalidValue',
        ),
      );
    c.get('log').error({ err: error }, 'scim: unhandled error');
    return errorResponse(c, new ScimError(500, 'Internal error'));
  });

  app.use('*', async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const token = match?.[1] ? await useScimToken(db, match[1], clock.now()) : undefined;
    if (!token) throw new ScimError(401, 'A valid SCIM bearer token is required');
    tokens.set(c, token);
    return next();
  });

  // ---- Users ----------------------------------------------------------------

  app.get('/Users', async (c) => {
    const filter = c.req.query('filter');
    const where = [eq(staff.provisionedBy, 'scim')];
    if (filter) {
      const m = /^\s*(userName|externalId|emails(?:\.value)?)\s+eq\s+"([^"]*)"\s*$/i.exec(filter);
      if (!m)
        throw new ScimError(
          400,
          'filter must read userName eq "…", externalId eq "…" or emails.value eq "…"',
          'invalidFilter',
        );
      const value = m[2] ?? '';
      where.push(
        m[1]?.toLowerCase() === 'externalid'
          ? eq(staff.scimExternalId, value)
          : eq(staff.email, value.trim().toLowerCase()),
      );
    }
    const all = await db
      .select()
      .from(staff)
      .where(and(...where))
      .orderBy(asc(staff.createdAt));
    return scimJson(c, await listResponse(c, all, (m) => userResource(c, m)));
  });

  app.get('/Users/:id', async (c) =>
    scimJson(c, await userResource(c, await scimMember(c.req.param('id')))),
  );

  app.post('/Users', async (c) => {
    const body = await parse(c, ScimUserBody);
    const email = emailOf(body);
    if (await findStaffByEmail(db, email))
      throw new ScimError(409, `A member with userName ${email} already exists`, 'uniqueness');
    const active = body.active ?? true;
    // No group yet: made disabled, as a viewer, until a mapped group takes them in.
    let member: StaffRecord;
    try {
      member = await createProvisioned(db, clock, {
        email,
        name: nameOf(body, email),
        grant: { role: 'viewer', subOrgIds: null },
        by: 'scim',
        scimExternalId: body.externalId ?? null,
      });
    } catch (error) {
      if (isUniqueViolation(error) || (error instanceof ApiError && error.status === 409))
        throw new ScimError(409, `A member with userName ${email} already exists`, 'uniqueness');
      throw error;
    }
    await db
      .update(staff)
      .set({ scimActive: active, disabled: true })
      .where(eq(staff.id, member.id));
    member = await sync((await getStaff(db, member.id)) ?? member);
    await record(
      c,
      'scim.user.create',
      'STAFF',
      member.id,
      `${email} provisioned (${active ? 'active' : 'inactive'}; ${member.disabled ? 'no access until in a mapped group' : member.role})`,
    );
    return scimJson(c, await userResource(c, member), 201);
  });

  /** Applies name, email, externalId and active; answers what changed, in words. */
  async function applyUser(
    member: StaffRecord,
    changes: { email?: string; name?: string; externalId?: string | null; active?: boolean },
  ): Promise<{ member: StaffRecord; said: string[] }> {
    const said: string[] = [];
    const set: Partial<typeof staff.$inferInsert> = {};
    if (changes.email !== undefined && changes.email !== member.email) {
      const other = await findStaffByEmail(db, changes.email);
      if (other && other.id !== member.id)
        throw new ScimError(
          409,
          `A member with userName ${changes.email} already exists`,
          'uniqueness',
        );
      set.email = changes.email;
      said.push(`email ${member.email} → ${changes.email}`);
    }
    if (changes.name !== undefined && changes.name !== member.name) {
      set.name = changes.name;
      said.push(`name → ${changes.name}`);
    }
    if (changes.externalId !== undefined && changes.externalId !== member.scimExternalId)
      set.scimExternalId = changes.externalId;
    if (changes.active !== undefined && changes.active !== member.scimActive) {
      set.scimActive = changes.active;
      said.push(changes.active ? 'activated' : 'deactivated');
    }
    if (Object.keys(set).length > 0) await db.update(staff).set(set).where(eq(staff.id, member.id));
    const updated = await sync((await getStaff(db, member.id)) ?? member);
    return { member: updated, said };
  }

  async function recordUserChange(
    c: Context<AppEnv>,
    before: StaffRecord,
    after: StaffRecord,
    said: string[],
  ) {
    const access =
      after.disabled !== before.disabled
        ? after.disabled
          ? 'disabled, sessions ended'
          : 'enabled'
        : null;
    const all = [...said, ...(access ? [access] : [])];
    await record(
      c,
      before.scimActive !== false && after.scimActive === false
        ? 'scim.user.deactivate'
        : 'scim.user.update',
      'STAFF',
      after.id,
      `${after.email}: ${all.length > 0 ? all.join('; ') : 'nothing changed'}`,
    );
  }

  app.put('/Users/:id', async (c) => {
    const before = await scimMember(c.req.param('id'));
    const body = await parse(c, ScimUserBody);
    const email = emailOf(body);
    const { member, said } = await applyUser(before, {
      email,
      name: nameOf(body, email),
      externalId: body.externalId ?? null,
      active: body.active ?? true,
    });
    await recordUserChange(c, before, member, said);
    return scimJson(c, await userResource(c, member));
  });

  app.patch('/Users/:id', async (c) => {
    const before = await scimMember(c.req.param('id'));
    const body = await parse(c, ScimPatchBody);
    const changes: { email?: string; name?: string; externalId?: string | null; active?: boolean } =
      {};
    let given: string | undefined;
    let family: string | undefined;
    const take = (path: string, raw: unknown) => {
      let value = raw;
      const key = path.toLowerCase();
      const str = () => {
        if (typeof value !== 'string')
          throw new ScimError(400, `${path} must be a string`, 'invalidValue');
        return value.trim();
      };
      if (key === 'active') {
        const parsed = z.safeParse(ScimBoolean, value);
        if (!parsed.success)
          throw new ScimError(400, 'active must be true or false', 'invalidValue');
        changes.active = parsed.data;
      } else if (key === 'username' || key.startsWith('emails')) {
        // `emails` itself is a list: its primary address (else its first) is the member's.
        const listed = Array.isArray(value)
          ? ((value.find((e: { primary?: unknown }) => e?.primary === true) ?? value[0]) as
              { value?: unknown } | undefined)
          : undefined;
        if (listed) value = listed.value;
        const email = str().toLowerCase();
        if (!z.regexes.email.test(email))
          throw new ScimError(400, `${path} must be an email address`, 'invalidValue');
        changes.email = email;
      } else if (key === 'displayname' || key === 'name.formatted') changes.name = str();
      else if (key === 'name.givenname') given = str();
      else if (key === 'name.familyname') family = str();
      else if (key === 'externalid') changes.externalId = str();
      else if (key === 'name' && value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) take(`name.${k}`, v);
      } else throw new ScimError(400, `${path} cannot be changed here`, 'invalidPath');
    };
    for (const operation of body.Operations) {
      if (operation.op !== 'replace' && operation.op !== 'add')
        throw new ScimError(400, `op ${operation.op} is not supported on users`, 'invalidValue');
      if (operation.path) {
        take(operation.path, operation.value);
      } else if (operation.value && typeof operation.value === 'object') {
        // Without a path the value's attributes are set; those a member has no use for are ignored.
        for (const [path, value] of Object.entries(operation.value)) {
          if (KEPT_USER_ATTRIBUTES.has(path.toLowerCase())) take(path, value);
        }
      } else {
        throw new ScimError(
          400,
          'an operation without a path needs an object value',
          'invalidValue',
        );
      }
    }
    if (given !== undefined || family !== undefined)
      changes.name ??= [given, family].filter(Boolean).join(' ');
    const { member, said } = await applyUser(before, changes);
    await recordUserChange(c, before, member, said);
    return scimJson(c, await userResource(c, member));
  });

  app.delete('/Users/:id', async (c) => {
    const before = await scimMember(c.req.param('id'));
    const { member, said } = await applyUser(before, { active: false });
    await recordUserChange(c, before, member, said);
    return c.body(null, 204);
  });

  // ---- Groups ---------------------------------------------------------------

  async function scimGroup(id: string) {
    const [group] = await db.select().from(scimGroups).where(eq(scimGroups.id, id));
    if (!group) throw new ScimError(404, `No group with id ${id}`, 'noTarget');
    return group;
  }

  /** Only members the client made can be in its groups. */
  async function checkedMembers(ids: readonly string[]): Promise<string[]> {
    const unique = [...new Set(ids)];
    for (const id of unique) {
      const member = await getStaff(db, id).catch(() => undefined);
      if (!member || member.provisionedBy !== 'scim')
        throw new ScimError(400, `members: no user with id ${id}`, 'invalidValue');
    }
    return unique;
  }

  async function saveGroup(
    c: Context<AppEnv>,
    before: typeof scimGroups.$inferSelect | null,
    next: { displayName: string; externalId: string | null; memberIds: string[] },
  ) {
    const now = clock.now();
    let group: typeof scimGroups.$inferSelect | undefined;
    try {
      if (before) {
        [group] = await db
          .update(scimGroups)
          .set({ ...next, updatedAt: now })
          .where(eq(scimGroups.id, before.id))
          .returning();
      } else {
        [group] = await db
          .insert(scimGroups)
          .values({ id: randomUUID(), ...next, createdAt: now, updatedAt: now })
          .returning();
      }
    } catch (error) {
      if (isUniqueViolation(error))
        throw new ScimError(409, `A group named ${next.displayName} already exists`, 'uniqueness');
      throw error;
    }
    if (!group) throw new Error('scim: the group was not saved');
    const touched = new Set([...(before?.memberIds ?? []), ...group.memberIds]);
    for (const id of touched) {
      const member = await getStaff(db, id);
      if (member) await sync(member);
    }
    const added = group.memberIds.filter((id) => !before?.memberIds.includes(id));
    const removed = (before?.memberIds ?? []).filter((id) => !group.memberIds.includes(id));
    const said = [
      ...(before && before.displayName !== group.displayName
        ? [`renamed from ${before.displayName}`]
        : []),
      ...(added.length ? [`members added: ${added.join(', ')}`] : []),
      ...(removed.length ? [`members removed: ${removed.join(', ')}`] : []),
    ];
    await record(
      c,
      before ? 'scim.group.update' : 'scim.group.create',
      'SCIM_GROUP',
      group.id,
      `${group.displayName}: ${said.length ? said.join('; ') : 'nothing changed'}`,
    );
    return group;
  }

  app.get('/Groups', async (c) => {
    const filter = c.req.query('filter');
    let rows;
    if (filter) {
      const m = /^\s*displayName\s+eq\s+"([^"]*)"\s*$/i.exec(filter);
      if (!m) throw new ScimError(400, 'filter must read displayName eq "…"', 'invalidFilter');
      rows = await db
        .select()
        .from(scimGroups)
        .where(eq(scimGroups.displayName, m[1] ?? ''));
    } else rows = await db.select().from(scimGroups).orderBy(asc(scimGroups.displayName));
    return scimJson(c, await listResponse(c, rows, (g) => Promise.resolve(groupResource(c, g))));
  });

  app.get('/Groups/:id', async (c) =>
    scimJson(c, groupResource(c, await scimGroup(c.req.param('id')))),
  );

  app.post('/Groups', async (c) => {
    const body = await parse(c, ScimGroupBody);
    const group = await saveGroup(c, null, {
      displayName: body.displayName,
      externalId: body.externalId ?? null,
      memberIds: await checkedMembers((body.members ?? []).map((m) => m.value)),
    });
    return scimJson(c, groupResource(c, group), 201);
  });

  app.put('/Groups/:id', async (c) => {
    const before = await scimGroup(c.req.param('id'));
    const body = await parse(c, ScimGroupBody);
    const group = await saveGroup(c, before, {
      displayName: body.displayName,
      externalId: body.externalId ?? null,
      memberIds: await checkedMembers((body.members ?? []).map((m) => m.value)),
    });
    return scimJson(c, groupResource(c, group));
  });

  app.patch('/Groups/:id', async (c) => {
    const before = await scimGroup(c.req.param('id'));
    const body = await parse(c, ScimPatchBody);
    let displayName = before.displayName;
    let members = [...before.memberIds];
    const refs = (value: unknown): string[] => {
      const list = Array.isArray(value) ? value : [value];
      return list.map((item) => {
        if (item && typeof item === 'object' && 'value' in item && typeof item.value === 'string')
          return item.value;
        throw new ScimError(400, 'members must be a list of {"value": id}', 'invalidValue');
      });
    };
    for (const operation of body.Operations) {
      const path = operation.path ?? '';
      // members[value eq "id"]: one member named in the path (RFC 7644 §3.5.2.2).
      const one = /^members\[value eq "([^"]+)"\]$/i.exec(path);
      if (operation.op === 'add' && path.toLowerCase() === 'members')
        members.push(...(await checkedMembers(refs(operation.value))));
      else if (operation.op === 'remove' && one) members = members.filter((id) => id !== one[1]);
      else if (operation.op === 'remove' && path.toLowerCase() === 'members') {
        const gone = operation.value === undefined ? members : refs(operation.value);
        members = members.filter((id) => !gone.includes(id));
      } else if (operation.op === 'replace' && path.toLowerCase() === 'members')
        members = await checkedMembers(refs(operation.value));
      else if (operation.op === 'replace' && path.toLowerCase() === 'displayname') {
        if (typeof operation.value !== 'string' || !operation.value.trim())
          throw new ScimError(400, 'displayName must be a non-empty string', 'invalidValue');
        displayName = operation.value.trim();
      } else if (
        operation.op === 'replace' &&
        !path &&
        operation.value &&
        typeof operation.value === 'object'
      ) {
        const value = operation.value as Record<string, unknown>;
        if (typeof value['displayName'] === 'string') displayName = value['displayName'].trim();
        if (value['members'] !== undefined) members = await checkedMembers(refs(value['members']));
      } else
        throw new ScimError(
          400,
          `${operation.op} ${path || '(no path)'} is not supported on groups`,
          'invalidPath',
        );
    }
    const group = await saveGroup(c, before, {
      displayName,
      externalId: before.externalId,
      memberIds: [...new Set(members)],
    });
    return scimJson(c, groupResource(c, group));
  });

  app.delete('/Groups/:id', async (c) => {
    const before = await scimGroup(c.req.param('id'));
    await db.delete(scimGroups).where(eq(scimGroups.id, before.id));
    for (const id of before.memberIds) {
      const member = await getStaff(db, id);
      if (member) await sync(member);
    }
    await record(c, 'scim.group.delete', 'SCIM_GROUP', before.id, `${before.displayName} deleted`);
    return c.body(null, 204);
  });

  return app;
}

/** RFC 7644 §3.4.2: one page of resources, from `startIndex` (1-based), `count` at most. */
async function listResponse<T>(
  c: Context,
  rows: readonly T[],
  toResource: (row: T) => Promise<unknown>,
) {
  const start = Math.max(1, whole(c.req.query('startIndex')) ?? 1);
  const count = Math.min(200, whole(c.req.query('count')) ?? 100);
  const page = rows.slice(start - 1, start - 1 + count);
  return {
    schemas: [SCIM_LIST_SCHEMA],
    totalResults: rows.length,
    startIndex: start,
    itemsPerPage: page.length,
    Resources: await Promise.all(page.map(toResource)),
  };
}

/** A page position or size: digits only, else none (the RFC's default applies). */
function whole(value: string | undefined): number | undefined {
  if (!value || !/^\d{1,6}$/.test(value)) return undefined;
  // eslint-disable-next-line no-restricted-syntax -- a page position or size, at most 6 digits
  return Number.parseInt(value, 10);
}
