import { randomBytes, randomUUID } from 'node:crypto';
import { ERROR_CODES } from '#contract/common.ts';
import { bodyHash, canonicalJson } from './canonical-json.ts';
import {
  isDerEcdsaSignature,
  parsePublicKey,
  signDer,
  verifyDer,
  withoutDataSignature,
  type KeyInput,
} from './ecdsa-keys.ts';

/**
 * The custody API's API-client token, both sides: the console
 * signs with it in upstream mode, the sandbox verifies it. The helpers it
 * builds on live in canonical-json.ts and ecdsa-keys.ts and are re-exported
 * here, so that callers need one import for the scheme.
 */
export { bodyHash, canonicalJson } from './canonical-json.ts';
export {
  DATA_SIGNATURE_FIELD,
  generateApiUserKeyPair,
  parsePrivateKey,
  signApprovalMessage,
  signDataSignature,
  verifyApprovalSignature,
  verifyDataSignature,
  withoutDataSignature,
  type KeyInput,
} from './ecdsa-keys.ts';

const TOKEN_TTL_SECONDS = 120;
/** Tolerated difference between a client's clock and ours, both ways. */
const CLOCK_SKEW_SECONDS = 30;
/**
 * Longest exp − iat accepted. Bounds how long a leaked token stays usable and
 * how long a used jti must be remembered.
 */
const MAX_TOKEN_LIFETIME_SECONDS = 3600;

const TOKEN_HEADER = { alg: 'ES256', typ: 'JWT' } as const;

interface RequestTokenClaims {
  iat: number;
  exp: number;
  urlPath: string;
  userId: string;
  body: string;
  jti: string;
}

export interface SignRequestTokenInput {
  apiKey: string;
  privateKey: KeyInput;
  /** The path called, with the query string when there is one. */
  urlPath: string;
  /** The JSON body to send; undefined for GET. */
  body?: unknown;
  now?: Date;
  ttlSeconds?: number;
  jti?: string;
}

/** A bearer token for one request, written as the JS SDK writes it (no padding). */
export function signRequestToken(input: SignRequestTokenInput): string {
  const iat = Math.floor((input.now ?? new Date()).getTime() / 1000);
  const claims: RequestTokenClaims = {
    iat,
    exp: iat + (input.ttlSeconds ?? TOKEN_TTL_SECONDS),
    urlPath: input.urlPath,
    userId: input.apiKey,
    body: bodyHash(input.body),
    jti: input.jti ?? randomUUID(),
  };
  const signingInput = `${base64url(canonicalJson(TOKEN_HEADER))}.${base64url(canonicalJson(claims))}`;
  return `${signingInput}.${signDer(signingInput, input.privateKey).toString('base64url')}`;
}

/** A new API key: 32 random bytes, base64url (43 characters). */
export function generateApiKey(): string {
  return randomBytes(32).toString('base64url');
}

/** The token's refusals, by the codes the contract declares. */
export const TOKEN_ERROR_CODES = {
  malformed: ERROR_CODES.tokenMalformed,
  badHeader: ERROR_CODES.tokenBadHeader,
  badSignature: ERROR_CODES.tokenBadSignature,
  expired: ERROR_CODES.tokenExpired,
  notYetValid: ERROR_CODES.tokenNotYetValid,
  lifetimeTooLong: ERROR_CODES.tokenLifetimeTooLong,
  apiKeyMismatch: ERROR_CODES.tokenApiKeyMismatch,
  urlPathMismatch: ERROR_CODES.tokenUrlPathMismatch,
  bodyMismatch: ERROR_CODES.tokenBodyMismatch,
  replayed: ERROR_CODES.tokenReplayed,
} as const;
type TokenErrorCode = (typeof TOKEN_ERROR_CODES)[keyof typeof TOKEN_ERROR_CODES];

export type TokenVerification =
  | { ok: true; jti: string; exp: number; claims: RequestTokenClaims }
  | { ok: false; code: TokenErrorCode; message: string };

export interface VerifyRequestTokenInput {
  /** The token, or the whole Authorization header value ("Bearer …"). */
  token: string;
  /** The Api-Key header. */
  apiKey: string;
  /** The public key registered for that API key. */
  publicKey: KeyInput;
  method: string;
  /** The request target as received, query string undecoded ("/api/external/transactions/?limit=5"). */
  pathWithQuery: string;
  /** The same without the query string. */
  path: string;
  /** The parsed JSON body; undefined when the request has none. */
  body?: unknown;
  /**
   * Reads the body instead of `body`, called only once every check the
   * token's header and claims allow has passed (signature, key, lifetime,
   * expiry, path): an unproven caller's body is never read. What it throws
   * is thrown.
   */
  readBody?: () => Promise<unknown>;
  now: Date;
  /**
   * Records a jti and answers whether it had been recorded before. It must
   * remember the jti until `expiresAt` (exp plus the clock skew), the last
   * moment the token could be accepted again.
   */
  seenJti: (jti: string, expiresAt: Date) => Promise<boolean> | boolean;
  clockSkewSeconds?: number;
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const BODYLESS_METHODS = new Set(['GET', 'HEAD']);

/**
 * Checks a request's token. The claims are trusted only once the signature
 * has proven who wrote them; the jti is recorded last, so a request refused
 * for another reason does not burn it.
 *
 * @throws KeyFormatError when `publicKey` is not a P-256 key: the server's
 * misconfiguration, not the client's fault.
 */
export async function verifyRequestToken(
  input: VerifyRequestTokenInput,
): Promise<TokenVerification> {
  const fail = (code: TokenErrorCode, message: string): TokenVerification => ({
    ok: false,
    code,
    message,
  });
  const key = parsePublicKey(input.publicKey);
  const token = input.token.trim().replace(/^Bearer\s+/i, '');
  const segments = token.split('.');
  if (segments.length !== 3 || !segments.every(isBase64url)) {
    return fail(
      TOKEN_ERROR_CODES.malformed,
      'token must be three base64url segments: header.payload.signature',
    );
  }
  const [headerText, payloadText, signatureText] = segments as [string, string, string];

  const header = decodeJsonObject(headerText);
  if (!header) {
    return fail(TOKEN_ERROR_CODES.malformed, 'token header is not a base64url JSON object');
  }
  if (header.alg !== 'ES256') {
    return fail(
      TOKEN_ERROR_CODES.badHeader,
      `token alg is ${JSON.stringify(header.alg)}; this API requires "ES256"`,
    );
  }
  if (header.typ !== undefined && header.typ !== 'JWT') {
    return fail(
      TOKEN_ERROR_CODES.badHeader,
      `token typ is ${JSON.stringify(header.typ)}; expected "JWT"`,
    );
  }

  const payload = decodeJsonObject(payloadText);
  const claims = payload && readClaims(payload);
  if (typeof claims === 'string') return fail(TOKEN_ERROR_CODES.malformed, claims);
  if (!claims) {
    return fail(TOKEN_ERROR_CODES.malformed, 'token payload is not a base64url JSON object');
  }

  const signature = Buffer.from(signatureText, 'base64url');
  if (!isDerEcdsaSignature(signature)) {
    return fail(
      TOKEN_ERROR_CODES.badSignature,
      signature.length === 64
        ? 'token signature is raw r‖s (64 bytes); this API requires a DER-encoded ECDSA signature'
        : 'token signature is not a DER-encoded ECDSA signature',
    );
  }
  if (!verifyDer(`${headerText}.${payloadText}`, signature, key)) {
    return fail(
      TOKEN_ERROR_CODES.badSignature,
      "token signature does not verify with this API key's public key",
    );
  }

  if (claims.userId !== input.apiKey) {
    return fail(TOKEN_ERROR_CODES.apiKeyMismatch, 'token userId does not match the Api-Key header');
  }
  const skew = input.clockSkewSeconds ?? CLOCK_SKEW_SECONDS;
  const nowSeconds = input.now.getTime() / 1000;
  if (claims.exp - claims.iat > MAX_TOKEN_LIFETIME_SECONDS) {
    return fail(
      TOKEN_ERROR_CODES.lifetimeTooLong,
      `token lifetime (exp − iat) is ${claims.exp - claims.iat} s; at most ${MAX_TOKEN_LIFETIME_SECONDS} s is accepted`,
    );
  }
  if (nowSeconds > claims.exp + skew) {
    return fail(
      TOKEN_ERROR_CODES.expired,
      `token expired at ${isoSeconds(claims.exp)} (server time ${input.now.toISOString()})`,
    );
  }
  if (claims.iat > nowSeconds + skew) {
    return fail(
      TOKEN_ERROR_CODES.notYetValid,
      `token iat ${isoSeconds(claims.iat)} is in the future (server time ${input.now.toISOString()}); check the client's clock`,
    );
  }

  // The JS SDK signs the approval-message GET before adding its query.
  if (claims.urlPath !== input.pathWithQuery && claims.urlPath !== input.path) {
    return fail(
      TOKEN_ERROR_CODES.urlPathMismatch,
      `urlPath in token (${claims.urlPath}) does not match request path (${input.pathWithQuery})`,
    );
  }

  const bodyless = BODYLESS_METHODS.has(input.method.toUpperCase());
  const body = bodyless || !input.readBody ? input.body : await input.readBody();
  const signedBody = bodyless ? undefined : withoutDataSignature(body);
  const expectedHash = bodyHash(signedBody);
  if (claims.body.toLowerCase() !== expectedHash) {
    return fail(
      TOKEN_ERROR_CODES.bodyMismatch,
      `body hash in token (${claims.body}) does not match the request body's (${expectedHash}): ` +
        'hash the compact sorted-key JSON of the body, without dataSignatureHex, or {} when there is none',
    );
  }

  if (await input.seenJti(claims.jti, new Date((claims.exp + skew) * 1000))) {
    return fail(
      TOKEN_ERROR_CODES.replayed,
      `token jti ${claims.jti} was already used; sign a new token for every request`,
    );
  }
  return { ok: true, jti: claims.jti, exp: claims.exp, claims };
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

// Node's decoder skips characters it does not know, so the alphabet is
// checked first; "=" padding (the Python SDK's) is allowed, a length no
// base64 encoder produces is not.
function isBase64url(segment: string): boolean {
  return BASE64URL.test(segment) && segment.replace(/=+$/, '').length % 4 !== 1;
}

function decodeJsonObject(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The claims, or a message naming the first one missing or mistyped. */
function readClaims(payload: Record<string, unknown>): RequestTokenClaims | string {
  for (const name of ['iat', 'exp'] as const) {
    if (typeof payload[name] !== 'number' || !Number.isFinite(payload[name])) {
      return `token payload must carry ${name} as a number of seconds since the epoch`;
    }
  }
  for (const name of ['urlPath', 'userId', 'body', 'jti'] as const) {
    if (typeof payload[name] !== 'string' || payload[name] === '') {
      return `token payload must carry ${name} as a non-empty string`;
    }
  }
  if ((payload.exp as number) < (payload.iat as number)) return 'token exp is before its iat';
  return payload as unknown as RequestTokenClaims;
}

function isoSeconds(seconds: number): string {
  const date = new Date(seconds * 1000);
  // A claim beyond the Date range (year 275760) still gets a message.
  return Number.isNaN(date.getTime()) ? `${seconds} s after the epoch` : date.toISOString();
}
