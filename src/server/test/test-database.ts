import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { wrapPglite, wrapPgPool, type DatabaseHandle } from '../db/client.ts';
import { checkingWrites, installWriteCheck } from '../db/declared-writes.ts';
import { loadConfig } from '../env.ts';
import { untar } from './untar.ts';

/**
 * A fresh, migrated, real database for one test file.
 *
 * PGlite (default): a cold start costs ~4 s, so the migrated database is built
 * once, dumped to .tmp/test-db/ (keyed by a hash of the migrations, so a new
 * migration rebuilds it), and each test file loads that dump into its own
 * in-memory PGlite in about half a second.
 *
 * PostgreSQL (DATABASE_URL set, e.g. `npm run test:pg`): each test file gets
 * its own database, created from the URL's server and dropped on close. The
 * migrated one is copied from a template database (`CREATE DATABASE … TEMPLATE`),
 * migrated once per server and migrations hash: migrating each file's database
 * cost 1.5–2 s, the copy a fraction of that.
 */

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MIGRATIONS_DIR = path.join(REPO_ROOT, 'src/server/db/migrations');
const TEMPLATE_DIR = path.join(REPO_ROOT, '.tmp/test-db');

export async function createTestDatabase(
  options: { migrated?: boolean } = {},
): Promise<DatabaseHandle> {
  const migrated = options.migrated ?? true;
  const { databaseUrl } = loadConfig();
  if (databaseUrl) return createPostgresDatabase(databaseUrl, migrated);
  return createPgliteDatabase(migrated ? 'migrated' : 'empty');
}

async function migrationsHash(): Promise<string> {
  const hash = createHash('sha256');
  const files = (await readdir(MIGRATIONS_DIR, { recursive: true }))
    .filter((f) => f.endsWith('.sql') || f.endsWith('.json'))
    .sort();
  for (const file of files) {
    hash.update(file);
    hash.update(await readFile(path.join(MIGRATIONS_DIR, file)));
  }
  const pgliteVersion = JSON.parse(
    await readFile(path.join(REPO_ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string };
  hash.update(pgliteVersion.version);
  return hash.digest('hex').slice(0, 16);
}

/**
 * Vitest's global set-up of the database projects (vitest.config.ts): the
 * migrated template built once, before any test file starts. Left to the
 * first test files, each worker built one at once, inside its first test and
 * against that test's time limit: a full migration, tens of seconds on a
 * loaded machine, counted as a slow test.
 */
export async function buildTestDatabaseTemplates(): Promise<void> {
  const { databaseUrl } = loadConfig();
  if (databaseUrl) await migratedTemplate(databaseUrl);
  else await Promise.all([pgliteTemplate('migrated'), pgliteTemplate('checked')]);
  await pruneOldTemplates();
}

/**
 * Removes the dumps of migrations that are no longer the checkout's: each
 * new migration (or PGlite version) leaves a 40 MB dump behind, and nothing
 * reads it again. A partial file of the current migrations may be a build
 * still running, so only other hashes' are removed.
 */
async function pruneOldTemplates(): Promise<void> {
  const current = await migrationsHash();
  const files = await readdir(TEMPLATE_DIR).catch(() => [] as string[]);
  await Promise.all(
    files
      .filter((file) => file.startsWith('pglite-') && !file.includes(`-${current}.tar`))
      .map((file) => rm(path.join(TEMPLATE_DIR, file), { force: true })),
  );
}

/**
 * A dumped PGlite data directory: `migrated` (the usual start), `checked`
 * (migrated, with the triggers that report each statement's writes,
 * db/declared-writes.ts: installing them cost every file's database a
 * quarter of its start) or `empty` (for tests of migrating itself). Built on
 * first use and cached.
 */
type TemplateKind = 'migrated' | 'checked' | 'empty';
const templateBytes = new Map<TemplateKind, Promise<Buffer<ArrayBuffer>>>();
/**
 * The template's bytes, read once per worker: the files of a worker share its
 * modules (vitest.config.ts), so each file need not read 40 MB again.
 */
function pgliteTemplate(kind: TemplateKind): Promise<Buffer<ArrayBuffer>> {
  let bytes = templateBytes.get(kind);
  if (!bytes) {
    bytes = readOrBuildPgliteTemplate(kind);
    templateBytes.set(kind, bytes);
    bytes.catch(() => templateBytes.delete(kind));
  }
  return bytes;
}

async function readOrBuildPgliteTemplate(kind: TemplateKind): Promise<Buffer<ArrayBuffer>> {
  const file = path.join(TEMPLATE_DIR, `pglite-${kind}-${await migrationsHash()}.tar`);
  try {
    return await readFile(file);
  } catch {
    // Not built yet (or removed): build it. Workers racing here each build
    // one and the atomic rename keeps whichever lands; both are identical.
  }
  // The checked template is the migrated one with the write triggers added.
  const client =
    kind === 'checked'
      ? new PGlite({ loadDataDir: new Blob([await pgliteTemplate('migrated')]) })
      : new PGlite();
  // dumpDataDir on a PGlite that is not ready yet never settles.
  await client.waitReady;
  const handle = wrapPglite(client);
  if (kind === 'migrated') await handle.migrate();
  if (kind === 'checked') await installWriteCheck(client);
  const dump = await client.dumpDataDir('none');
  await handle.close();
  const bytes = Buffer.from(await dump.arrayBuffer());
  await mkdir(TEMPLATE_DIR, { recursive: true });
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.partial`;
  await writeFile(partial, bytes);
  await rename(partial, file);
  return bytes;
}

async function createPgliteDatabase(kind: 'migrated' | 'empty'): Promise<DatabaseHandle> {
  // Each statement's changes reported, to check against what it declared
  // (db/declared-writes.ts): a migrated database comes with the triggers.
  const checking = checkingWrites();
  const template = checking && kind === 'migrated' ? 'checked' : kind;
  const client = new PGlite({ loadDataDir: new Blob([await pgliteTemplate(template)]) });
  await client.waitReady;
  if (checking && template === 'empty') await installWriteCheck(client);
  return wrapPglite(client);
}

async function adminQuery(databaseUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

function databaseUrlNamed(databaseUrl: string, name: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A new database on the server of `databaseUrl`, empty or a copy of `template`;
 * returns its URL and how to drop it.
 */
async function createPostgresScratch(databaseUrl: string, template?: string) {
  const name = `custody_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(
    databaseUrl,
    template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`,
  );
  return {
    url: databaseUrlNamed(databaseUrl, name),
    drop: () => adminQuery(databaseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/**
 * The name of the migrated template database on the server of `databaseUrl`,
 * made on first use. Built under an advisory lock, so workers starting
 * together wait for one build; named by the migrations' hash, so a new
 * migration makes a new one. Nothing connects to it once built (a template
 * with a connection open cannot be copied).
 */
const templates = new Map<string, Promise<string>>();
function migratedTemplate(databaseUrl: string): Promise<string> {
  let made = templates.get(databaseUrl);
  if (!made) {
    made = buildMigratedTemplate(databaseUrl);
    templates.set(databaseUrl, made);
    made.catch(() => templates.delete(databaseUrl));
  }
  return made;
}

async function buildMigratedTemplate(databaseUrl: string): Promise<string> {
  const name = `custody_template_${await migrationsHash()}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`SELECT pg_advisory_lock(hashtext('custody_test_template'))`);
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return name;
    // Built under another name and renamed once migrated: a build cut short
    // leaves no template that looks finished.
    const building = `${name}_building`;
    await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${building}"`);
    const migrator = wrapPgPool(
      new pg.Pool({ connectionString: databaseUrlNamed(databaseUrl, building), max: 1 }),
    );
    try {
      await migrator.migrate();
    } finally {
      await migrator.close();
    }
    await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    return name;
  } finally {
    await admin.end();
  }
}

async function createPostgresDatabase(
  databaseUrl: string,
  migrated: boolean,
): Promise<DatabaseHandle> {
  const scratch = await createPostgresScratch(
    databaseUrl,
    migrated ? await migratedTemplate(databaseUrl) : undefined,
  );
  const handle = wrapPgPool(new pg.Pool({ connectionString: scratch.url, max: 5 }));
  const owned: DatabaseHandle = {
    ...handle,
    async close() {
      await handle.close();
      await scratch.drop();
    },
  };
  scratchUrls.set(owned, scratch.url);
  return owned;
}

const scratchUrls = new WeakMap<DatabaseHandle, string>();

/**
 * What a second server on the same database would open: on PostgreSQL a pool
 * of its own on the same database; on PGlite, which one process owns, the
 * same handle. Closing it leaves the first open.
 */
export function openSecondHandle(first: DatabaseHandle): DatabaseHandle {
  const url = scratchUrls.get(first);
  if (!url) return { ...first, close: async () => {} };
  return wrapPgPool(new pg.Pool({ connectionString: url, max: 5 }));
}

/** The URL of a test's PostgreSQL database (createTestDatabase), for pools of its own; undefined on PGlite. */
export function databaseUrlOf(handle: DatabaseHandle): string | undefined {
  return scratchUrls.get(handle);
}

export interface TestDatabaseConfig {
  dataDir: string;
  databaseUrl: string | undefined;
  cleanup(): Promise<void>;
}

/**
 * Storage for a whole server under test (startServer opens it itself): a
 * PGlite directory unpacked from the migrated template, or a fresh
 * PostgreSQL database.
 */
export async function createTestDatabaseConfig(): Promise<TestDatabaseConfig> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'custody-test-data-'));
  const cleanup = () => rm(dataDir, { recursive: true, force: true });
  const { databaseUrl } = loadConfig();
  if (databaseUrl) {
    // Migrated like the PGlite template below, so callers see the same starting point.
    const scratch = await createPostgresScratch(databaseUrl, await migratedTemplate(databaseUrl));
    return {
      dataDir,
      databaseUrl: scratch.url,
      cleanup: async () => {
        await scratch.drop();
        await cleanup();
      },
    };
  }
  // The dump's files written straight into the directory: opening a PGlite on
  // it with loadDataDir did the same by starting a whole database, 4 to 5
  // times as long (18 s against 3.5 s on a loaded machine).
  await untar(await pgliteTemplate('migrated'), dataDir);
  // The dump was taken from a running PGlite, so it holds that server's pid
  // file; a directory closed cleanly has none, and a PGlite opening it would
  // take it for a server still running.
  await rm(path.join(dataDir, 'postmaster.pid'), { force: true });
  return { dataDir, databaseUrl: undefined, cleanup };
}
