import { randomUUID } from 'node:crypto';
import {
  canonicalJson,
  bodyHash,
  signDataSignature,
  signRequestToken,
} from '../protocol/api-token.ts';
import { signDer } from '../protocol/ecdsa-keys.ts';
import { createApiUser, type CreatedApiUser } from '../custody/sandbox/api-users.store.ts';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/client.ts';

/**
 * An API client for tests: a real API user in the test's database and
 * requests signed the way the provider's SDKs sign them.
 */

export type TestApiUser = CreatedApiUser & {
  /**
   * The clock the app judges this user's tokens by: its tokens are signed at
   * that clock's time, as a real client's are at the real time. A test app
   * whose clock stands still would otherwise find a token signed with the
   * real time "not yet valid" once a slow file passes the allowed skew.
   */
  clock: Clock;
};

/** What a test app offers to make its API users: its database, organization and auth clock. */
export interface ApiUserHost {
  db: Database;
  orgId: string;
  authClock: Clock;
}

export async function createTestApiUser(
  host: ApiUserHost,
  name = 'Test API user',
  orgId = host.orgId,
  subOrgIds: string[] | null = null,
): Promise<TestApiUser> {
  const user = await createApiUser(host.db, {
    orgId,
    name,
    now: host.authClock.now(),
    subOrgIds,
  });
  return { ...user, clock: host.authClock };
}

export interface SignOptions {
  /** 'js' (the default): unpadded base64url. 'python': padded, and `dataSignatureHex` in every JSON body. */
  sdk?: 'js' | 'python';
  /** What the token claims was called; defaults to the URL requested. */
  urlPath?: string;
  /** What the token claims the body is; defaults to the body sent. */
  signedBody?: unknown;
  /** When the token says it was signed; defaults to the user's clock's time. */
  now?: Date;
  ttlSeconds?: number;
  jti?: string;
}

/** `RequestInit` for app.request(url, init): Api-Key, a bearer token and the JSON body. */
export function signedInit(
  user: TestApiUser,
  method: string,
  url: string,
  body?: unknown,
  options: SignOptions = {},
): RequestInit {
  const sdk = options.sdk ?? 'js';
  let sent = body;
  if (sdk === 'python' && isObject(body)) {
    sent = { ...body, dataSignatureHex: signDataSignature(body, user.privateKeyHex) };
  }
  const input = {
    apiKey: user.apiKey,
    privateKey: user.privateKeyHex,
    urlPath: options.urlPath ?? url,
    body: 'signedBody' in options ? options.signedBody : body,
    jti: options.jti ?? randomUUID(),
    now: options.now ?? user.clock.now(),
    ...(options.ttlSeconds !== undefined ? { ttlSeconds: options.ttlSeconds } : {}),
  };
  const token = sdk === 'python' ? pythonStyleToken(input) : signRequestToken(input);
  const headers: Record<string, string> = {
    'Api-Key': user.apiKey,
    Authorization: `Bearer ${token}`,
  };
  if (sent !== undefined) headers['Content-Type'] = 'application/json';
  return { method, headers, ...(sent !== undefined ? { body: JSON.stringify(sent) } : {}) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const padded = (text: string) => {
  const encoded = Buffer.from(text, 'utf8').toString('base64url');
  return encoded.padEnd(Math.ceil(encoded.length / 4) * 4, '=');
};

/** The Python SDK's token: the same claims, base64url with "=" padding, signed over the padded text. */
function pythonStyleToken(input: {
  apiKey: string;
  privateKey: string;
  urlPath: string;
  body: unknown;
  jti: string;
  now?: Date;
  ttlSeconds?: number;
}): string {
  const iat = Math.floor((input.now ?? new Date()).getTime() / 1000);
  const claims = {
    iat,
    exp: iat + (input.ttlSeconds ?? 120),
    urlPath: input.urlPath,
    userId: input.apiKey,
    body: bodyHash(input.body),
    jti: input.jti,
  };
  const signingInput = `${padded(canonicalJson({ alg: 'ES256', typ: 'JWT' }))}.${padded(canonicalJson(claims))}`;
  const signature = signDer(signingInput, input.privateKey).toString('base64url');
  return `${signingInput}.${signature.padEnd(Math.ceil(signature.length / 4) * 4, '=')}`;
}
