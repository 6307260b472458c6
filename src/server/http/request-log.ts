import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { pino, type Logger } from 'pino';
import type { AppEnv } from './app-env.ts';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** A caller's request id worth logging: short, and nothing a log reader could misread. */
const CALLER_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The env key under which a request the app makes to itself (a server
 * render's reads: http/server-render.ts) names the request it is made for.
 * Only code in this process sets an env; no header can.
 */
export const PARENT_REQUEST_ID = 'parentRequestId';

/**
 * Every request's id is the server's own (a UUID): it is what the answer's
 * `X-Request-Id` says, what the audit log records, and what every log line
 * of the request names (`reqId`). A caller's own `X-Request-Id` (a proxy's,
 * a client's) is never the request's id — it would let a caller choose what
 * an audit row says — but when it is well-formed (1 to 64 characters of
 * `[A-Za-z0-9._-]`) it is logged beside it as `callerReqId`, so the caller's
 * logs and ours can be joined. A server render's reads carry the page
 * request's id, so their lines read together with it.
 */
export function requestIds(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const parent = (c.env as Record<string, unknown> | undefined)?.[PARENT_REQUEST_ID];
    const id = typeof parent === 'string' ? parent : randomUUID();
    c.set('requestId', id);
    const caller = c.req.header(REQUEST_ID_HEADER);
    if (caller !== undefined && CALLER_REQUEST_ID.test(caller)) c.set('callerRequestId', caller);
    c.header(REQUEST_ID_HEADER, id);
    await next();
  };
}

/**
 * One line per request (`request`: method, path, status, ms, reqId, and
 * callerReqId when the caller sent one), and the request's logger in c.var.log
 * for anything else a handler reports.
 *
 * Cheap by construction, since logging was measured halving the server's
 * ceiling: the request line's fields are fixed and carry nothing secret (the
 * path without its query, the ids requestIds() made or checked), so it is
 * written as pino would write it (requestLine) without pino's general path
 * (redaction, a serializer per field). Everything else a request logs goes
 * through the logger and its redaction, and the per-request child logger is
 * only built if something logs through it.
 */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  const line = requestLine(logger);
  return async (c, next) => {
    const reqId = c.get('requestId');
    const callerReqId = c.get('callerRequestId');
    c.set('log', lazyChild(logger, callerReqId === undefined ? { reqId } : { reqId, callerReqId }));
    const started = performance.now();
    await next();
    // Path only: query strings may carry identifiers clients consider private.
    line({
      reqId,
      callerReqId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round(performance.now() - started),
    });
  };
}

export interface RequestLineFields {
  reqId: string;
  callerReqId: string | undefined;
  method: string;
  path: string;
  status: number;
  ms: number;
}

/** The parts of a line pino keeps ready on each logger (its `symbols`), as it writes them. */
interface PinoLineParts {
  /** The line's start for each level's number: `{"level":30`. */
  [pino.symbols.lsCacheSym]: Record<number, string>;
  /** The configured time, as its field: `,"time":"…"` (logger.ts). */
  [pino.symbols.timeSym]: () => string;
  /** The logger's bindings, as fields: `,"service":"custody-console"`. */
  [pino.symbols.chindingsSym]: string;
  [pino.symbols.streamSym]: { write(line: string): void };
}

/**
 * Writes a request's line into `logger`'s destination, the same JSON, field
 * for field, that `logger.info({ reqId, callerReqId?, method, path, status,
 * ms }, 'request')` writes, from the parts pino keeps ready on the logger
 * (the level's start, the configured time, the bindings), at a third of
 * pino's cost: on a cached list answer pino's general path was about a sixth
 * of the request thread's work. Nothing here is redacted, so nothing but
 * these fields may ever be added; anything else goes through the logger.
 * Strings that are not ours (the path, the method) are escaped by
 * JSON.stringify.
 */
export function requestLine(logger: Logger): (fields: RequestLineFields) => void {
  const parts = logger as unknown as PinoLineParts;
  const destination = parts[pino.symbols.streamSym];
  const info = logger.levels.values['info'];
  if (!destination || info === undefined)
    throw new Error('the logger has no destination or no info level to write request lines at');
  return ({ reqId, callerReqId, method, path, status, ms }) => {
    if (!logger.isLevelEnabled('info')) return;
    const caller = callerReqId === undefined ? '' : `,"callerReqId":${JSON.stringify(callerReqId)}`;
    destination.write(
      `${parts[pino.symbols.lsCacheSym][info]}${parts[pino.symbols.timeSym]()}${parts[pino.symbols.chindingsSym]},"reqId":${JSON.stringify(reqId)}${caller},"method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"status":${status},"ms":${ms},"msg":"request"}\n`,
    );
  };
}

/** `logger.child(bindings)`, made on first use: most requests never log beyond their line. */
function lazyChild(logger: Logger, bindings: Record<string, unknown>): Logger {
  let child: Logger | undefined;
  return new Proxy(logger, {
    get(_target, key) {
      child ??= logger.child(bindings);
      const value: unknown = Reflect.get(child, key, child);
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(child)
        : value;
    },
  });
}
