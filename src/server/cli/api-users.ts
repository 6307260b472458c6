import { and, eq, inArray } from 'drizzle-orm';
import { AllowedNetwork, API_USER_SCOPES, ApiUserScope } from '#contract/api-users.ts';
import { IsoTimestamp } from '#contract/common.ts';
import { recordAudit } from '../auth/audit.store.ts';
import {
  createApiUser,
  defaultOrganizationId,
  revokeApiUser,
} from '../custody/sandbox/api-users.store.ts';
import type { Database } from '../db/client.ts';
import { apiUsers, organizations, subOrgs } from '../db/schema/sandbox.ts';
import { CliError, repeated, UsageError, type CliCommand } from './command.ts';

const MAX_NAME_LENGTH = 120;

/**
 * `api-users create --name NAME [--org ORG_ID] [--scope S] [--sub-org ID]…
 * [--allow-cidr CIDR]… [--expires ISO]`: an API user of the sandbox, held to
 * what the console's API keys page holds one to.
 * Standard output is one JSON line, `{"apiKey":"…","privateKeyHex":"…"}`
 * (the private key as PKCS#8 DER hex, what the provider's SDKs take), so a
 * script can capture it; the private key is not stored and shown only here.
 */
export const apiUsersCreate: CliCommand = {
  group: 'api-users',
  action: 'create',
  summary:
    'Create an API user of the sandbox and print its API key and private key as one JSON line',
  needs: 'sandbox',
  options: {
    name: {
      valueName: 'NAME',
      description: 'what the API user is for, e.g. "treasury bot"',
      required: true,
    },
    org: {
      valueName: 'ORG_ID',
      description: "the organization it acts in (default: the sandbox's organization)",
    },
    'sub-orgs': {
      valueName: 'ID,ID',
      description:
        'hold it to these sub-organizations of its organization, as a member can be (default: all of them)',
    },
    'sub-org': {
      valueName: 'ID',
      description: 'the same, one sub-organization at a time (repeatable)',
      repeatable: true,
    },
    scope: {
      valueName: 'SCOPE',
      description: `what it may do: ${API_USER_SCOPES.join(' | ')} (default: create_and_approve, everything)`,
    },
    'allow-cidr': {
      valueName: 'CIDR',
      description:
        'a network its requests may come from, e.g. 203.0.113.0/24 (repeatable; default: anywhere)',
      repeatable: true,
    },
    expires: {
      valueName: 'ISO_TIME',
      description: 'when its key stops working, e.g. 2027-01-31T00:00:00Z (default: never)',
    },
  },
  validate(options) {
    const name = options.name?.trim() ?? '';
    if (name === '') throw new UsageError('--name must not be empty');
    if (name.length > MAX_NAME_LENGTH) {
      throw new UsageError(`--name must be at most ${MAX_NAME_LENGTH} characters`);
    }
    const subOrgs = options['sub-orgs'];
    if (subOrgs !== undefined && subOrgs.split(',').some((id) => id.trim() === ''))
      throw new UsageError('--sub-orgs must list sub-organization ids separated by commas');
    if (repeated(options['sub-org']).some((id) => id.trim() === ''))
      throw new UsageError('--sub-org must name a sub-organization id');
    if (options.scope !== undefined && !ApiUserScope.safeParse(options.scope).success)
      throw new UsageError(`--scope must be one of ${API_USER_SCOPES.join(', ')}`);
    for (const cidr of repeated(options['allow-cidr'])) {
      const parsed = AllowedNetwork.safeParse(cidr);
      if (!parsed.success)
        throw new UsageError(
          `--allow-cidr ${cidr}: ${parsed.error.issues[0]?.message ?? 'is not a network'}`,
        );
    }
    if (options.expires !== undefined && !IsoTimestamp.safeParse(options.expires).success)
      throw new UsageError(
        '--expires must be an ISO 8601 time with its offset, e.g. 2027-01-31T00:00:00Z',
      );
  },
  async run({ db, clock, io }, options) {
    const orgId = options.org ?? (await defaultOrganizationId(db));
    if (!orgId) throw new CliError('The sandbox has no organization to create the API user in');
    if (options.org) {
      const [org] = await db
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.id, options.org))
        .limit(1);
      if (!org) throw new CliError(`No organization with id "${options.org}"`);
    }
    const given = [
      ...(options['sub-orgs']?.split(',') ?? []),
      ...repeated(options['sub-org']),
    ].join(',');
    const subOrgIds = await checkedSubOrgs(db, orgId, given === '' ? undefined : given);
    const now = clock.now();
    const expiresAt = options.expires === undefined ? null : new Date(options.expires);
    if (expiresAt && expiresAt.getTime() <= now.getTime())
      throw new UsageError(`--expires must be in the future; ${options.expires} has passed`);
    const cidrs = repeated(options['allow-cidr']).map((c) => c.trim());
    const scope = ApiUserScope.parse(options.scope ?? 'create_and_approve');
    const user = await createApiUser(db, {
      orgId,
      name: (options.name ?? '').trim(),
      now,
      subOrgIds,
      scope,
      allowedCidrs: cidrs.length > 0 ? cidrs : null,
      expiresAt,
    });
    await recordAudit(db, {
      at: now,
      actorType: 'CLI',
      actorId: null,
      actorName: 'command line',
      action: 'api_user.create',
      entityType: 'API_USER',
      entityId: user.id,
      summary: `API user "${user.name}" created from the command line: scope ${scope}; ${
        subOrgIds ? `sub-organizations ${subOrgIds.join(', ')}` : 'every sub-organization'
      }; ${cidrs.length > 0 ? `networks ${cidrs.join(', ')}` : 'any network'}; ${
        expiresAt ? `expires ${expiresAt.toISOString()}` : 'no expiry'
      }`,
      outcome: 'success',
    });
    io.stderr(
      `Created API user "${user.name}" (id ${user.id}) in organization ${user.orgId}. ` +
        'The private key is not stored anywhere: keep this output safe.',
    );
    io.stdout(JSON.stringify({ apiKey: user.apiKey, privateKeyHex: user.privateKeyHex }));
  },
};

/** `--sub-orgs a,b`: each a sub-organization of the API user's organization; null when not given. */
async function checkedSubOrgs(
  db: Database,
  orgId: string,
  given: string | undefined,
): Promise<string[] | null> {
  if (given === undefined) return null;
  const ids = [...new Set(given.split(',').map((s) => s.trim()))];
  const found = await db
    .select({ id: subOrgs.id })
    .from(subOrgs)
    .where(and(eq(subOrgs.orgId, orgId), inArray(subOrgs.id, ids)));
  const missing = ids.filter((id) => !found.some((row) => row.id === id));
  if (missing.length > 0)
    throw new CliError(`No sub-organization ${missing.join(', ')} in organization ${orgId}`);
  return ids;
}

/** `api-users revoke --id ID`: its key is refused (401) from now on; the row stays. */
export const apiUsersRevoke: CliCommand = {
  group: 'api-users',
  action: 'revoke',
  summary: 'Revoke an API user: its key is refused from now on (the row is kept for the audit log)',
  needs: 'sandbox',
  options: {
    id: { valueName: 'ID', description: 'the API user to revoke', required: true },
  },
  validate(options) {
    if ((options.id ?? '').trim() === '') throw new UsageError('--id must not be empty');
  },
  async run({ db, clock, io }, options) {
    const id = (options.id ?? '').trim();
    const [row] = await db
      .select({ name: apiUsers.name, revokedAt: apiUsers.revokedAt })
      .from(apiUsers)
      .where(eq(apiUsers.id, id))
      .limit(1);
    if (!row) throw new CliError(`--id: no API user with id "${id}"`);
    if (row.revokedAt)
      throw new CliError(
        `API user "${row.name}" was already revoked at ${row.revokedAt.toISOString()}`,
      );
    const now = clock.now();
    await revokeApiUser(db, id, now);
    await recordAudit(db, {
      at: now,
      actorType: 'CLI',
      actorId: null,
      actorName: 'command line',
      action: 'api_user.revoke',
      entityType: 'API_USER',
      entityId: id,
      summary: `API user "${row.name}" revoked from the command line: its key is refused from now on`,
      outcome: 'success',
    });
    io.stderr(`Revoked API user "${row.name}" (id ${id}).`);
    io.stdout(JSON.stringify({ id, revokedAt: now.toISOString() }));
  },
};
