import { parseArgs } from 'node:util';
import { systemClock } from '../clock.ts';
import { seedSandbox } from '../custody/sandbox/seed.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import { openDatabase, type MigrationTrack } from '../db/client.ts';
import { ConfigError, loadConfig, type AppConfig } from '../env.ts';
import { CliError, UsageError, type CliCommand, type CliIo } from './command.ts';
import { COMMANDS } from './commands.ts';

/**
 * `npm run cli -- <group> <action> [options]`. Exit codes: 0 done, 1 the
 * command could not be carried out (the message says why), 2 bad arguments.
 * The database is the server's: the same DATA_DIR / DATABASE_URL rules, and
 * it is migrated (and, in sandbox mode, seeded if empty) first, so a command
 * works on a fresh data directory before the server has ever run.
 */

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

const PROGRAM = 'npm run cli --';

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  // What a usage error shows: narrowed as the arguments name a group, then a command.
  let help = overview();
  try {
    const [group, action, ...rest] = argv;
    if (group === undefined || isHelp(group)) {
      (group === undefined ? io.stderr : io.stdout)(overview());
      return group === undefined ? EXIT_USAGE : EXIT_OK;
    }
    const inGroup = COMMANDS.filter((c) => c.group === group);
    if (inGroup.length === 0) throw new UsageError(`Unknown command "${group}"`);
    help = overview(inGroup);
    if (action === undefined || isHelp(action)) {
      (action === undefined ? io.stderr : io.stdout)(overview(inGroup));
      return action === undefined ? EXIT_USAGE : EXIT_OK;
    }
    const command = inGroup.find((c) => c.action === action);
    if (!command) throw new UsageError(`Unknown command "${group} ${action}"`);
    help = usage(command);

    const options = parseOptions(command, rest);
    if (options === 'help') {
      io.stdout(usage(command));
      return EXIT_OK;
    }
    command.validate?.(options);
    return await execute(command, options, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`Error: ${error.message}\n\n${help}`);
      return EXIT_USAGE;
    }
    throw error;
  }
}

function isHelp(arg: string): boolean {
  return arg === '--help' || arg === '-h' || arg === 'help';
}

function parseOptions(command: CliCommand, args: string[]): Record<string, string> | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h' },
        ...Object.fromEntries(
          Object.entries(command.options).map(([k, option]) => [
            k,
            { type: 'string' as const, multiple: option.repeatable === true },
          ]),
        ),
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.values.help) return 'help';
  const options: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed.values)) {
    if (typeof value === 'string') options[key] = value;
    // A repeatable option's values, joined by line breaks: no id or network holds one.
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
      options[key] = value.join('\n');
  }
  const missing = Object.entries(command.options)
    .filter(([key, option]) => option.required && options[key] === undefined)
    .map(([key, option]) => `--${key} ${option.valueName}`);
  if (missing.length > 0) {
    throw new UsageError(`${missing.join(', ')} is required`);
  }
  return options;
}

async function execute(
  command: CliCommand,
  options: Record<string, string>,
  io: CliIo,
): Promise<number> {
  let config: AppConfig;
  try {
    config = loadConfig(io.env, io.cwd);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(error.message);
      return EXIT_FAILED;
    }
    throw error;
  }
  const sandbox = config.custody.backend === 'sandbox';
  if (command.needs === 'sandbox' && !sandbox) {
    io.stderr(
      `"${command.group} ${command.action}" works on the embedded sandbox only; CUSTODY_BACKEND is upstream`,
    );
    return EXIT_FAILED;
  }

  io.stderr(
    `Opening the database (${config.databaseUrl ? 'PostgreSQL, DATABASE_URL' : `PGlite in ${config.dataDir}`})`,
  );
  let database;
  try {
    database = await openDatabase(config);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      io.stderr(`Error: ${error.message}`);
      return EXIT_FAILED;
    }
    throw error;
  }
  // The one clock of this entry point (clock.ts), as server.ts makes its own.
  const clock = systemClock;
  try {
    const tracks: MigrationTrack[] = sandbox ? ['console', 'sandbox'] : ['console'];
    await database.migrate(tracks);
    if (sandbox) {
      const seeded = await database.withStartupLock((db) => seedSandbox(db, { now: clock.now() }));
      if (seeded.seeded) io.stderr('The sandbox was empty: seeded it with demo data');
    }
    await command.run({ db: database.db, clock, config, io }, options);
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(`Error: ${error.message}`);
      return EXIT_FAILED;
    }
    throw error;
  } finally {
    await database.close();
  }
}

function usage(command: CliCommand): string {
  const synopsis = Object.entries(command.options)
    .map(([key, o]) => {
      const one = o.required ? `--${key} ${o.valueName}` : `[--${key} ${o.valueName}]`;
      return o.repeatable ? `${one}…` : one;
    })
    .join(' ');
  const lines = Object.entries(command.options).map(
    ([key, o]) => `  --${`${key} ${o.valueName}`.padEnd(20)} ${o.description}`,
  );
  return [
    `Usage: ${PROGRAM} ${command.group} ${command.action} ${synopsis}`,
    '',
    command.summary,
    '',
    ...lines,
    `  ${'-h, --help'.padEnd(22)} show this help`,
  ].join('\n');
}

function overview(commands: readonly CliCommand[] = COMMANDS): string {
  const width = Math.max(...commands.map((c) => `${c.group} ${c.action}`.length));
  return [
    `Usage: ${PROGRAM} <command> [options]`,
    '',
    'Commands:',
    ...commands.map((c) => `  ${`${c.group} ${c.action}`.padEnd(width)}  ${c.summary}`),
    '',
    `Run "${PROGRAM} <command> --help" for its options. The database is the server's:`,
    'DATA_DIR (PGlite, the default ./.data) or DATABASE_URL (PostgreSQL), as for `npm start`.',
  ].join('\n');
}
