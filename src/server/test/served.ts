import { createServer, type AddressInfo } from 'node:net';
import { expect } from 'vitest';

/**
 * Helpers for tests of a console served over real HTTP (a started server or
 * a spawned `main.ts`), not through `app.request`.
 */

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
 * Signs in at `base` as the sandbox's demo viewer, as a browser does, and
 * returns a GET that sends that session's cookie.
 */
export async function demoViewerGet(base: string): Promise<(path: string) => Promise<Response>> {
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base },
    body: JSON.stringify({ email: 'viewer@sandbox.local', password: 'sandbox-viewer-pass' }),
  });
  expect(login.status).toBe(200);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return (path: string) => fetch(`${base}${path}`, { headers: { cookie } });
}
