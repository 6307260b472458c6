import { Hono, type MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { describe, expect, it } from 'vitest';
import { shareAnswer } from '../db/read-cache.ts';
import { compressJson } from './compress-json.ts';
import { SECURITY_HEADER_RECORDS, securityHeaders } from './security-headers.ts';

// What the server sent before its headers were written out once: hono's own middleware.
function honoSecurityHeaders(overHttps: boolean): MiddlewareHandler {
  const headers = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    referrerPolicy: 'same-origin',
    xFrameOptions: 'DENY',
    strictTransportSecurity: false,
  });
  return async (c, next) => {
    await headers(c, next);
    if (overHttps) c.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  };
}

const rows = Array.from({ length: 80 }, (_, i) => ({ id: `tx-${i}`, amount: `${i}.5` }));
const page = { rows };
shareAnswer(page);

/** The answers whose headers are compared: a shared page, a small JSON error, text, cookies. */
function routes(app: Hono): Hono {
  return app
    .get('/api/page', (c) => c.json(page))
    .get('/api/fresh', (c) => c.json({ rows: [...rows] }))
    .get('/api/missing', (c) => c.json({ message: 'No such thing', code: 'NOT_FOUND' }, 404))
    .get('/api/cookies', (c) => {
      c.header('Set-Cookie', 'a=1; Path=/', { append: true });
      c.header('Set-Cookie', 'b=2; Path=/', { append: true });
      return c.json(page);
    })
    .get('/api/tagged', (c) => {
      c.header('ETag', 'W/"abc"');
      c.header('Vary', 'Cookie');
      return c.json(page);
    })
    .get('/page', (c) => c.html('<p>hello</p>'));
}

function before(overHttps: boolean): Hono {
  const app = new Hono();
  app.use((c, next) => {
    c.header('X-Request-Id', 'req-1');
    return next();
  });
  app.use(honoSecurityHeaders(overHttps));
  app.use('/api/*', compressJson());
  return routes(app);
}

function after(overHttps: boolean): Hono {
  const app = new Hono();
  app.use((c, next) => {
    c.header('X-Request-Id', 'req-1');
    return next();
  });
  app.use(securityHeaders(() => overHttps));
  app.use(
    '/api/*',
    compressJson({ securityHeaders: () => SECURITY_HEADER_RECORDS[overHttps ? 'https' : 'http'] }),
  );
  return routes(app);
}

async function seen(app: Hono, path: string, encoding: string) {
  const res = await app.request(path, { headers: { 'Accept-Encoding': encoding } });
  const headers = [...res.headers].sort(([a], [b]) => a.localeCompare(b));
  return {
    status: res.status,
    headers,
    cookies: res.headers.getSetCookie(),
    // arrayBuffer, not bytes(): once a server has started in this worker, the global Response is
    // the node adapter's, which has no bytes().
    body: new Uint8Array(await res.arrayBuffer()),
  };
}

describe('security headers', () => {
  for (const overHttps of [false, true])
    for (const path of [
      '/api/page',
      '/api/fresh',
      '/api/missing',
      '/api/cookies',
      '/api/tagged',
      '/page',
    ])
      for (const encoding of ['identity', 'br', 'gzip'])
        it(`${path} (${encoding}${overHttps ? ', HTTPS' : ''}): every header and byte as hono's middleware sent them`, async () => {
          const was = await seen(before(overHttps), path, encoding);
          const now = await seen(after(overHttps), path, encoding);
          expect(now.headers).toEqual(was.headers);
          expect(now.cookies).toEqual(was.cookies);
          expect(now.status).toBe(was.status);
          expect(Buffer.from(now.body).equals(Buffer.from(was.body))).toBe(true);
          expect(now.headers.map(([name]) => name)).toEqual(
            expect.arrayContaining(['content-security-policy', 'x-frame-options', 'x-request-id']),
          );
          if (overHttps)
            expect(now.headers.map(([name]) => name)).toContain('strict-transport-security');
        });
});
