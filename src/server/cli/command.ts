import type { Clock } from '../clock.ts';
import type { Database } from '../db/client.ts';
import type { AppConfig } from '../env.ts';

/**
 * One `npm run cli -- <group> <action> [--option value…]` command. Each lives
 * in its own file under src/server/cli/ and is listed in commands.ts; run.ts
 * does the rest (argument parsing, --help, opening and migrating the database
 * with the server's own configuration, exit codes).
 */

export interface CliIo {
  /** The command's result, for scripts: what a caller pipes or parses. */
  stdout(text: string): void;
  /** Progress and errors, for people. */
  stderr(text: string): void;
  /** All of standard input (e.g. a password piped in), read on demand. */
  readStdin(): Promise<string>;
  env: Record<string, string | undefined>;
  cwd: string;
}

interface CliOption {
  description: string;
  /** Shown in usage: `--name NAME`. */
  valueName: string;
  required?: boolean;
  /** May be given more than once: its values reach the command joined by line breaks (`repeated`). */
  repeatable?: true;
}

interface CliRunContext {
  db: Database;
  /** The CLI's one clock (clock.ts): what the rows a command writes are stamped with. */
  clock: Clock;
  config: AppConfig;
  io: CliIo;
}

export interface CliCommand {
  group: string;
  action: string;
  summary: string;
  /** String-valued options only; every one is `--key value` (a repeatable one, once or more). */
  options: Record<string, CliOption>;
  /**
   * 'sandbox': needs the sandbox's tables, so it is refused with
   * CUSTODY_BACKEND=upstream. 'console': the console's own tables only.
   */
  needs: 'sandbox' | 'console';
  /** Checks the options before the database is opened; throw UsageError to refuse. */
  validate?(options: Record<string, string>): void;
  run(ctx: CliRunContext, options: Record<string, string>): Promise<void>;
}

/** Bad arguments: exit code 2, with the usage. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A refusal the user can act on (exit code 1, the message alone, no stack). */
export class CliError extends Error {
  override name = 'CliError';
}

/** A repeatable option's values, in the order given; none when it was not. */
export function repeated(value: string | undefined): string[] {
  return value === undefined ? [] : value.split('\n');
}
