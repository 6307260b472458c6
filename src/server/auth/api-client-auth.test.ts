import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths, toQueryString } from '#contract/paths.ts';
import { createApp } from '../app.ts';
import { createApiClientDirectory } from '../custody/sandbox/api-users.store.ts';
import { createUpstreamBackend } from '../custody/upstream/upstream-backend.ts';
import { generateApiUserKeyPair } from '../protocol/ecdsa-keys.ts';
import { isHighS, mirroredSignature } from '../test/ecdsa-mirror.ts';
import { usedTokenIds } from '../db/schema/sandbox.ts';
import {
  createTestApiUser,
  signedInit,
  type SignOptions,
  type TestApiUser,
} from '../test/api-client.ts';
import { createBankAccount, createVault } from '../test/fixtures.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

let t: TestApp;
let user: TestApiUser;
let other: TestApiUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await createTestApiUser(t, 'client');
  other = await createTestApiUser(t, 'other');
});
afterAll(() => t.close());

async function send(url: string, init: RequestInit) {
  const res = await t.app.request(url, init);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const signed = (method: string, url: string, body?: unknown, options?: SignOptions) =>
  send(url, signedInit(user, method, url, body, options));

const LIST = `${paths.bankAccounts()}${toQueryString({ limit: 5, status: 'PENDING' })}`;

describe('API-client requests accepted', () => {
  it('a JS SDK list call, its query string in urlPath; the API user is the caller', async () => {
    await createBankAccount(t.db, { orgId: t.orgId });
    const res = await signed('GET', LIST);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((res.body.results as unknown[]).length).toBeGreaterThan(0);
  });

  it('the approval-message GET signed over the path alone, as the JS SDK signs it', async () => {
    const url = `${paths.approvalMessage()}${toQueryString({ entityId: 'nothing-here' })}`;
    const res = await signed('GET', url, undefined, { urlPath: paths.approvalMessage() });
    // Authenticated (not 401); the entity simply has no change request.
    expect(res.status, JSON.stringify(res.body)).toBe(404);
  });

  it('a Python SDK POST: padded base64url and dataSignatureHex', async () => {
    const url = paths.bankAccounts();
    const body = {
      paymentMethod: 'SEPA',
      accountName: 'Python Client',
      accountNumber: 'FR1420041010050500013M02606',
      bankName: 'La Banque Postale',
      country: 'FR',
      state: 'Île-de-France',
    };
    const res = await signed('POST', url, body, { sdk: 'python' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.createdById).toBe(user.id);
  });

  it('the raw request target over real HTTP, never re-encoded', async () => {
    const vault = await createVault(t.db, { orgId: t.orgId, vaultName: "O'Brien Ops" });
    const server = serve({ fetch: t.app.fetch, hostname: '127.0.0.1', port: 0 });
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      // WHATWG URL parsing would turn ' into %27; the client signed what it sent.
      const target = `${paths.vaults()}?vaultName=O'Brien%20Ops`;
      // The test app answers as http://localhost (PUBLIC_URL's stand-in), whatever port it got.
      const headers = {
        ...(signedInit(user, 'GET', target).headers as Record<string, string>),
        host: 'localhost',
      };
      const { port } = server.address() as AddressInfo;
      const { status, text } = await new Promise<{ status: number; text: string }>(
        (resolve, reject) => {
          const req = httpRequest({ host: '127.0.0.1', port, path: target, headers }, (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          });
          req.on('error', reject);
          req.end();
        },
      );
      expect(status, text).toBe(200);
      expect(JSON.parse(text).results.map((v: { id: string }) => v.id)).toContain(vault.id);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('API-client requests refused with 401 and a code', () => {
  const GOOD_BODY = { paymentMethod: 'US_ACH' };

  it.each([
    [
      'an unknown Api-Key',
      () => send(LIST, { headers: { 'Api-Key': 'nobody', Authorization: 'Bearer x.y.z' } }),
      'UNKNOWN_API_KEY',
    ],
    ['an empty Api-Key', () => send(LIST, { headers: { 'Api-Key': '' } }), 'UNKNOWN_API_KEY'],
    [
      'no bearer token',
      () => send(LIST, { headers: { 'Api-Key': user.apiKey } }),
      'MISSING_BEARER_TOKEN',
    ],
    [
      'a token that is not a JWT',
      () => send(LIST, { headers: { 'Api-Key': user.apiKey, Authorization: 'Bearer abc' } }),
      'TOKEN_MALFORMED',
    ],
    [
      'a token signed by another API user',
      () =>
        send(LIST, {
          ...signedInit(other, 'GET', LIST),
          headers: {
            ...(signedInit(other, 'GET', LIST).headers as Record<string, string>),
            'Api-Key': user.apiKey,
          },
        }),
      'TOKEN_BAD_SIGNATURE',
    ],
    [
      'an expired token',
      () =>
        signed('GET', LIST, undefined, { now: new Date(user.clock.now().getTime() - 10 * 60_000) }),
      'TOKEN_EXPIRED',
    ],
    [
      'a token from the future',
      () =>
        signed('GET', LIST, undefined, { now: new Date(user.clock.now().getTime() + 10 * 60_000) }),
      'TOKEN_NOT_YET_VALID',
    ],
    [
      'a token for another path',
      () => signed('GET', LIST, undefined, { urlPath: paths.transactions() }),
      'TOKEN_URL_PATH_MISMATCH',
    ],
    [
      'a body changed after signing',
      () =>
        signed('POST', paths.bankAccounts(), GOOD_BODY, { signedBody: { paymentMethod: 'SEPA' } }),
      'TOKEN_BODY_MISMATCH',
    ],
  ])('%s', async (_name, call, code) => {
    const res = await call();
    expect(res.status, JSON.stringify(res.body)).toBe(401);
    expect(res.body.code).toBe(code);
    expect(typeof res.body.message).toBe('string');
  });

  it('a replayed token (same jti), while a refused request does not burn its jti', async () => {
    const jti = crypto.randomUUID();
    expect((await signed('GET', LIST, undefined, { jti, urlPath: '/elsewhere/' })).body.code).toBe(
      'TOKEN_URL_PATH_MISMATCH',
    );
    expect((await signed('GET', LIST, undefined, { jti })).status).toBe(200);
    const replay = await signed('GET', LIST, undefined, { jti });
    expect(replay).toMatchObject({ status: 401, body: { code: 'TOKEN_REPLAYED' } });
  });

  it("a jti is one API user's: another user may send the same one, each only once", async () => {
    const jti = crypto.randomUUID();
    const otherSigned = () => send(LIST, signedInit(other, 'GET', LIST, undefined, { jti }));
    expect((await signed('GET', LIST, undefined, { jti })).status).toBe(200);
    const second = await otherSigned();
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(await otherSigned()).toMatchObject({ status: 401, body: { code: 'TOKEN_REPLAYED' } });
    expect(await signed('GET', LIST, undefined, { jti })).toMatchObject({
      status: 401,
      body: { code: 'TOKEN_REPLAYED' },
    });
  });

  it('a high-S token is accepted, as the SDKs send them; its low-S twin is the same request, a replay', async () => {
    const init = signedInit(user, 'GET', LIST);
    const headers = init.headers as Record<string, string>;
    const [header, payload, signed] = (headers.Authorization ?? '')
      .slice('Bearer '.length)
      .split('.');
    const signature = Buffer.from(signed ?? '', 'base64url');
    const [high, low] = isHighS(signature)
      ? [signature, mirroredSignature(signature)]
      : [mirroredSignature(signature), signature];
    const bearer = (der: Buffer) => ({
      ...init,
      headers: {
        ...headers,
        Authorization: `Bearer ${header}.${payload}.${der.toString('base64url')}`,
      },
    });
    expect((await send(LIST, bearer(high))).status).toBe(200);
    expect(await send(LIST, bearer(low))).toMatchObject({
      status: 401,
      body: { code: 'TOKEN_REPLAYED' },
    });
  });

  it('a dataSignatureHex that does not verify', async () => {
    const url = paths.bankAccounts();
    const init = signedInit(user, 'POST', url, GOOD_BODY, { sdk: 'python' });
    const body = JSON.parse(init.body as string) as Record<string, unknown>;
    const tampered = {
      ...body,
      dataSignatureHex: `${String(body.dataSignatureHex).slice(0, -2)}00`,
    };
    const res = await send(url, { ...init, body: JSON.stringify(tampered) });
    expect(res).toMatchObject({ status: 401, body: { code: 'INVALID_DATA_SIGNATURE' } });
  });

  it('an Api-Key in upstream mode, which accepts no API clients', async () => {
    const app = createApp({
      config: { staticDir: '/nonexistent' },
      backend: createUpstreamBackend({
        baseUrl: 'https://custody.example.com',
        apiKey: 'console-api-key',
        privateKey: generateApiUserKeyPair().privateKeyHex,
        timeoutMs: 1000,
        db: t.db,
      }),
      database: { driver: 'pglite', ping: async () => {} },
      logger: pino({ level: 'silent' }),
      auth: { db: t.db },
    });
    const res = await app.request(LIST, signedInit(user, 'GET', LIST));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'API_CLIENTS_NOT_ACCEPTED' });
  });
});

describe('API-client fuzz', () => {
  it('any Api-Key and bearer text is a 401 with a code, never a 5xx', async () => {
    // Printable ASCII: what an HTTP header can carry at all.
    const headerText = fc.stringMatching(/^[\x21-\x7e]{0,200}$/);
    const token = fc.oneof(
      headerText,
      fc.tuple(headerText, headerText, headerText).map((parts) => parts.join('.')),
      fc
        .tuple(fc.json(), fc.json(), headerText)
        .map(
          ([h, p, sig]) =>
            `${Buffer.from(h).toString('base64url')}.${Buffer.from(p).toString('base64url')}.${sig}`,
        ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(headerText, fc.constant(user.apiKey)),
        token,
        async (apiKey, jwt) => {
          const res = await send(LIST, {
            headers: { 'Api-Key': apiKey, Authorization: `Bearer ${jwt}` },
          });
          expect(res.status, JSON.stringify(res.body)).toBe(401);
          expect(typeof res.body.code).toBe('string');
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('used token ids', () => {
  it('are recorded once, atomically, and purged after they expire', async () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const directory = createApiClientDirectory(t.db);
    const jti = `purge-${crypto.randomUUID()}`;
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        directory.recordTokenId(jti, user.id, new Date(now.getTime() + 150_000), now),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);

    now = new Date(now.getTime() + 3_600_000);
    await directory.recordTokenId(
      `later-${crypto.randomUUID()}`,
      user.id,
      new Date(now.getTime() + 150_000),
      now,
    );
    expect(await t.db.select().from(usedTokenIds).where(eq(usedTokenIds.jti, jti))).toEqual([]);
  });
});
