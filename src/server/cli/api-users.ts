import { and, eq, inArray } from 'drizzle-orm';
import { createApiUser, defaultOrganizationId } from '../custody/sandbox/api-users.store.ts';
import type { Database } from '../db/client.ts';
import { organizations, subOrgs } from '../db/schema/sandbox.ts';
import { CliError, UsageError, type CliCommand } from './command.ts';

const MAX_NAME_LENGTH = 120;

/**
 * `api-users create --name NAME [--org ORG_ID]`: an API user of the sandbox.
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
    const subOrgIds = await checkedSubOrgs(db, orgId, options['sub-orgs']);
    const user = await createApiUser(db, {
      orgId,
      name: (options.name ?? '').trim(),
      now: clock.now(),
      subOrgIds,
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
