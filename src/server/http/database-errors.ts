/**
 * PostgreSQL's SQLSTATE class 22, "data exception": the database refused a
 * value (an impossible date, a NUL byte in text, a number out of range). The
 * routes validate what they can first; this is the net under them, so bad
 * input that still reaches the database is a 400, never a 500.
 */
export function isDataException(error: unknown): boolean {
  return dataException(error) !== undefined;
}

function dataException(error: unknown): { code: string; column?: unknown } | undefined {
  let current: unknown = error;
  // Drizzle wraps the driver's error in `cause`.
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    const { code, column } = current as { code?: unknown; column?: unknown };
    if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) return { code, column };
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The client's message for a data exception: the column when the database
 * names it, never the value (the error's own text may quote it; see
 * src/server/logged-error.ts for what the log keeps).
 */
export function dataExceptionMessage(error: unknown): string {
  const column = dataException(error)?.column;
  return typeof column === 'string' && column !== ''
    ? `${column} has a value the database cannot accept`
    : 'A parameter has a value the database cannot accept';
}

/**
 * The database could not be reached or dropped the connection: PostgreSQL
 * stopped, restarting, failing over, or a backend terminated. Not the
 * request's fault and not a bug: 503 DATABASE_UNAVAILABLE with a
 * `Retry-After` (app.ts), and the same request later succeeds once the
 * database is back (the pool opens new connections; db/client.ts).
 *
 * - SQLSTATE class 08 (connection exception), 57P01 admin shutdown (also
 *   `pg_terminate_backend`), 57P02 crash shutdown, 57P03 cannot connect now
 *   (starting up, shutting down), 53300 too many connections;
 * - the socket's own failures (refused, reset, unreachable, timed out);
 * - `pg`'s errors for a connection that ended or a pool that found none in
 *   time (they carry no code, only their message).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  // Drizzle wraps the driver's error in `cause`; a refused connection to a
  // host with several addresses is an AggregateError of one per address.
  while (pending.length > 0 && seen.size < 20) {
    const current = pending.shift();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const { code, message, cause, errors } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || SOCKET_CODES.has(code)))
      return true;
    if (typeof message === 'string' && PG_CONNECTION_MESSAGES.test(message)) return true;
    pending.push(cause);
    if (Array.isArray(errors)) pending.push(...(errors as unknown[]));
  }
  return false;
}

const UNAVAILABLE_SQLSTATE = /^(?:08[0-9A-Z]{3}|57P0[123]|53300)$/;
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EAI_AGAIN',
]);
// pg 8's own wording: a connection that ended under a query, a client whose
// connection failed earlier, a connect or checkout that timed out.
const PG_CONNECTION_MESSAGES =
  /^(?:Connection terminated|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Connection terminated due to connection timeout)/;

/** Seconds a client should wait before trying again while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
