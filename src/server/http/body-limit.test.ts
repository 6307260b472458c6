import { once } from 'node:events';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { SESSION_COOKIE } from '#contract/auth.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { auditLog } from '../db/schema/console.ts';
import { createTestApiUser, signedInit } from '../test/api-client.ts';
import { TEST_ORIGIN } from '../test/staff-session.ts';
import { appTestWith } from '../test/app-test.ts';
import { listen } from '../test/served.ts';
import { engineTest } from '../test/engine-test.ts';
import type { EngineFixture, EngineTestApp } from '../test/engine-test-app.ts';
import { MAX_API_BODY_BYTES, MAX_AUTH_BODY_BYTES } from './body-limit.ts';

/** A transfer whose memo pads the JSON body to exactly `bytes` bytes. */
function transferOfSize(f: EngineFixture, bytes: number): string {
  const body = (memo: string) =>
    JSON.stringify({
      category: 'TRANSFER',
      source: { type: 'VAULT', id: f.treasury.id },
      destination: { type: 'VAULT', id: f.ops.id },
      amount: '0.01',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      memo,
    });
  return body('x'.repeat(bytes - body('').length));
}

async function post(
  t: EngineTestApp,
  url: string,
  body: BodyInit,
  headers: Record<string, string> = {},
) {
  const res = await t.app.request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://localhost', ...headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  return { status: res.status, body: (await res.json()) as unknown };
}

function streamOf(text: string, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + chunk));
      offset += chunk;
    },
  });
}

describe('request body size limit', () => {
  engineTest(
    'an API body over the limit: 413 {message, code} before anything reads it',
    async ({ t, f }) => {
      const res = await post(t, paths.transactions(), transferOfSize(f, MAX_API_BODY_BYTES + 1));
      expect(res.status).toBe(413);
      const body = ApiErrorBody.parse(res.body);
      expect(body.code).toBe('BODY_TOO_LARGE');
      expect(body.message).toContain('1 MiB');
    },
  );

  engineTest(
    'a body sent in chunks without Content-Length is refused once it passes the limit',
    async ({ t }) => {
      const res = await post(
        t,
        paths.transactions(),
        streamOf('{"memo":"' + 'y'.repeat(3 * MAX_API_BODY_BYTES)),
      );
      expect(res.status).toBe(413);
      expect(ApiErrorBody.parse(res.body).code).toBe('BODY_TOO_LARGE');
    },
  );

  engineTest('a body of exactly the limit is read and judged on its content', async ({ t, f }) => {
    // A 500-character memo rule, not the size, refuses it.
    const res = await post(t, paths.transactions(), transferOfSize(f, MAX_API_BODY_BYTES));
    expect(res.status).toBe(400);
    expect(ApiErrorBody.parse(res.body).fields?.map((x) => x.field)).toEqual(['memo']);
  });

  engineTest('sign-in has its own, smaller limit', async ({ t }) => {
    const password = 'p'.repeat(MAX_AUTH_BODY_BYTES);
    const res = await post(t, '/auth/login', JSON.stringify({ email: 'a@b.example', password }));
    expect(res.status).toBe(413);
    expect(ApiErrorBody.parse(res.body)).toMatchObject({ code: 'BODY_TOO_LARGE' });
    expect(ApiErrorBody.parse(res.body).message).toContain('16 KiB');
  });
});

// Short, so that a stalled body's 408 comes quickly; the app's own is BODY_READ_TIMEOUT_MS.
const DEADLINE_MS = 300;
/** The app served over real HTTP (`port`), and an API client of it. */
const servedTest = appTestWith({ bodyReadTimeoutMs: DEADLINE_MS })
  .extend('client', { scope: 'file' }, ({ t }) => createTestApiUser(t, 'stalling client'))
  .extend('port', { scope: 'file' }, async ({ t }, { onCleanup }) => {
    const server = await listen(t.app);
    onCleanup(() => server.close());
    return server.port;
  });

describe('a body is read only for an identified caller, and only for so long (real HTTP)', () => {
  /**
   * A POST whose body never ends: the headers, `sent` bytes of it, then
   * nothing. Its answer, if any comes, is one the server gave without the body.
   */
  async function stalledPost(
    port: number,
    headers: Record<string, string>,
    sent = 64 * 1024,
  ): Promise<{ status: number; headers: IncomingMessage['headers']; body: unknown }> {
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: paths.transactions(),
      // The test app answers as http://localhost (PUBLIC_URL's stand-in).
      headers: { Host: 'localhost', 'Content-Type': 'application/json', ...headers },
    });
    req.on('error', () => {}); // the server may close the connection after answering
    req.write('{"memo":"' + 'x'.repeat(sent));
    try {
      const [res] = (await once(req, 'response')) as [IncomingMessage];
      const chunks: Buffer[] = [];
      for await (const chunk of res) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      return { status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) };
    } finally {
      req.destroy();
    }
  }

  const almostOneMiB = { 'Content-Length': String(MAX_API_BODY_BYTES - 1) };

  servedTest(
    'an anonymous caller gets its 401 at once, its body never read',
    async ({ client, port }) => {
      const expired = signedInit(
        client,
        'POST',
        paths.transactions(),
        {},
        {
          now: new Date(client.clock.now().getTime() - 3_600_000),
        },
      ).headers as Record<string, string>;
      const callers: Array<[string, Record<string, string>, string]> = [
        ['no credentials', {}, 'UNAUTHORIZED'],
        [
          'a made-up session cookie',
          { Cookie: `${SESSION_COOKIE}=${'A'.repeat(43)}` },
          'UNAUTHORIZED',
        ],
        [
          'an unknown Api-Key',
          { 'Api-Key': 'no-such-key', Authorization: 'Bearer x.y.z' },
          'UNKNOWN_API_KEY',
        ],
        [
          'a garbage token',
          { 'Api-Key': client.apiKey, Authorization: 'Bearer x.y.z' },
          'TOKEN_MALFORMED',
        ],
        [
          'an expired token',
          { 'Api-Key': client.apiKey, Authorization: expired['Authorization'] ?? '' },
          'TOKEN_EXPIRED',
        ],
      ];
      for (const [name, headers, code] of callers) {
        // Chunked as well as declared: neither is read.
        for (const framing of [almostOneMiB, { 'Transfer-Encoding': 'chunked' }]) {
          const res = await stalledPost(port, { ...headers, ...framing });
          expect(res.status, name).toBe(401);
          expect(ApiErrorBody.parse(res.body).code, name).toBe(code);
          // The rest is not read to keep the connection for another request: it closes.
          expect(res.headers['connection'], name).toBe('close');
        }
      }
    },
  );

  servedTest(
    "a signed-in member's body that stalls: 408 REQUEST_TIMEOUT, the connection closed, the refusal audited",
    async ({ t, port }) => {
      for (const framing of [almostOneMiB, { 'Transfer-Encoding': 'chunked' }]) {
        const res = await stalledPost(port, {
          Cookie: t.admin.cookie,
          'X-CSRF-Token': t.admin.csrfToken,
          Origin: TEST_ORIGIN,
          ...framing,
        });
        expect(res.status).toBe(408);
        expect(res.headers['connection']).toBe('close');
        expect(ApiErrorBody.parse(res.body)).toMatchObject({
          code: 'REQUEST_TIMEOUT',
          message: `The request body did not arrive within ${DEADLINE_MS / 1000} s; send it again`,
        });
        const requestId = String(res.headers['x-request-id']);
        const rows = await t.db.select().from(auditLog).where(eq(auditLog.requestId, requestId));
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({
          action: 'transaction.create',
          outcome: 'failed',
          actorType: 'STAFF',
        });
        expect(rows[0]?.summary).toMatch(/^Refused with 408 REQUEST_TIMEOUT/);
      }
    },
  );

  servedTest(
    "an API client's body is read once its token is proven, and held to the same deadline",
    async ({ client, port }) => {
      const headers = signedInit(client, 'POST', paths.transactions(), { memo: 'x' })
        .headers as Record<string, string>;
      const res = await stalledPost(port, { ...headers, ...almostOneMiB });
      expect(res.status).toBe(408);
      expect(ApiErrorBody.parse(res.body).code).toBe('REQUEST_TIMEOUT');
    },
  );
});
