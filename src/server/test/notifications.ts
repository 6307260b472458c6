import { pino } from 'pino';
import { expect } from 'vitest';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/client.ts';
import { liveSources } from '../capabilities/live/index.ts';
import type { Derived } from '../capabilities/notifications/derive.ts';
import {
  createNotifier,
  namedSources,
  type Notifier,
} from '../capabilities/notifications/notifier.ts';

/**
 * The notifier of a test's app, run by the test itself (never the server's
 * loop): links start with `NOTIFY_BASE`, chat webhooks on 127.0.0.1 may be
 * reached, and `scans` are looked at on each derive pass as the server's are.
 */

export const NOTIFY_BASE = 'https://console.example.test';

export function testNotifier(
  t: { db: Database; clock: Clock; orgId: string },
  options: { scans?: ReadonlyArray<(now: Date) => Promise<Derived[]>> } = {},
): Notifier {
  return createNotifier({
    db: t.db,
    clock: t.clock,
    logger: pino({ level: 'silent' }),
    sources: namedSources(liveSources('sandbox', t.db, t.orgId)),
    baseUrl: () => NOTIFY_BASE,
    targets: { allowPrivate: true },
    ...(options.scans ? { scans: options.scans } : {}),
  });
}

/** Runs the notifier until nothing is left to send now. */
export async function drainNotifier(notifier: Notifier): Promise<void> {
  await notifier.derivePass();
  while ((await notifier.deliverPass()) > 0);
}

/** The admin's SMTP settings pointing at the test's SMTP server on 127.0.0.1:`port`. */
export async function configureTestSmtp(
  request: (url: string, init: RequestInit) => Promise<{ status: number; body: unknown }>,
  port: number,
): Promise<void> {
  const res = await request('/api/console/notifications/smtp/', {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      host: '127.0.0.1',
      port,
      security: 'NONE',
      username: 'console',
      password: 'smtp-secret-password',
      fromAddress: 'console@example.test',
      enabled: true,
    }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
