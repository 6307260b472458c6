import { describe, expect, onTestFinished } from 'vitest';
import type { Database } from '../db/client.ts';
import { ReadCache, useReadCache } from '../db/read-cache.ts';
import { loadConfig } from '../env.ts';
import { appTest } from '../test/app-test.ts';
import type { TestApp } from '../test/test-app.ts';
import { resolveSession } from './session.store.ts';

// A made-up session cookie is cheap, so a flood of them costs little: refused by its shape
// before any read, or by one lookup that takes no read-cache slot.

/** `t.db`, counting the reads made through it. */
function countingReads(t: TestApp): { db: Database; reads: () => number } {
  let reads = 0;
  const db = new Proxy(t.db, {
    get(target, key, receiver) {
      if (key === 'select') reads += 1;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { db, reads: () => reads };
}

const tokenOf = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);

describe('resolveSession and made-up tokens', () => {
  appTest('refuses a token of the wrong shape without reading anything', async ({ t }) => {
    const { db, reads } = countingReads(t);
    for (const token of ['', 'made-up', 'A'.repeat(42), 'A'.repeat(44), `${'A'.repeat(42)}!`]) {
      expect(await resolveSession(db, token, t.clock.now())).toEqual({
        ok: false,
        reason: 'unknown',
      });
    }
    expect(reads()).toBe(0);
  });

  appTest(
    'keeps no read-cache slot for a well-formed token that names no session',
    async ({ t }) => {
      // What is kept: with the cache on, whatever READ_CACHE says.
      useReadCache(true);
      onTestFinished(() => useReadCache(loadConfig().readCache));
      const cache = new ReadCache(t.db);
      const { db, reads } = countingReads(t);
      for (let i = 0; i < 50; i += 1) {
        const token = `${String(i).padStart(2, '0')}${'A'.repeat(41)}`;
        const found = await cache.run(() => resolveSession(db, token, t.clock.now()));
        expect(found).toEqual({ ok: false, reason: 'unknown' });
      }
      // One lookup each, and none of them kept.
      expect(reads()).toBe(50);
      expect(cache.size).toBe(0);

      // A real session is kept (reused while nothing commits: db/read-cache.test.ts).
      const token = tokenOf(t.admin.cookie);
      expect((await cache.run(() => resolveSession(db, token, t.clock.now()))).ok).toBe(true);
      expect(cache.size).toBe(1);
    },
  );
});
