import { describe, expect, test } from 'vitest';
import type { Database } from './client.ts';
import {
  forgetWriteCounts,
  LocalWrites,
  threadWriteVersion,
  versionByWriteCounts,
} from './read-cache.ts';

// What a thread keeps under threadWriteVersion (the vaults' owners, the enabled
// webhook endpoints) must not be taken for the same table of another database:
// a server reopening its data directory, or a test file after another in the
// same worker, starts its counts again from zero.
describe('threadWriteVersion', () => {
  test('differs between two databases opened one after the other at the same write counts', () => {
    const first = {} as Database;
    const firstCounts = new LocalWrites();
    versionByWriteCounts(first, firstCounts);
    firstCounts.note(['sandbox.vaults']);
    const before = threadWriteVersion(['sandbox.vaults']);
    forgetWriteCounts(first);

    const second = {} as Database;
    const secondCounts = new LocalWrites();
    versionByWriteCounts(second, secondCounts);
    secondCounts.note(['sandbox.vaults']);
    try {
      expect(before).toBeDefined();
      expect(threadWriteVersion(['sandbox.vaults'])).not.toBe(before);
    } finally {
      forgetWriteCounts(second);
    }
  });

  test('moves with a write to the table and not with a write to another', () => {
    const db = {} as Database;
    const counts = new LocalWrites();
    versionByWriteCounts(db, counts);
    try {
      const start = threadWriteVersion(['sandbox.vaults']);
      counts.note(['sandbox.contacts']);
      expect(threadWriteVersion(['sandbox.vaults'])).toBe(start);
      counts.note(['sandbox.vaults']);
      expect(threadWriteVersion(['sandbox.vaults'])).not.toBe(start);
    } finally {
      forgetWriteCounts(db);
    }
  });
});
