import { spawn } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TransactionListResponse } from '#contract/transaction.ts';
import {
  beginFirstStart,
  finishFirstStart,
  FIRST_START_MARK,
  isNewPgliteDirectory,
} from './first-start.ts';
import { scratch } from './test/scratch.ts';
import { demoViewerGet, freePort } from './test/served.ts';

// The first start on a new PGlite directory: created and seeded in a child
// process, then served by the main one as on a restart.
const { newDir, track } = scratch('custody-first-start-');

/** `npm run serve`'s entry point on `dataDir` (always PGlite), with its log lines kept. */
async function serve(dataDir: string) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'info',
      STATIC_DIR: '/nonexistent-spa',
    },
  });
  track(child);
  const lines: string[] = [];
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const parts = (pending + chunk.toString('utf8')).split('\n');
    pending = parts.pop() ?? '';
    lines.push(...parts);
  });
  const base = `http://127.0.0.1:${port}`;
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}`)));
    const listening = () => {
      if (lines.some((l) => l.includes('Custody Console listening'))) resolve();
    };
    child.stdout?.on('data', listening);
  });
  const messages = () => lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
  const stop = () =>
    new Promise<void>((resolve) => {
      child.removeAllListeners('exit');
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { base, messages, stop };
}

async function firstTransactionIds(base: string): Promise<Array<string | undefined>> {
  const get = await demoViewerGet(base);
  const res = await get('/api/external/transactions/?limit=5');
  expect(res.status).toBe(200);
  return TransactionListResponse.parse(await res.json()).results.map((r) => r.id);
}

describe('first start on PGlite', () => {
  // Only a process shows main.ts forking the child and then serving what it
  // made; that a restart prepares nothing again rests on the directory no
  // longer counting as new (checked below, and main.ts asks nothing else),
  // and that it serves the same data unseeded on server.test.ts. The
  // directory is one a first start killed half way left: the child empties
  // it and begins again, as on a new one (one process start for both).
  it('creates and seeds a new directory, or one a first start left half made, in a child process, then serves it; after that the directory is not new', async () => {
    const fresh = await newDir();
    expect(await isNewPgliteDirectory({ dataDir: fresh, databaseUrl: undefined })).toBe(true);
    expect(
      await isNewPgliteDirectory({ dataDir: path.join(fresh, 'absent'), databaseUrl: undefined }),
    ).toBe(true);
    // PostgreSQL is never prepared this way.
    expect(await isNewPgliteDirectory({ dataDir: fresh, databaseUrl: 'postgres://x/y' })).toBe(
      false,
    );
    const dir = await newDir();
    await leftHalfMade(dir);
    expect(await isNewPgliteDirectory({ dataDir: dir, databaseUrl: undefined })).toBe(true);
    const first = await serve(dir);
    expect(await firstTransactionIds(first.base)).toHaveLength(5);
    const said = first.messages();
    const child = said.indexOf(
      'new data directory: creating and seeding the database in a child process',
    );
    expect(child).toBeGreaterThanOrEqual(0);
    // The child's own lines come after it and before the server listens.
    expect(said.indexOf('sandbox seeded with demo data')).toBeGreaterThan(child);
    await first.stop();
    expect(await readdir(dir)).not.toContain(FIRST_START_MARK);
    expect(await readdir(path.join(dir, 'base'))).not.toContain('half-written');
    expect(await isNewPgliteDirectory({ dataDir: dir, databaseUrl: undefined })).toBe(false);
  }, 240_000);
});

/** What a kill -9 half way through creating the database can leave: PG_VERSION, part of the rest, the mark. */
async function leftHalfMade(dir: string) {
  await writeFile(path.join(dir, 'PG_VERSION'), '17\n');
  await mkdir(path.join(dir, 'base'));
  await writeFile(path.join(dir, 'base', 'half-written'), 'x');
  await writeFile(path.join(dir, FIRST_START_MARK), '');
}

describe('a first start cut short', () => {
  it('is begun again: the directory it left is emptied (all but the lock) and marked until done', async () => {
    const dir = await newDir();
    await leftHalfMade(dir);
    await writeFile(path.join(dir, 'custody-console.lock'), '{}');
    expect(await isNewPgliteDirectory({ dataDir: dir, databaseUrl: undefined })).toBe(true);
    await beginFirstStart(dir);
    expect((await readdir(dir)).sort()).toEqual([FIRST_START_MARK, 'custody-console.lock'].sort());
    await finishFirstStart(dir);
    expect(await readdir(dir)).toEqual(['custody-console.lock']);
  });

  it('leaves a database that a finished first start made as it is', async () => {
    const dir = await newDir();
    await writeFile(path.join(dir, 'PG_VERSION'), '17\n');
    expect(await isNewPgliteDirectory({ dataDir: dir, databaseUrl: undefined })).toBe(false);
    await beginFirstStart(dir);
    expect(await readdir(dir)).toEqual(['PG_VERSION']);
  });
});
