import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.ts';
import { ApiError } from '#contract/api-error.ts';

/**
 * The console's public origin (PUBLIC_URL; docs/configuration.md): the
 * only `Host` it answers for and the only `Origin` a session's mutation may
 * come from. Comparing `Origin` with the request's own `Host` is not enough:
 * a DNS-rebinding page sends its own name as both. Loopback names
 * (localhost, 127.0.0.1, [::1]) stand for each other, since no outside page
 * can make a browser send one; and a server listening on loopback also
 * answers for its own listen address, so a dev proxy in front of it
 * (PUBLIC_URL the proxy's) and a direct local call both work.
 */

const UNKNOWN_HOST = 'UNKNOWN_HOST';
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

export interface OriginPolicy {
  /** Origins a session's mutation may come from, lower case (`http://localhost:8080`). */
  origins: ReadonlySet<string>;
  /** `Host` values answered (`localhost:8080`, `console.example.com`). */
  hosts: ReadonlySet<string>;
  publicOrigin: string;
}

const bracketed = (host: string) =>
  host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
const isLoopback = (host: string) => LOOPBACK.includes(bracketed(host.toLowerCase()));

/** PUBLIC_URL when unset: the listen address, `localhost` for a wildcard one. */
export function defaultPublicUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : bracketed(host);
  return `http://${name}:${port}`;
}

export function originPolicy(
  publicUrl: string,
  listen?: { host: string; port: number },
): OriginPolicy {
  const urls = [new URL(publicUrl)];
  if (listen && isLoopback(listen.host))
    urls.push(new URL(`http://${bracketed(listen.host)}:${listen.port}`));
  const origins = new Set<string>();
  const hosts = new Set<string>();
  for (const url of urls) {
    for (const name of isLoopback(url.hostname) ? LOOPBACK : [url.hostname]) {
      const alias = new URL(url.href);
      alias.hostname = name;
      origins.add(alias.origin.toLowerCase());
      hosts.add(alias.host.toLowerCase());
    }
  }
  return { origins, hosts, publicOrigin: new URL(publicUrl).origin };
}

const firstForwarded = (value: string | undefined) => value?.split(',')[0]?.trim() || undefined;

/** Refuses a request for any `Host` but the public one (421), and hands the allowed origins to the CSRF check. */
export function knownHostOnly(
  policy: () => OriginPolicy,
  /** TRUST_PROXY: false/0, or (true or a number) believe X-Forwarded-Host. */
  trustProxy: boolean | number,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const p = policy();
    const host = (
      (trustProxy && firstForwarded(c.req.header('x-forwarded-host'))) ||
      c.req.header('host') ||
      new URL(c.req.url).host
    ).toLowerCase();
    if (!p.hosts.has(host))
      throw new ApiError(
        421,
        UNKNOWN_HOST,
        `This console answers as ${p.publicOrigin} (PUBLIC_URL), not as ${host.slice(0, 100)}`,
      );
    c.set('allowedOrigins', p.origins);
    await next();
  };
}
