import { afterEach, expect } from 'vitest';
import { checkWriteTables, takeUndeclaredWrites } from '../db/declared-writes.ts';
import { checkReadTables, takeUndeclaredReads, useReadCache } from '../db/read-cache.ts';
import { loadConfig } from '../env.ts';

/**
 * Set-up of every storage test file (vitest.config.ts): each cached read is
 * checked against the tables it declares (db/read-cache.ts, checkReadTables),
 * each write on PGlite against the tables it declares (db/declared-writes.ts,
 * checkWriteTables), and the cache is on or off as READ_CACHE says
 * (scripts/test.sh runs the storage suite once with it off).
 *
 * A read or a write that touched a table it did not declare throws where it
 * ran; a route may have answered that as a 500 that its test did not look
 * at, so the test that caused one fails here too.
 */
checkReadTables();
checkWriteTables();
useReadCache(loadConfig().readCache);

afterEach(() => {
  expect(takeUndeclaredReads(), 'cached reads that touched a table they did not declare').toEqual(
    [],
  );
  expect(takeUndeclaredWrites(), 'writes that changed a table they did not declare').toEqual([]);
});
