/**
 * What a logged error may say. Database errors carry the query's parameters
 * (Drizzle's message ends "params: …" and keeps them in `params`; the
 * driver's error has `params`, `detail` such as "Key (k)=(value) already
 * exists", and messages that quote the offending value) — and a parameter may
 * be a full account number, a password hash or a token. Redaction by field
 * name cannot see into that text, so errors are written from an allow-list:
 * type, SQLSTATE and the names of the constraint, table and column, the query
 * text without its parameters, and messages and stacks with quoted values
 * withheld. Nothing else of an error object is logged.
 */

const MAX_CAUSES = 5;
const WITHHELD = '[withheld]';

/** The fields of a PostgreSQL error (pg and PGlite alike) that name things, never values. */
const NAMING_FIELDS = [
  'code',
  'severity',
  'routine',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
] as const;

type ErrorLike = Error & Record<string, unknown>;

/** A database error: it carries the query (Drizzle, pg, PGlite) or a SQLSTATE. */
function fromDatabase(error: ErrorLike): boolean {
  return (
    'params' in error ||
    'query' in error ||
    (typeof error.code === 'string' && /^[0-9A-Z]{5}$/.test(error.code) && 'severity' in error)
  );
}

/**
 * The message with every double-quoted span withheld, except the error's own
 * identifiers: PostgreSQL quotes the value it refused (`invalid input syntax
 * for type uuid: "…"`), and Node's JSON errors quote the text they choked on.
 */
function withholdQuoted(message: string, error: ErrorLike): string {
  const names = new Set(
    NAMING_FIELDS.map((f) => error[f]).filter((v): v is string => typeof v === 'string'),
  );
  return message.replace(/"([^"]*)"/g, (span, inner: string) =>
    names.has(inner) ? span : `"${WITHHELD}"`,
  );
}

function safeMessage(error: ErrorLike): string {
  const message = String(error.message ?? '');
  if (fromDatabase(error)) {
    // Drizzle: "Failed query: <sql>\nparams: <values>". The SQL has placeholders only.
    const withoutParams = message.replace(/\nparams:[\s\S]*$/, '');
    return withholdQuoted(withoutParams, error);
  }
  if (error instanceof SyntaxError) return withholdQuoted(message, error);
  return message;
}

/** The stack's frames under a safe first line: V8 starts a stack with the whole message. */
function safeStack(error: ErrorLike, message: string): string | undefined {
  if (typeof error.stack !== 'string') return undefined;
  const firstFrame = error.stack.search(/\n\s+at /);
  const frames = firstFrame >= 0 ? error.stack.slice(firstFrame) : '';
  return `${error.name}: ${message}${frames}`;
}

export interface LoggedError {
  type: string;
  message: string;
  stack?: string;
  cause?: LoggedError;
  [naming: string]: unknown;
}

export function serializeError(value: unknown, depth = 0): LoggedError {
  if (!(value instanceof Error)) {
    // A thrown non-Error could be anything, a request body included.
    return { type: typeof value, message: WITHHELD };
  }
  const error = value as ErrorLike;
  const message = safeMessage(error);
  const out: LoggedError = { type: error.constructor?.name || error.name, message };
  for (const field of NAMING_FIELDS) {
    const v = error[field];
    if (typeof v === 'string' || typeof v === 'number') out[field] = v;
  }
  if (fromDatabase(error) && typeof error.query === 'string') out.query = error.query;
  const stack = safeStack(error, message);
  if (stack) out.stack = stack;
  if (error.cause !== undefined && depth < MAX_CAUSES)
    out.cause = serializeError(error.cause, depth + 1);
  return out;
}
