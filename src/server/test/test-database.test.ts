import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { takeUndeclaredWrites } from '../db/declared-writes.ts';
import { buildTestDatabaseTemplates, createTestDatabase } from './test-database.ts';

// The PGlite templates every test file's database starts from (run once, on
// PGlite: the `server` project).
const TEMPLATE_DIR = path.join(import.meta.dirname, '../../../.tmp/test-db');

it('keeps only the dumps of the current migrations: older ones are removed when the suite starts', async () => {
  await buildTestDatabaseTemplates();
  const current = await readdir(TEMPLATE_DIR);
  const stale = ['pglite-migrated-0000000000000000.tar', 'pglite-empty-0000000000000000.tar'];
  await mkdir(TEMPLATE_DIR, { recursive: true });
  for (const file of stale) await writeFile(path.join(TEMPLATE_DIR, file), 'old');
  await buildTestDatabaseTemplates();
  expect((await readdir(TEMPLATE_DIR)).sort()).toEqual(current.sort());
});

it('a test file’s database reports every write to the app’s tables, so an undeclared one fails its test', async () => {
  const handle = await createTestDatabase();
  try {
    const refused = await handle.db
      .execute(
        sql`insert into console.login_failures (at, email, ip) values (now(), 'a@example.com', '127.0.0.1')`,
      )
      .then(
        () => 'not refused',
        (e: unknown) => String((e as Error).cause ?? e),
      );
    expect(refused).toContain('a write changed console.login_failures but declared only nothing');
    // Taken here, or the set-up would fail this test for the write it meant to make.
    expect(takeUndeclaredWrites()).toHaveLength(1);
  } finally {
    await handle.close();
  }
});
