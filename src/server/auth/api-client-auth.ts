import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';
import { API_USER_SCOPE_LABELS, apiUserScopeAllows } from '#contract/api-users.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { systemClock, type Clock } from '../clock.ts';
import type { ApiClientDirectory } from '../custody/backend.ts';
import { readJsonBody } from '../http/json-body.ts';
import { requirementOf } from './session-auth.ts';
import { ApiError } from '#contract/api-error.ts';
import type { AppEnv } from '../http/app-env.ts';
import {
  DATA_SIGNATURE_FIELD,
  verifyDataSignature,
  verifyRequestToken,
} from '../protocol/api-token.ts';

/**
 * API clients on /api/external/*: a request that carries
 * `Api-Key` must carry a valid `Authorization: Bearer <token>` signed by that
 * API user, for this method, path and body, unexpired and never used before.
 * Everything the headers carry is checked before the body is read.
 * On success the API user becomes the request's actor (`c.var.actor`), which
 * the routes hand to the backend through custodyContext(). Every refusal is a
 * 401 `{message, code}`; a request without `Api-Key` passes through untouched
 * for the staff-session check.
 *
 * `apiClients` is undefined in upstream mode, where the console forwards to
 * a real custody API and accepts no API clients of its own.
 */

export interface ApiClientAuthOptions {
  /** The app's clock: tokens' iat/exp and used token ids are judged against it. */
  clock?: Clock;
  /** The caller's address, as the app reads it (behind its trusted proxies). */
  clientIp?: (c: Context<AppEnv>) => string;
  /** Records a refusal of a proven API user in the audit log. */
  auditRefusal?: (c: Context<AppEnv>, summary: string) => Promise<void>;
}

export function apiClientAuth(
  apiClients: ApiClientDirectory | undefined,
  options: ApiClientAuthOptions = {},
): MiddlewareHandler<AppEnv> {
  const clock = options.clock ?? systemClock;
  return async (c, next) => {
    try {
      await authenticate(c);
    } catch (error) {
      // The code only: keys, tokens and bodies stay out of the logs.
      if (error instanceof ApiError) c.get('log')?.info({ code: error.code }, 'API client refused');
      throw error;
    }
    return next();
  };

  /** Sets the actor for a request with Api-Key; does nothing for one without. */
  async function authenticate(c: Context<AppEnv>): Promise<void> {
    const apiKey = c.req.header('api-key')?.trim();
    if (apiKey === undefined) return;
    if (!apiClients) {
      throw refuse(
        ERROR_CODES.apiClientsNotAccepted,
        'This console forwards to an upstream custody API and accepts no API clients; call the custody API directly',
      );
    }
    const user = apiKey ? await apiClients.findByApiKey(apiKey) : undefined;
    if (!user) throw refuse(ERROR_CODES.unknownApiKey, 'No API user has this Api-Key');

    const authorization = c.req.header('authorization');
    if (!authorization || !/^Bearer\s+\S/i.test(authorization)) {
      throw refuse(
        ERROR_CODES.missingBearerToken,
        'Authorization: Bearer <token> is required with Api-Key: a token signed by this API user for this request',
      );
    }

    const target = requestTarget(c);
    const now = clock.now();
    const result = await verifyRequestToken({
      token: authorization,
      apiKey,
      publicKey: user.publicKey,
      method: c.req.method,
      pathWithQuery: target.pathWithQuery,
      path: target.path,
      // Read only once the token's signature, key, lifetime, expiry and path have
      // proven the caller: an unproven caller's body is never buffered.
      readBody: async () => {
        const body = await readBody(c);
        // Checked before the token's jti is recorded, so that a refused body does not burn it.
        if (hasDataSignature(body) && !verifyDataSignature(body, user.publicKey)) {
          throw refuse(
            ERROR_CODES.invalidDataSignature,
            `${DATA_SIGNATURE_FIELD} does not verify: it must sign the compact sorted-key JSON of the body without ${DATA_SIGNATURE_FIELD}, with this API user's key`,
          );
        }
        return body;
      },
      now,
      seenJti: async (jti, expiresAt) =>
        !(await apiClients.recordTokenId(jti, user.id, expiresAt, now)),
    });
    if (!result.ok) throw refuse(result.code, result.message);

    c.set('actor', { type: 'API_USER', id: user.id, orgId: user.orgId });
    if (user.revokedAt)
      throw refuse(
        ERROR_CODES.apiKeyRevoked,
        `This API user was revoked at ${user.revokedAt.toISOString()}; an admin can make a new one`,
      );
    // Judged once the token proves the caller holds the key, so only its holder learns why.
    if (user.expiresAt && user.expiresAt.getTime() <= now.getTime())
      throw refuse(
        ERROR_CODES.apiKeyExpired,
        `This API user's key expired at ${user.expiresAt.toISOString()}; an admin can rotate it`,
      );
    if (user.allowedCidrs) {
      const from = options.clientIp?.(c) ?? 'unknown';
      if (!allowedFrom(user.allowedCidrs, from)) {
        await options.auditRefusal?.(
          c,
          `Refused: request from ${from}, outside the allowed networks`,
        );
        c.set('audited', true);
        throw new ApiError(
          403,
          ERROR_CODES.ipNotAllowed,
          `Requests of this API user must come from ${user.allowedCidrs.join(', ')}; this one came from ${from}`,
        );
      }
    }
    // Held to its scope as a member is to their role: the permission the route declares.
    const need = requirementOf(c);
    if (need && !apiUserScopeAllows(user.scope, need.permission))
      throw new ApiError(
        403,
        ERROR_CODES.apiUserScope,
        `This API user's scope is ${API_USER_SCOPE_LABELS[user.scope].toLowerCase()}; it cannot ${need.action}`,
      );
    await apiClients.recordUse(user.id, now);
    // Held like a member: every route's backend is wiring/scoped-backend.ts, which reads this.
    if (user.subOrgIds) c.set('scope', { subOrgIds: user.subOrgIds });
  }
}

/** Whether `address` lies in one of `cidrs` (IPv4 or IPv6; an IPv4-mapped IPv6 address as IPv4). */
export function allowedFrom(cidrs: readonly string[], address: string): boolean {
  const plain =
    address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
  const family = isIPv4(plain) ? 'ipv4' : isIPv6(plain) ? 'ipv6' : undefined;
  if (!family) return false;
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [network = '', bits] = cidr.split('/');
    const type = isIPv4(network) ? 'ipv4' : isIPv6(network) ? 'ipv6' : undefined;
    if (!type) continue;
    // eslint-disable-next-line no-restricted-syntax -- a prefix length, not an amount
    const prefix = bits === undefined ? (type === 'ipv4' ? 32 : 128) : Number.parseInt(bits, 10);
    list.addSubnet(network, prefix, type);
  }
  return list.check(plain, family);
}

function refuse(code: string, message: string): ApiError {
  return new ApiError(401, code, message);
}

function hasDataSignature(body: unknown): boolean {
  return body !== null && typeof body === 'object' && Object.hasOwn(body, DATA_SIGNATURE_FIELD);
}

/** The parsed JSON body the token's hash covers; undefined for none. */
async function readBody(c: Context<AppEnv>): Promise<unknown> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return undefined;
  // The routes' own reader: the same parse, the same limits, one read of the stream.
  return readJsonBody(c);
}

/**
 * The request target as the client sent it. The token's urlPath is compared
 * byte for byte, so it must not be re-encoded: on a real server this is the
 * raw target Node received; under app.request() in tests, the URL's own.
 */
function requestTarget(c: Context<AppEnv>): { pathWithQuery: string; path: string } {
  const incoming = (c.env as { incoming?: { url?: unknown } } | undefined)?.incoming;
  let pathWithQuery: string;
  if (typeof incoming?.url === 'string' && incoming.url.startsWith('/')) {
    pathWithQuery = incoming.url;
  } else {
    const url = new URL(c.req.url);
    pathWithQuery = `${url.pathname}${url.search}`;
  }
  const queryAt = pathWithQuery.indexOf('?');
  return { pathWithQuery, path: queryAt === -1 ? pathWithQuery : pathWithQuery.slice(0, queryAt) };
}
