import { eq } from 'drizzle-orm';
import { createApiUser, defaultOrganizationId } from '../custody/sandbox/api-users.store.ts';
import { organizations } from '../db/schema/sandbox.ts';
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
  },
  validate(options) {
    const name = options.name?.trim() ?? '';
    if (name === '') throw new UsageError('--name must not be empty');
    if (name.length > MAX_NAME_LENGTH) {
      throw new UsageError(`--name must be at most ${MAX_NAME_LENGTH} characters`);
    }
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
    const user = await createApiUser(db, {
      orgId,
      name: (options.name ?? '').trim(),
      now: clock.now(),
    });
    io.stderr(
      `Created API user "${user.name}" (id ${user.id}) in organization ${user.orgId}. ` +
        'The private key is not stored anywhere: keep this output safe.',
    );
    io.stdout(JSON.stringify({ apiKey: user.apiKey, privateKeyHex: user.privateKeyHex }));
  },
};
