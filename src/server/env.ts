import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  APPROVAL_SIGNING_MODES,
  SECOND_FACTOR_POLICIES,
  type ApprovalSigning,
  type SecondFactorPolicy,
} from './auth/second-factor.ts';
import { parsePrivateKey } from './protocol/ecdsa-keys.ts';

/**
 * The only reader of the server's settings. Everything the server needs from
 * its environment is validated here once, at boot, so a bad value stops the
 * server with a message naming the variable instead of failing on first use.
 * Each setting is documented in docs/configuration.md (scripts/docs.test.ts
 * holds the two together); the few diagnostics and bench knobs read where
 * they are used are listed there too, as what they are: not settings.
 */

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const EnvSchema = z.object({
  PORT: z
    .string()
    .regex(/^\d+$/, 'must be a whole number from 0 to 65535')
    .transform((s) => Number.parseInt(s, 10))
    .pipe(z.number().int().min(0).max(65535, 'must be a whole number from 0 to 65535'))
    .default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  CUSTODY_BACKEND: z.enum(['sandbox', 'upstream']).default('sandbox'),
  CUSTODY_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),
  CUSTODY_API_KEY: z.string().min(1).optional(),
  CUSTODY_PRIVATE_KEY: z.string().min(1).optional(),
  CUSTODY_PRIVATE_KEY_FILE: z.string().min(1).optional(),
  CUSTODY_TIMEOUT_MS: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of milliseconds from 1 to 600000')
    .transform((s) => Number.parseInt(s, 10))
    .pipe(
      z
        .number()
        .int()
        .min(1)
        .max(600_000, 'must be a whole number of milliseconds from 1 to 600000'),
    )
    .default(15_000),
  SANDBOX_TIME_SCALE: z
    .string()
    .regex(/^\d+(\.\d+)?$/, 'must be a number greater than 0, like 1 or 60')
    .transform((s) => Number(s))
    .pipe(z.number().positive('must be a number greater than 0, like 1 or 60'))
    .default(1),
  // Percent, as a decimal string: compared through the decimal module, never as a JS number.
  RAMP_RATE_TOLERANCE_PERCENT: z
    .string()
    .regex(/^\d{1,2}(\.\d{1,4})?$/, 'must be a percentage from 0 to 99.9999, like 0.5')
    .default('0.5'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  STATIC_DIR: z.string().min(1).default('dist/web'),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .refine((u) => ['', '/'].includes(new URL(u).pathname) && !new URL(u).search, {
      error: 'must be an origin only, like https://console.example.com, without a path',
    })
    .transform((u) => new URL(u).origin)
    .optional(),
  // Believe X-Forwarded-Proto/-Host/-For: only when proxies in front set them,
  // or any client could claim HTTPS or another address. A number says how many
  // proxies append to X-Forwarded-For (auth/csrf.ts clientIp); true is one.
  TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|\d)$/,
      'must be true, false, or how many proxies are in front of the console (0 to 9)',
    )
    .transform((s) => (s === 'true' ? 1 : s === 'false' ? 0 : Number(s)))
    .default(0),
  // Who must have a second factor (TOTP) to sign in: approvers and admins, every member, or
  // nobody (a member who set one up is still asked for it).
  STAFF_SECOND_FACTOR: z
    .enum(SECOND_FACTOR_POLICIES, { error: 'must be privileged, all or optional' })
    .default('privileged'),
  // How long, in ms, the request thread waits in all for the statements of a transaction it holds
  // open on the embedded database before it awaits them as any other answer (db/pglite-remote.ts,
  // WAIT_LIMITS): a figure for tuning under the bench, whose embedded-database sections pass it on.
  PGLITE_TRANSACTION_WAIT_MS: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of milliseconds from 0 to 1000')
    .transform((s) => Number.parseInt(s, 10))
    .pipe(
      z.number().int().min(0).max(1000, 'must be a whole number of milliseconds from 0 to 1000'),
    )
    .default(25),
  // Whether approvers and admins without a passkey are reminded on every page to register one.
  STAFF_PASSKEY_PROMPT: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  // Who signs approvals with a passkey: `registered`, a member with a passkey signs every
  // decision; `required`, every staff decision is signed (one without a passkey must register one).
  APPROVAL_SIGNING: z
    .enum(APPROVAL_SIGNING_MODES, { error: 'must be registered or required' })
    .default('registered'),
  // The read cache (db/read-cache.ts); off, every read goes to the database (to rule the cache out).
  READ_CACHE: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  // Webhooks. The sandbox refuses endpoints on private, loopback, link-local or
  // metadata addresses (SSRF) unless this is 1: a receiver on this machine, in development.
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['0', '1'], { error: 'must be 0 or 1' }).default('0'),
  // How long one delivery attempt may take, connection to last byte.
  WEBHOOK_TIMEOUT_MS: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of milliseconds from 100 to 60000')
    .transform((s) => Number.parseInt(s, 10))
    .pipe(
      z
        .number()
        .int()
        .min(100)
        .max(60_000, 'must be a whole number of milliseconds from 100 to 60000'),
    )
    .default(10_000),
  // How often a single sign-on's session is checked with the company's provider.
  SSO_CHECK_SECONDS: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of seconds from 30 to 86400')
    .transform((s) => Number.parseInt(s, 10))
    .pipe(
      z
        .number()
        .int()
        .min(30, 'must be a whole number of seconds from 30 to 86400')
        .max(86_400, 'must be a whole number of seconds from 30 to 86400'),
    )
    .default(300),
  // Where a notification's link leads: the console as its readers reach it.
  NOTIFICATION_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  // How long a transaction may sit in one status (not waiting for approval) before it is "stuck".
  NOTIFICATION_STUCK_MINUTES: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of minutes from 1 to 10080')
    .transform((s) => Number.parseInt(s, 10))
    .pipe(
      z
        .number()
        .int()
        .min(1, 'must be a whole number of minutes from 1 to 10080')
        .max(10_080, 'must be a whole number of minutes from 1 to 10080'),
    )
    .default(60),
  // The key the console's receiver (/api/webhooks/custody/) verifies X-Signature with: the
  // custody service's webhook verification key. Unset: the receiver accepts nothing.
  CUSTODY_WEBHOOK_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
});

type CustodyConfig =
  | { backend: 'sandbox' }
  | {
      backend: 'upstream';
      baseUrl: string;
      apiKey: string;
      /** PKCS#8 DER hex or PEM, from CUSTODY_PRIVATE_KEY or the file CUSTODY_PRIVATE_KEY_FILE names. */
      privateKey: string;
      /** CUSTODY_TIMEOUT_MS: how long one upstream request may take. */
      timeoutMs: number;
    };

export interface AppConfig {
  port: number;
  host: string;
  /** Absolute path of the embedded PGlite database directory. */
  dataDir: string;
  /** When set, PostgreSQL is used instead of PGlite. */
  databaseUrl: string | undefined;
  custody: CustodyConfig;
  sandbox: {
    timeScale: number;
    /** How far (percent) a ramp's re-quoted rate may move before an approver must accept it. */
    rampRateTolerancePercent: string;
  };
  logLevel: LogLevel;
  /** Absolute path of the built SPA. */
  staticDir: string;
  /**
   * How many proxies in front append to X-Forwarded-For; above 0, X-Forwarded-*
   * headers are honoured (secure cookies, HSTS, CSRF origin, client address).
   */
  trustProxy: number;
  /** PUBLIC_URL's origin; unset means the listen address (http/public-origin.ts). */
  publicUrl: string | undefined;
  /** STAFF_SECOND_FACTOR: who must have a second factor to sign in. */
  secondFactor: SecondFactorPolicy;
  /** STAFF_PASSKEY_PROMPT: approvers and admins without a passkey are reminded to register one. */
  passkeyPrompt: boolean;
  /** APPROVAL_SIGNING: which staff decisions must be signed with a passkey. */
  approvalSigning: ApprovalSigning;
  /** READ_CACHE: whether hot reads are reused while the database is unchanged (db/read-cache.ts). */
  readCache: boolean;
  /** PGLITE_TRANSACTION_WAIT_MS: a transaction's wait budget on the PGlite thread (db/pglite-remote.ts). */
  pgliteTransactionWaitMs: number;
  /** SSO_CHECK_SECONDS, in ms: how long a single sign-on's session goes before it is checked again. */
  ssoCheckMs: number;
  notifications: {
    /** NOTIFICATION_BASE_URL: the links' start; unset, PUBLIC_URL or the listen address. */
    baseUrl: string | undefined;
    /** NOTIFICATION_STUCK_MINUTES, in ms: a transaction this long in one status is stuck. */
    stuckAfterMs: number;
  };
  webhooks: {
    /** WEBHOOK_ALLOW_PRIVATE_TARGETS: endpoints may point at private and loopback addresses. */
    allowPrivateTargets: boolean;
    /** WEBHOOK_TIMEOUT_MS: one delivery attempt's deadline. */
    timeoutMs: number;
    /** CUSTODY_WEBHOOK_KEY: what the console's receiver verifies with; null: it accepts nothing. */
    receiverKey: string | null;
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Reads and validates the environment; throws ConfigError listing every problem at once. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  cwd: string = process.cwd(),
): AppConfig {
  // An empty value counts as "not set": `FOO= npm start` and env files with
  // blank entries are common and should fall back to the default.
  const raw: Record<string, string | undefined> = {};
  for (const key of Object.keys(EnvSchema.shape)) {
    const value = env[key]?.trim();
    raw[key] = value === '' ? undefined : value;
  }
  const parsed = EnvSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const key = String(issue.path[0] ?? 'environment');
        // Never echo secrets back into logs.
        const shown =
          key.startsWith('CUSTODY_') || key === 'DATABASE_URL' ? '' : ` (got "${raw[key] ?? ''}")`;
        return `${key}: ${issue.message}${shown}`;
      }),
    );
  }
  const e = parsed.data;

  let custody: CustodyConfig = { backend: 'sandbox' };
  if (e.CUSTODY_BACKEND === 'upstream') {
    const problems = (['CUSTODY_BASE_URL', 'CUSTODY_API_KEY'] as const)
      .filter((k) => !e[k])
      .map((k) => `${k}: is required when CUSTODY_BACKEND=upstream`);
    const privateKey = readPrivateKey(e.CUSTODY_PRIVATE_KEY, e.CUSTODY_PRIVATE_KEY_FILE, cwd);
    if (typeof privateKey !== 'string') problems.push(privateKey.problem);
    if (problems.length > 0) throw new ConfigError(problems);
    custody = {
      backend: 'upstream',
      baseUrl: e.CUSTODY_BASE_URL ?? '',
      apiKey: e.CUSTODY_API_KEY ?? '',
      privateKey: privateKey as string,
      timeoutMs: e.CUSTODY_TIMEOUT_MS,
    };
  }

  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(cwd, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    custody,
    sandbox: {
      timeScale: e.SANDBOX_TIME_SCALE,
      rampRateTolerancePercent: e.RAMP_RATE_TOLERANCE_PERCENT,
    },
    logLevel: e.LOG_LEVEL,
    staticDir: path.resolve(cwd, e.STATIC_DIR),
    trustProxy: e.TRUST_PROXY,
    publicUrl: e.PUBLIC_URL,
    secondFactor: e.STAFF_SECOND_FACTOR,
    passkeyPrompt: e.STAFF_PASSKEY_PROMPT === 'on',
    approvalSigning: e.APPROVAL_SIGNING,
    readCache: e.READ_CACHE === 'on',
    pgliteTransactionWaitMs: e.PGLITE_TRANSACTION_WAIT_MS,
    ssoCheckMs: e.SSO_CHECK_SECONDS * 1000,
    notifications: {
      baseUrl: e.NOTIFICATION_BASE_URL,
      stuckAfterMs: e.NOTIFICATION_STUCK_MINUTES * 60_000,
    },
    webhooks: {
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS === '1',
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      receiverKey: e.CUSTODY_WEBHOOK_KEY ?? null,
    },
  };
}

/**
 * The API user's private key from the variable or the file it names, checked
 * to be a P-256 key now so that a bad one stops the server at boot. Problems
 * name the variable, never the key.
 */
function readPrivateKey(
  inline: string | undefined,
  file: string | undefined,
  cwd: string,
): string | { problem: string } {
  if (inline && file) {
    return {
      problem:
        'CUSTODY_PRIVATE_KEY_FILE: set either CUSTODY_PRIVATE_KEY or CUSTODY_PRIVATE_KEY_FILE, not both',
    };
  }
  const name = file ? 'CUSTODY_PRIVATE_KEY_FILE' : 'CUSTODY_PRIVATE_KEY';
  let key = inline;
  if (file) {
    try {
      key = readFileSync(path.resolve(cwd, file), 'utf8').trim();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      return { problem: `${name}: cannot read ${file} (${code})` };
    }
  }
  if (!key) {
    return {
      problem:
        'CUSTODY_PRIVATE_KEY: is required when CUSTODY_BACKEND=upstream (or CUSTODY_PRIVATE_KEY_FILE)',
    };
  }
  try {
    parsePrivateKey(key);
  } catch (error) {
    return { problem: `${name}: ${(error as Error).message}` };
  }
  return key;
}
