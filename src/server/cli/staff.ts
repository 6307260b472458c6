import { CliStaffCreateRequest, STAFF_ROLES, StaffCreateRequest } from '#contract/auth.ts';
import { recordAudit } from '../auth/audit.store.ts';
import { createStaff, toWireStaff } from '../auth/staff.store.ts';
import { ApiError } from '#contract/api-error.ts';
import { CliError, UsageError, type CliCommand } from './command.ts';

/**
 * `staff create --email E --name N --role R [--sub-orgs a,b]`, the password
 * read from standard input (never an argument: those end up in shell history
 * and `ps`). How the first admins exist before anyone can sign in (the
 * console's own creations wait for a second admin; this one is audited as the
 * command line's). Prints the member as one JSON line, without the password.
 */
export const staffCreate: CliCommand = {
  group: 'staff',
  action: 'create',
  summary: 'Create a staff member; the password is read from standard input',
  needs: 'console',
  options: {
    email: {
      valueName: 'EMAIL',
      description: 'sign-in email (case-insensitive, unique)',
      required: true,
    },
    name: {
      valueName: 'NAME',
      description: 'the name shown in the console and the audit log',
      required: true,
    },
    role: { valueName: 'ROLE', description: STAFF_ROLES.join(' | '), required: true },
    'sub-orgs': {
      valueName: 'IDS',
      description: 'comma-separated sub-organization ids they may act in (default: all)',
    },
  },
  validate(options) {
    const parsed = StaffCreateRequest.safeParse(toRequest(options));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UsageError(
        `--${String(issue?.path[0] ?? 'option').replace('subOrgIds', 'sub-orgs')}: ${issue?.message ?? 'is not valid'}`,
      );
    }
  },
  async run({ db, clock, io }, options) {
    // One trailing newline is how `echo` and a terminal end the input; it is not part of the password.
    const password = (await io.readStdin()).replace(/\r?\n$/, '');
    const parsed = CliStaffCreateRequest.safeParse({ ...toRequest(options), password });
    if (!parsed.success) {
      throw new CliError(
        `The password read from standard input is not acceptable: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      );
    }
    try {
      const now = clock.now();
      const member = await createStaff(db, parsed.data, { now });
      // How a new console gets its first admins, with no other admin to approve: on the
      // server's own machine, and on record as the command line's.
      await recordAudit(db, {
        at: now,
        actorType: 'CLI',
        actorId: null,
        actorName: 'command line',
        action: 'staff.create',
        entityType: 'STAFF',
        entityId: member.id,
        summary: `Created ${member.email} as ${member.role} (${member.subOrgIds ? `sub-orgs ${member.subOrgIds.join(', ')}` : 'all sub-orgs'}) from the command line`,
        outcome: 'success',
      });
      io.stderr(`Created staff member ${member.email} (${member.role}).`);
      io.stdout(JSON.stringify(toWireStaff(member)));
    } catch (error) {
      if (error instanceof ApiError) throw new CliError(error.message);
      throw error;
    }
  },
};

function toRequest(options: Record<string, string>) {
  const subOrgs = options['sub-orgs'];
  return {
    email: options['email'] ?? '',
    name: options['name'] ?? '',
    role: options['role'] ?? '',
    subOrgIds:
      subOrgs === undefined
        ? null
        : subOrgs
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
  };
}
