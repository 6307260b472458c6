import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { AppEnv } from './app-env.ts';

/**
 * One line per request (`request`: method, path, status, ms, reqId), and the
 * request's logger in c.var.log for anything else a handler reports.
 *
 * Cheap by construction, since issue 14 measured logging halving the server's
 * ceiling: pino's redaction pass (logger.ts) cost about 130 µs a line, so the
 * request line, whose fields are fixed and carry nothing secret (the path
 * without its query, the id requestId() has already limited to [\w-=]), goes
 * through a child without it. Everything else still goes through redaction,
 * and the per-request child logger is only built if something logs through it.
 */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  const lines = logger.child({}, { redact: { paths: [] } });
  return async (c, next) => {
    const reqId = c.get('requestId');
    c.set('log', lazyChild(logger, { reqId }));
    const started = performance.now();
    await next();
    // Path only: query strings may carry identifiers clients consider private.
    lines.info(
      {
        reqId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round(performance.now() - started),
      },
      'request',
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
