import * as z from 'zod/mini';
import { PasswordChangeRequest } from '#contract/auth.ts';
import { recordAudit } from '../auth/audit.store.ts';
import { replacePassword, resetFactor } from '../auth/credentials.ts';
import { findStaffByEmail, type StaffRecord } from '../auth/staff.store.ts';
import type { Database } from '../db/client.ts';
import { CliError, UsageError, type CliCommand } from './command.ts';

/**
 * `staff reset-factor --email E` and `staff reset-password --email E`: what
 * an administrator at the server does for a member who lost their phone (and
 * their recovery codes) or their password. Each ends the member's sessions
 * and open sign-in steps, and is audited as the CLI's.
 */

const EMAIL = {
  email: {
    valueName: 'EMAIL',
    description: "the member's sign-in email",
    required: true,
  },
};

const Email = z.string().check(z.trim(), z.toLowerCase(), z.regex(z.regexes.email));

function validateEmail(options: Record<string, string>): void {
  if (!Email.safeParse(options['email'] ?? '').success)
    throw new UsageError('--email: email must be an email address');
}

async function memberOf(db: Database, email: string): Promise<StaffRecord> {
  const member = await findStaffByEmail(db, email);
  if (!member) throw new CliError(`No staff member with email ${email.trim().toLowerCase()}`);
  return member;
}

function audited(member: StaffRecord, action: string, summary: string, at: Date) {
  return {
    at,
    actorType: 'CLI',
    actorId: null,
    actorName: 'command line',
    action,
    entityType: 'STAFF',
    entityId: member.id,
    summary,
    outcome: 'success' as const,
  };
}

export const staffResetFactor: CliCommand = {
  group: 'staff',
  action: 'reset-factor',
  summary:
    "Clear a member's second factor, recovery codes and passkeys; they set up a new one at their next sign-in",
  needs: 'console',
  options: EMAIL,
  validate: validateEmail,
  async run({ db, clock, io }, options) {
    const member = await memberOf(db, options['email'] ?? '');
    const now = clock.now();
    const { hadFactor, passkeysRemoved, sessionsEnded } = await resetFactor(db, member.id, now);
    const passkeys = passkeysRemoved > 0 ? ` and ${passkeysRemoved} passkey(s)` : '';
    await recordAudit(
      db,
      audited(
        member,
        'staff.reset_factor',
        `Second factor${passkeys} of ${member.email} reset from the command line${hadFactor ? '' : ' (none was set up)'}; ${sessionsEnded} session(s) ended`,
        now,
      ),
    );
    io.stderr(
      hadFactor
        ? `Cleared the second factor${passkeys} of ${member.email}; ${sessionsEnded} session(s) ended. They set up a new one at their next sign-in.`
        : `${member.email} had no second factor; ${sessionsEnded} session(s) ended.`,
    );
    io.stdout(JSON.stringify({ email: member.email, hadFactor, sessionsEnded }));
  },
};

export const staffResetPassword: CliCommand = {
  group: 'staff',
  action: 'reset-password',
  summary: "Set a member's password, read from standard input; ends their sessions",
  needs: 'console',
  options: EMAIL,
  validate: validateEmail,
  async run({ db, clock, io }, options) {
    // One trailing newline is how `echo` and a terminal end the input; it is not part of the password.
    const password = (await io.readStdin()).replace(/\r?\n$/, '');
    const rule = PasswordChangeRequest.shape.newPassword.safeParse(password);
    if (!rule.success)
      throw new CliError(
        `The password read from standard input is not acceptable: ${(rule.error.issues[0]?.message ?? 'invalid').replace('newPassword', 'password')}`,
      );
    const member = await memberOf(db, options['email'] ?? '');
    const now = clock.now();
    const sessionsEnded = (await replacePassword(db, member.id, password, now, null)).length;
    await recordAudit(
      db,
      audited(
        member,
        'staff.reset_password',
        `Password of ${member.email} reset from the command line; ${sessionsEnded} session(s) ended`,
        now,
      ),
    );
    io.stderr(`Set a new password for ${member.email}; ${sessionsEnded} session(s) ended.`);
    io.stdout(JSON.stringify({ email: member.email, sessionsEnded }));
  },
};
