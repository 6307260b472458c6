import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { expect } from 'vitest';
import { SessionResponse, type StaffRole } from '#contract/auth.ts';
import { DEMO_STAFF } from '../auth/staff-demo.ts';
import { HTTP_SERVER_TIMEOUTS } from '../http/server-timeouts.ts';

/**
 * Helpers for tests of a console served over real HTTP (a started server or
 * a spawned `main.ts`), not through `app.request`.
 */

/**
 * `app` served over real HTTP on 127.0.0.1, on a port of its own, until
 * `close`, with the console's own server timeouts. With Node's defaults the
 * server drops an idle connection after 5 s, the very age at which Node's
 * client stops reusing one: a loaded machine that stalls the event loop
 * lets the client send a request on a connection the server is closing,
 * answered "socket hang up" (seen once in a test of many visitors at load 14).
 */
export async function listen(app: {
  fetch: Parameters<typeof serve>[0]['fetch'];
}): Promise<{ port: number; close(): Promise<void> }> {
  const server = serve({
    fetch: app.fetch,
    hostname: '127.0.0.1',
    port: 0,
    serverOptions: HTTP_SERVER_TIMEOUTS,
  });
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Resolves once a started console at `base` answers its health check: polled,
 * as a starting process sends no event to await. Race it with the child's
 * exit so a server that dies on start fails the test instead of hanging it.
 */
export async function healthy(base: string): Promise<void> {
  for (;;) {
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100)); // polling a starting process: no event to await
  }
}

/** A TCP port free on 127.0.0.1 at the time of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Signs in at `base` as the sandbox's demo member of `role`, as the sign-in
 * page offers and a browser does: the session cookie and its CSRF token.
 */
export async function signInAsDemo(
  base: string,
  role: StaffRole,
): Promise<{ cookie: string; csrf: string }> {
  const account = DEMO_STAFF.find((a) => a.role === role);
  if (!account) throw new Error(`no demo member with the role ${role}`);
  const res = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  expect(res.status).toBe(200);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { cookie, csrf: SessionResponse.parse(await res.json()).csrfToken };
}

/** A GET that sends the session of the sandbox's demo viewer at `base`. */
export async function demoViewerGet(base: string): Promise<(path: string) => Promise<Response>> {
  const { cookie } = await signInAsDemo(base, 'viewer');
  return (path: string) => fetch(`${base}${path}`, { headers: { cookie } });
}
