import type { MiddlewareHandler } from 'hono';
import { maskAccountNumber } from '../../contract/bank-account.ts';
import type { AppEnv } from '../http/app-env.ts';

/**
 * Full account and routing numbers never reach a browser except through the
 * audited reveal (DESIGN.md §5). For session callers, every bank-account
 * answer — list, get, create — has them masked ("•••• 1234"). API clients
 * are not browsers and get the API's full fields, as the custody API defines.
 */

type Json = Record<string, unknown>;

function maskAccount(account: unknown): unknown {
  if (!account || typeof account !== 'object' || Array.isArray(account)) return account;
  const copy: Json = { ...(account as Json) };
  for (const field of ['accountNumber', 'routingNumber'] as const) {
    if (typeof copy[field] === 'string' && copy[field] !== '')
      copy[field] = maskAccountNumber(copy[field]);
  }
  return copy;
}

export function maskBody(body: unknown): unknown {
  if (body && typeof body === 'object' && Array.isArray((body as Json)['results'])) {
    const envelope = body as Json & { results: unknown[] };
    return { ...envelope, results: envelope.results.map(maskAccount) };
  }
  return maskAccount(body);
}

export function maskBankAccountsForStaff(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.get('actor')?.type !== 'STAFF') return;
    if (!c.res.headers.get('content-type')?.includes('application/json')) return;
    const body: unknown = await c.res.clone().json();
    const headers = new Headers(c.res.headers);
    headers.delete('content-length');
    c.res = new Response(JSON.stringify(maskBody(body)), { status: c.res.status, headers });
  };
}
