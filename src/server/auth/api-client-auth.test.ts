import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { describe, expect } from 'vitest';
import { paths, toQueryString } from '#contract/paths.ts';
import { createApp } from '../app.ts';
import { createApiClientDirectory } from '../custody/sandbox/api-users.store.ts';
import { createUpstreamBackend } from '../wiring/upstream-backend.ts';
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
import { listen } from '../test/served.ts';
import { appTestWith } from '../test/app-test.ts';
import type { TestApp } from '../test/test-app.ts';

const appTest = appTestWith()
  .extend('user', { scope: 'file' }, ({ t }) => createTestApiUser(t, 'client'))
  .extend('other', { scope: 'file' }, ({ t }) => createTestApiUser(t, 'other'));

/** The app and the API user a request is signed as. */
interface Caller {
  t: TestApp;
  user: TestApiUser;
  other: TestApiUser;
}

async function send(t: TestApp, url: string, init: RequestInit) {
  const res = await t.app.request(url, init);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const signed = (
  { t, user }: Pick<Caller, 't' | 'user'>,
  method: string,
  url: string,
  body?: unknown,
  options?: SignOptions,
) => send(t, url, signedInit(user, method, url, body, options));

const LIST = `${paths.bankAccounts()}${toQueryString({ limit: 5, status: 'PENDING' })}`;

describe('API-client requests accepted', () => {
  appTest(
    'a JS SDK list call, its query string in urlPath; the API user is the caller',
    async ({ t, user }) => {
      await createBankAccount(t.db, { orgId: t.orgId });
      const res = await signed({ t, user }, 'GET', LIST);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((res.body.results as unknown[]).length).toBeGreaterThan(0);
    },
  );

  appTest(
    'the approval-message GET signed over the path alone, as the JS SDK signs it',
    async ({ t, user }) => {
      const url = `${paths.approvalMessage()}${toQueryString({ entityId: 'nothing-here' })}`;
      const res = await signed({ t, user }, 'GET', url, undefined, {
        urlPath: paths.approvalMessage(),
      });
      // Authenticated (not 401); the entity simply has no change request.
      expect(res.status, JSON.stringify(res.body)).toBe(404);
    },
  );

  appTest('a Python SDK POST: padded base64url and dataSignatureHex', async ({ t, user }) => {
    const url = paths.bankAccounts();
    const body = {
      paymentMethod: 'SEPA',
      accountName: 'Python Client',
      accountNumber: 'FR1420041010050500013M02606',
      bankName: 'La Banque Postale',
      country: 'FR',
      state: 'Île-de-France',
    };
    const res = await signed({ t, user }, 'POST', url, body, { sdk: 'python' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.createdById).toBe(user.id);
  });

  appTest('the raw request target over real HTTP, never re-encoded', async ({ t, user }) => {
    const vault = await createVault(t.db, { orgId: t.orgId, vaultName: "O'Brien Ops" });
    const server = await listen(t.app);
    try {
      // WHATWG URL parsing would turn ' into %27; the client signed what it sent.
      const target = `${paths.vaults()}?vaultName=O'Brien%20Ops`;
      // The test app answers as http://localhost (PUBLIC_URL's stand-in), whatever port it got.
      const headers = {
        ...(signedInit(user, 'GET', target).headers as Record<string, string>),
        host: 'localhost',
      };
      const { status, text } = await new Promise<{ status: number; text: string }>(
        (resolve, reject) => {
          const req = httpRequest(
            { host: '127.0.0.1', port: server.port, path: target, headers },
            (res) => {
              let text = '';
              res.on('data', (chunk: Buffer) => (text += chunk.toString()));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
            },
          );
          req.on('error', reject);
          req.end();
        },
      );
      expect(status, text).toBe(200);
      expect(JSON.parse(text).results.map((v: { id: string }) => v.id)).toContain(vault.id);
    } finally {
      await server.close();
    }
  });
});

describe('API-client requests refused with 401 and a code', () => {
  const GOOD_BODY = { paymentMethod: 'US_ACH' };

  appTest.for([
    [
      'an unknown Api-Key',
      (c: Caller) =>
        send(c.t, LIST, { headers: { 'Api-Key': 'nobody', Authorization: 'Bearer x.y.z' } }),
      'UNKNOWN_API_KEY',
    ],
    [
      'an empty Api-Key',
      (c: Caller) => send(c.t, LIST, { headers: { 'Api-Key': '' } }),
      'UNKNOWN_API_KEY',
    ],
    [
      'no bearer token',
      (c: Caller) => send(c.t, LIST, { headers: { 'Api-Key': c.user.apiKey } }),
      'MISSING_BEARER_TOKEN',
    ],
    [
      'a token that is not a JWT',
      (c: Caller) =>
        send(c.t, LIST, { headers: { 'Api-Key': c.user.apiKey, Authorization: 'Bearer abc' } }),
      'TOKEN_MALFORMED',
    ],
    [
      'a token signed by another API user',
      (c: Caller) =>
        send(c.t, LIST, {
          ...signedInit(c.other, 'GET', LIST),
          headers: {
            ...(signedInit(c.other, 'GET', LIST).headers as Record<string, string>),
            'Api-Key': c.user.apiKey,
          },
        }),
      'TOKEN_BAD_SIGNATURE',
    ],
    [
      'an expired token',
      (c: Caller) =>
        signed(c, 'GET', LIST, undefined, {
          now: new Date(c.user.clock.now().getTime() - 10 * 60_000),
        }),
      'TOKEN_EXPIRED',
    ],
    [
      'a token from the future',
      (c: Caller) =>
        signed(c, 'GET', LIST, undefined, {
          now: new Date(c.user.clock.now().getTime() + 10 * 60_000),
        }),
      'TOKEN_NOT_YET_VALID',
    ],
    [
      'a token for another path',
      (c: Caller) => signed(c, 'GET', LIST, undefined, { urlPath: paths.transactions() }),
      'TOKEN_URL_PATH_MISMATCH',
    ],
    [
      'a body changed after signing',
      (c: Caller) =>
        signed(c, 'POST', paths.bankAccounts(), GOOD_BODY, {
          signedBody: { paymentMethod: 'SEPA' },
        }),
      'TOKEN_BODY_MISMATCH',
    ],
  ] as const)('%s', async ([, call, code], { t, user, other }) => {
    const res = await call({ t, user, other });
    expect(res.status, JSON.stringify(res.body)).toBe(401);
    expect(res.body.code).toBe(code);
    expect(typeof res.body.message).toBe('string');
  });

  appTest(
    'a replayed token (same jti), while a refused request does not burn its jti',
    async ({ t, user }) => {
      const jti = crypto.randomUUID();
      expect(
        (await signed({ t, user }, 'GET', LIST, undefined, { jti, urlPath: '/elsewhere/' })).body
          .code,
      ).toBe('TOKEN_URL_PATH_MISMATCH');
      expect((await signed({ t, user }, 'GET', LIST, undefined, { jti })).status).toBe(200);
      const replay = await signed({ t, user }, 'GET', LIST, undefined, { jti });
      expect(replay).toMatchObject({ status: 401, body: { code: 'TOKEN_REPLAYED' } });
    },
  );

  appTest(
    "a jti is one API user's: another user may send the same one, each only once",
    async ({ t, user, other }) => {
      const jti = crypto.randomUUID();
      const otherSigned = () => send(t, LIST, signedInit(other, 'GET', LIST, undefined, { jti }));
      expect((await signed({ t, user }, 'GET', LIST, undefined, { jti })).status).toBe(200);
      const second = await otherSigned();
      expect(second.status, JSON.stringify(second.body)).toBe(200);
      expect(await otherSigned()).toMatchObject({ status: 401, body: { code: 'TOKEN_REPLAYED' } });
      expect(await signed({ t, user }, 'GET', LIST, undefined, { jti })).toMatchObject({
        status: 401,
        body: { code: 'TOKEN_REPLAYED' },
      });
    },
  );

  appTest(
    'a high-S token is accepted, as the SDKs send them; its low-S twin is the same request, a replay',
    async ({ t, user }) => {
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
      expect((await send(t, LIST, bearer(high))).status).toBe(200);
      expect(await send(t, LIST, bearer(low))).toMatchObject({
        status: 401,
        body: { code: 'TOKEN_REPLAYED' },
      });
    },
  );

  appTest('a dataSignatureHex that does not verify', async ({ t, user }) => {
    const url = paths.bankAccounts();
    const init = signedInit(user, 'POST', url, GOOD_BODY, { sdk: 'python' });
    const body = JSON.parse(init.body as string) as Record<string, unknown>;
    const tampered = {
      ...body,
      dataSignatureHex: `${String(body.dataSignatureHex).slice(0, -2)}00`,
    };
    const res = await send(t, url, { ...init, body: JSON.stringify(tampered) });
    expect(res).toMatchObject({ status: 401, body: { code: 'INVALID_DATA_SIGNATURE' } });
  });

  appTest('an Api-Key in upstream mode, which accepts no API clients', async ({ t, user }) => {
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
  appTest('any Api-Key and bearer text is a 401 with a code, never a 5xx', async ({ t, user }) => {
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
          const res = await send(t, LIST, {
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
  appTest('are recorded once, atomically, and purged after they expire', async ({ t, user }) => {
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
