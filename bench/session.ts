import type http from 'node:http';
import { CSRF_HEADER, SESSION_COOKIE } from '../src/contract/auth.ts';
import { DEMO_STAFF } from '../src/server/auth/staff-demo.ts';
import { send, type RequestSpec } from './load.ts';

/**
 * The bench calls the API as the console does: the seeded demo admin signs
 * in at /auth/login (same-origin Origin), then every request carries the
 * session cookie, and mutations the CSRF token and Origin too.
 */

export interface BenchSession {
  baseUrl: string;
  headers: Record<string, string>;
}

/** Signs in as the sandbox's demo member of `role` (in the bench, none needs a second factor). */
export async function signInAsDemo(
  agent: http.Agent,
  baseUrl: string,
  role: (typeof DEMO_STAFF)[number]['role'],
): Promise<BenchSession> {
  const member = DEMO_STAFF.find((d) => d.role === role);
  if (!member) throw new Error(`no demo ${role} in DEMO_STAFF`);
  const origin = new URL(baseUrl).origin;
  const answer = await send(
    agent,
    baseUrl,
    { origin },
    {
      method: 'POST',
      path: '/auth/login',
      body: JSON.stringify({ email: member.email, password: member.password }),
    },
  );
  const cookie = (answer.headers['set-cookie'] ?? [])
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => pair.startsWith(`${SESSION_COOKIE}=`));
  if (answer.status !== 200 || !cookie)
    throw new Error(`sign-in as ${member.email} failed: ${answer.status} ${answer.body}`);
  const { csrfToken } = JSON.parse(answer.body) as { csrfToken: string };
  return {
    baseUrl,
    headers: { cookie, [CSRF_HEADER]: csrfToken, origin, accept: 'application/json' },
  };
}

export function signInAsDemoAdmin(agent: http.Agent, baseUrl: string): Promise<BenchSession> {
  return signInAsDemo(agent, baseUrl, 'admin');
}

/** One JSON call as the session; throws unless 2xx. */
export async function callJson<T>(
  agent: http.Agent,
  session: BenchSession,
  spec: RequestSpec,
): Promise<{ body: T; ms: number }> {
  const answer = await send(agent, session.baseUrl, session.headers, spec).catch(
    (error: unknown) => {
      // A keep-alive socket the server closed (its 5 s idle timeout) just as it was reused:
      // a GET is safe to send again, on a new socket.
      if (spec.method !== 'GET' || !isResetSocket(error)) throw error;
      return send(agent, session.baseUrl, session.headers, spec);
    },
  );
  if (answer.status < 200 || answer.status >= 300)
    throw new Error(`${spec.method} ${spec.path}: ${answer.status} ${answer.body.slice(0, 300)}`);
  return { body: JSON.parse(answer.body) as T, ms: Number(answer.latencyNs) / 1e6 };
}

function isResetSocket(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}
