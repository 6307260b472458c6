import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  TOKEN_ERROR_CODES,
  bodyHash,
  generateApiKey,
  generateApiUserKeyPair,
  signDataSignature,
  signRequestToken,
  verifyRequestToken,
  type VerifyRequestTokenInput,
} from './api-token.ts';
import { isHighS, mirroredSignature } from '../test/ecdsa-mirror.ts';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const NOW_S = NOW.getTime() / 1000;
const TRANSFER = {
  category: 'TRANSFER',
  amount: '0.5',
  asset: 'ETH',
  blockChain: 'ETHEREUM',
  source: { type: 'VAULT', id: 'v1' },
};

/** The store a route would keep in the database; here a Map. */
function jtiStore() {
  const seen = new Map<string, Date>();
  return {
    seen,
    seenJti: (jti: string, expiresAt: Date) => seen.has(jti) || (seen.set(jti, expiresAt), false),
  };
}

/** An API user and a verifier for its requests, with the request parts overridable. */
function apiUser() {
  const apiKey = generateApiKey();
  const keys = generateApiUserKeyPair();
  const store = jtiStore();
  const check = (token: string, request: Partial<VerifyRequestTokenInput> = {}) =>
    verifyRequestToken({
      token,
      apiKey,
      publicKey: keys.publicKeyHex,
      method: 'POST',
      pathWithQuery: '/api/external/transactions/',
      path: '/api/external/transactions/',
      body: TRANSFER,
      now: NOW,
      seenJti: store.seenJti,
      ...request,
    });
  const token = (over: Partial<Parameters<typeof signRequestToken>[0]> = {}) =>
    signRequestToken({
      apiKey,
      privateKey: keys.privateKeyHex,
      urlPath: '/api/external/transactions/',
      body: TRANSFER,
      now: NOW,
      ...over,
    });
  return { apiKey, keys, store, check, token };
}

const b64 = (text: string, padded = false) => {
  const encoded = Buffer.from(text).toString('base64url');
  return padded ? encoded.padEnd(Math.ceil(encoded.length / 4) * 4, '=') : encoded;
};

/** A token assembled field by field with node:crypto, independently of signRequestToken. */
function handMadeToken(
  privateKeyHex: string,
  payloadJson: string,
  opts: { padded?: boolean; header?: string; raw?: boolean } = {},
) {
  const key = createPrivateKey({
    key: Buffer.from(privateKeyHex, 'hex'),
    format: 'der',
    type: 'pkcs8',
  });
  const input = `${b64(opts.header ?? '{"alg":"ES256","typ":"JWT"}', opts.padded)}.${b64(payloadJson, opts.padded)}`;
  const signature = sign('sha256', Buffer.from(input), {
    key,
    dsaEncoding: opts.raw ? 'ieee-p1363' : 'der',
  });
  const encoded = signature.toString('base64url');
  return `${input}.${opts.padded ? encoded.padEnd(Math.ceil(encoded.length / 4) * 4, '=') : encoded}`;
}

// Made with Python's `cryptography` the way the Python SDK does:
// padded base64url, sorted compact JSON, DER signature, dataSignatureHex added after.
const PYTHON_SDK = {
  publicKeyPem:
    '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE18kPq7O+s3vL8KUwW1T5PhmxcfvI\nRT5EvVteRJaEew7SOTtqBD20eNmDgNQsLLdsqxpFO5T8jq09yWAfI9JUjw==\n-----END PUBLIC KEY-----\n',
  token:
    'eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJib2R5IjoiNzI4NGY3YTVmMzU1MTQ0NWIyNzIwYzM3M2Q1ZWIxNjlhN2VlZDI0MGI5ZTQyMjE0NDMzMDFhNDE1YWI1OTYxOSIsImV4cCI6MTc2NzIyNTcyMCwiaWF0IjoxNzY3MjI1NjAwLCJqdGkiOiI1ZjBjN2E0ZS0zYThlLTRkNDMtOWE1Ny0wYzdiMmQzZTlmMTEiLCJ1cmxQYXRoIjoiL2FwaS9leHRlcm5hbC90cmFuc2FjdGlvbnMvIiwidXNlcklkIjoicHktYXBpLWtleSJ9.MEUCIQDSWe1M_9wl2Ma-hwrdE6tMoD8WYowe8QQnyxTbYbTuBQIgGVHkGkQVffizRC6HwGuebgZL7_ELuwOtN_zILvJlpYI=',
  body: {
    category: 'TRANSFER',
    source: { type: 'VAULT', id: 'vault-1' },
    destination: { type: 'CONTACT', id: 'contact-1' },
    amount: '0.5',
    asset: 'ETH',
    blockChain: 'ETHEREUM',
    memo: 'payé',
    dataSignatureHex:
      '30450220579bec1d573d04b16c2680aa44a88b4d47c402a3878348abe9fe46dc6a13c1df022100f4f7693c47a22cf9d6edb7fb2fa5f24c6fc1590fec631482cef2fee1296ba2bd',
  },
};

describe('signRequestToken', () => {
  it('writes the header, sorted compact claims and a DER signature node:crypto verifies', () => {
    const { apiKey, keys, token } = apiUser();
    const jwt = token({ jti: '00000000-0000-4000-8000-000000000001' });
    const [header = '', payload = '', signature = ''] = jwt.split('.');
    expect(jwt).not.toContain('=');
    expect(Buffer.from(header, 'base64url').toString()).toBe('{"alg":"ES256","typ":"JWT"}');
    expect(Buffer.from(payload, 'base64url').toString()).toBe(
      `{"body":"${bodyHash(TRANSFER)}","exp":${NOW_S + 120},"iat":${NOW_S},"jti":"00000000-0000-4000-8000-000000000001",` +
        `"urlPath":"/api/external/transactions/","userId":"${apiKey}"}`,
    );
    const publicKey = createPublicKey({
      key: Buffer.from(keys.publicKeyHex, 'hex'),
      format: 'der',
      type: 'spki',
    });
    const der = Buffer.from(signature, 'base64url');
    expect(
      verify(
        'sha256',
        Buffer.from(`${header}.${payload}`),
        { key: publicKey, dsaEncoding: 'der' },
        der,
      ),
    ).toBe(true);
  });

  it('draws a fresh uuid jti per token and honours ttlSeconds', () => {
    const { token } = apiUser();
    const claims = (jwt: string) =>
      JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString());
    const [a, b] = [claims(token()), claims(token({ ttlSeconds: 30 }))];
    expect(a.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.jti).not.toBe(b.jti);
    expect(b.exp - b.iat).toBe(30);
  });
});

describe('verifyRequestToken accepts', () => {
  it('a token it signed, once, telling the store how long to keep the jti', async () => {
    const { check, token, store } = apiUser();
    const result = await check(token({ jti: 'j-1' }));
    expect(result).toMatchObject({ ok: true, jti: 'j-1', exp: NOW_S + 120 });
    expect(store.seen.get('j-1')).toEqual(new Date((NOW_S + 150) * 1000));
  });

  it("a token made by the Python SDK, padded, with the body's dataSignatureHex", async () => {
    const result = await verifyRequestToken({
      token: `Bearer ${PYTHON_SDK.token}`,
      apiKey: 'py-api-key',
      publicKey: PYTHON_SDK.publicKeyPem,
      method: 'POST',
      pathWithQuery: '/api/external/transactions/',
      path: '/api/external/transactions/',
      body: PYTHON_SDK.body,
      now: new Date(1767225600 * 1000 + 5000),
      seenJti: jtiStore().seenJti,
    });
    expect(result).toMatchObject({ ok: true, jti: '5f0c7a4e-3a8e-4d43-9a57-0c7b2d3e9f11' });
  });

  it('hand-made tokens with and without base64 padding', async () => {
    const { apiKey, keys, check } = apiUser();
    for (const padded of [false, true]) {
      // A jti of a length that leaves the payload's base64 needing padding.
      let jti = `hand-${padded}`;
      const payloadWith = (id: string) =>
        `{"body":"${bodyHash(TRANSFER)}","exp":${NOW_S + 60},"iat":${NOW_S},"jti":"${id}","urlPath":"/api/external/transactions/","userId":"${apiKey}"}`;
      while (Buffer.byteLength(payloadWith(jti)) % 3 === 0) jti += 'x';
      const jwt = handMadeToken(keys.privateKeyHex, payloadWith(jti), { padded });
      expect(jwt.split('.')[1]?.endsWith('=')).toBe(padded);
      expect(await check(jwt)).toMatchObject({ ok: true, jti });
    }
  });

  it('keys in PEM as well as hex', async () => {
    const { apiKey, keys, check } = apiUser();
    const privateKey = createPrivateKey({
      key: Buffer.from(keys.privateKeyHex, 'hex'),
      format: 'der',
      type: 'pkcs8',
    });
    const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const publicPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }) as string;
    const jwt = signRequestToken({
      apiKey,
      privateKey: privatePem,
      urlPath: '/api/external/transactions/',
      body: TRANSFER,
      now: NOW,
    });
    expect(await check(jwt, { publicKey: publicPem })).toMatchObject({ ok: true });
  });

  it('a urlPath with the query string, or without it (the approval-message GET)', async () => {
    const { check, token } = apiUser();
    const list = '/api/external/transactions/?limit=5&status=PENDING';
    const get = {
      method: 'GET',
      body: undefined,
      pathWithQuery: list,
      path: '/api/external/transactions/',
    };
    expect(await check(token({ urlPath: list, body: undefined }), get)).toMatchObject({ ok: true });
    const approval = '/api/external/change_requests/approvals/approval_message/';
    const request = { ...get, pathWithQuery: `${approval}?entityId=ba-1`, path: approval };
    expect(await check(token({ urlPath: approval, body: undefined }), request)).toMatchObject({
      ok: true,
    });
  });

  it('a body whose keys arrive in another order, and a GET whose body is ignored', async () => {
    const { check, token } = apiUser();
    const reordered = JSON.parse(
      JSON.stringify({
        source: TRANSFER.source,
        blockChain: 'ETHEREUM',
        asset: 'ETH',
        amount: '0.5',
        category: 'TRANSFER',
      }),
    );
    expect(await check(token(), { body: reordered })).toMatchObject({ ok: true });
    expect(
      await check(token({ body: undefined }), { method: 'get', body: { stray: 1 } }),
    ).toMatchObject({ ok: true });
  });

  it('a body carrying dataSignatureHex, hashed without it', async () => {
    const { check, token, keys } = apiUser();
    const body = { ...TRANSFER, dataSignatureHex: signDataSignature(TRANSFER, keys.privateKeyHex) };
    expect(await check(token(), { body })).toMatchObject({ ok: true });
  });

  it('a clock up to 30 s apart, both ways', async () => {
    const { check, token } = apiUser();
    expect(await check(token(), { now: new Date((NOW_S + 150) * 1000) })).toMatchObject({
      ok: true,
    });
    expect(await check(token(), { now: new Date((NOW_S - 30) * 1000) })).toMatchObject({
      ok: true,
    });
  });
});

// Kept on purpose: the SDKs sign with OpenSSL (Node's crypto, Python's
// `cryptography`) or AWS KMS, none of which normalises s, so about half of their
// tokens carry a high-S signature. Its twin proves nothing new: the jti is in
// the signed claims, so a mirrored token is the same request, refused as a replay.
describe('verifyRequestToken and ECDSA malleability', () => {
  /** The token with its signature replaced by the other valid one. */
  const twin = (token: string) => {
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const mirrored = mirroredSignature(Buffer.from(signature, 'base64url'));
    return `${header}.${payload}.${mirrored.toString('base64url')}`;
  };

  it('accepts a high-S signature as well as a low-S one, as the SDKs emit both', async () => {
    const user = apiUser();
    const first = user.token();
    const second = user.token();
    // One of each, whatever the signer drew.
    const high = isHighS(Buffer.from(first.split('.')[2] ?? '', 'base64url')) ? first : twin(first);
    const low = isHighS(Buffer.from(second.split('.')[2] ?? '', 'base64url'))
      ? twin(second)
      : second;
    expect(isHighS(Buffer.from(high.split('.')[2] ?? '', 'base64url'))).toBe(true);
    expect(await user.check(high)).toMatchObject({ ok: true });
    expect(await user.check(low)).toMatchObject({ ok: true });
  });

  it('refuses the mirrored twin of a used token as a replay', async () => {
    const user = apiUser();
    const token = user.token();
    expect(await user.check(token)).toMatchObject({ ok: true });
    expect(await user.check(twin(token))).toMatchObject({
      ok: false,
      code: TOKEN_ERROR_CODES.replayed,
    });
  });
});

describe('verifyRequestToken refuses', () => {
  const codeOf = async (result: Promise<Awaited<ReturnType<typeof verifyRequestToken>>>) => {
    const r = await result;
    return r.ok ? 'ok' : r.code;
  };

  it('a malformed token', async () => {
    const { check, token, keys, apiKey } = apiUser();
    const [h, p, s] = token().split('.');
    for (const bad of [
      '',
      'abc',
      `${h}.${p}`,
      `${h}.${p}.${s}.x`,
      `${h}.${p}+.${s}`,
      `${h}.${b64('not json')}.${s}`,
      `${b64('[1]')}.${p}.${s}`,
    ]) {
      expect(await codeOf(check(bad))).toBe(TOKEN_ERROR_CODES.malformed);
    }
    const missingJti = `{"body":"${bodyHash(TRANSFER)}","exp":${NOW_S + 60},"iat":${NOW_S},"urlPath":"/api/external/transactions/","userId":"${apiKey}"}`;
    expect(await check(handMadeToken(keys.privateKeyHex, missingJti))).toMatchObject({
      code: TOKEN_ERROR_CODES.malformed,
      message: expect.stringMatching(/jti/),
    });
    const stringIat = missingJti
      .replace(`"iat":${NOW_S}`, `"iat":"${NOW_S}"`)
      .replace('"urlPath"', '"jti":"j","urlPath"');
    expect(await check(handMadeToken(keys.privateKeyHex, stringIat))).toMatchObject({
      code: TOKEN_ERROR_CODES.malformed,
      message: expect.stringMatching(/iat/),
    });
  });

  it('a header other than ES256 JWT', async () => {
    const { check, keys, token } = apiUser();
    const payload = Buffer.from(token().split('.')[1] ?? '', 'base64url').toString();
    for (const header of [
      '{"alg":"HS256","typ":"JWT"}',
      '{"alg":"none"}',
      '{"alg":"ES256","typ":"JWS"}',
    ]) {
      expect(await check(handMadeToken(keys.privateKeyHex, payload, { header }))).toMatchObject({
        code: TOKEN_ERROR_CODES.badHeader,
      });
    }
  });

  it('a signature by another key, over altered claims, or raw r‖s', async () => {
    const { check, token, keys } = apiUser();
    expect(await codeOf(check(token({ privateKey: generateApiUserKeyPair().privateKeyHex })))).toBe(
      TOKEN_ERROR_CODES.badSignature,
    );
    const [h, p = '', s] = token().split('.');
    const altered = b64(Buffer.from(p, 'base64url').toString().replace('"exp":', '"exp":1'));
    expect(await codeOf(check(`${h}.${altered}.${s}`))).toBe(TOKEN_ERROR_CODES.badSignature);
    const payload = Buffer.from(p, 'base64url').toString();
    expect(await check(handMadeToken(keys.privateKeyHex, payload, { raw: true }))).toMatchObject({
      code: TOKEN_ERROR_CODES.badSignature,
      message: expect.stringMatching(/raw r‖s.*DER/),
    });
  });

  it('an expired token, naming when it expired', async () => {
    const { check, token } = apiUser();
    expect(await check(token(), { now: new Date((NOW_S + 151) * 1000) })).toMatchObject({
      code: TOKEN_ERROR_CODES.expired,
      message: expect.stringContaining('token expired at 2026-03-01T12:02:00.000Z'),
    });
  });

  it('a token issued in the future, or living too long', async () => {
    const { check, token } = apiUser();
    expect(await codeOf(check(token(), { now: new Date((NOW_S - 31) * 1000) }))).toBe(
      TOKEN_ERROR_CODES.notYetValid,
    );
    expect(await codeOf(check(token({ ttlSeconds: 7200 })))).toBe(
      TOKEN_ERROR_CODES.lifetimeTooLong,
    );
  });

  it('a userId other than the Api-Key', async () => {
    const { check, token } = apiUser();
    expect(await codeOf(check(token({ apiKey: 'someone-else' })))).toBe(
      TOKEN_ERROR_CODES.apiKeyMismatch,
    );
  });

  it('a token for another path, naming both', async () => {
    const { check, token } = apiUser();
    expect(await check(token({ urlPath: '/api/external/bank_accounts/' }))).toMatchObject({
      code: TOKEN_ERROR_CODES.urlPathMismatch,
      message:
        'urlPath in token (/api/external/bank_accounts/) does not match request path (/api/external/transactions/)',
    });
    const listed = {
      method: 'GET',
      body: undefined,
      pathWithQuery: '/api/external/transactions/?limit=5',
      path: '/api/external/transactions/',
    };
    expect(
      await codeOf(
        check(token({ urlPath: '/api/external/transactions/?limit=50', body: undefined }), listed),
      ),
    ).toBe(TOKEN_ERROR_CODES.urlPathMismatch);
  });

  it('a body other than the one signed', async () => {
    const { check, token } = apiUser();
    expect(await codeOf(check(token(), { body: { ...TRANSFER, amount: '5' } }))).toBe(
      TOKEN_ERROR_CODES.bodyMismatch,
    );
    expect(await codeOf(check(token(), { body: undefined }))).toBe(TOKEN_ERROR_CODES.bodyMismatch);
    expect(
      await codeOf(
        check(token({ body: { ...TRANSFER, nested: { dataSignatureHex: 'x' } } }), {
          body: { ...TRANSFER, nested: {} },
        }),
      ),
    ).toBe(TOKEN_ERROR_CODES.bodyMismatch);
  });

  it('a replayed jti, while a refused request does not burn it', async () => {
    const { check, token } = apiUser();
    const jwt = token();
    expect(await codeOf(check(jwt, { body: {} }))).toBe(TOKEN_ERROR_CODES.bodyMismatch);
    expect(await codeOf(check(jwt))).toBe('ok');
    expect(await check(jwt)).toMatchObject({
      code: TOKEN_ERROR_CODES.replayed,
      message: expect.stringMatching(/already used/),
    });
  });

  it('with a distinct code for every failure', () => {
    const codes = Object.values(TOKEN_ERROR_CODES);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('generateApiKey', () => {
  it('is url-safe, at least 32 characters, and fresh each time', () => {
    const keys = new Set(Array.from({ length: 50 }, generateApiKey));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]{32,}$/);
  });
});
