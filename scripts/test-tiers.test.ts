import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOTH_DATABASES, OWN_DATABASE, PURE_SERVER } from '../vitest.config.ts';

/**
 * The PostgreSQL pass runs only the `storage` project (BOTH_DATABASES in
 * vitest.config.ts): the tests that can answer differently there than on
 * PGlite. A test that races writes, opens a second handle on its database
 * or runs SQL of its own proves something only a real server can break, so
 * it may not sit in the `app` project, which runs once, on PGlite.
 */
const root = path.join(import.meta.dirname, '..');

const SIGNS: Array<[string, RegExp]> = [
  ['a second handle on its database', /\b(secondServer|openSecondHandle)\(/],
  ['SQL of its own', /\bsql`|\.execute\(/],
  ['a lock named in SQL', /\bFOR (UPDATE|SHARE)\b|SKIP LOCKED|pg_(try_)?advisory/],
  [
    'writes raced at once',
    /Promise\.all(Settled)?\([^;]{0,300}?(\bpost\(|'POST'|\b(approve|decide|create|send|record\w*|claim\w*|poll|\w+Step)\()/,
  ],
];

/** Why `text` (a test file) can differ between PGlite and PostgreSQL, if it can. */
export function databaseSigns(text: string): string[] {
  return SIGNS.filter(([, sign]) => sign.test(text)).map(([why]) => why);
}

function testFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

describe('the PostgreSQL pass runs every test that can differ there', () => {
  it('reads the signs of a race, a second handle and SQL of its own', () => {
    expect(databaseSigns('const [a, b] = await Promise.all([t.post(url), t.post(url)]);')).toEqual([
      'writes raced at once',
    ]);
    expect(databaseSigns('const b = secondServer(t);')).toEqual([
      'a second handle on its database',
    ]);
    expect(databaseSigns('await t.db.execute(sql`select 1 for update`);')).toEqual([
      'SQL of its own',
    ]);
    expect(databaseSigns('await Promise.all([a.cancel(), b.cancel()]);')).toEqual([]);
  });

  it('lists only files that exist, each once, in one project', () => {
    const listed = [...BOTH_DATABASES, ...OWN_DATABASE, ...PURE_SERVER];
    expect(new Set(listed).size).toBe(listed.length);
    const server = new Set(testFiles('src/server'));
    expect(listed.filter((file) => !server.has(file))).toEqual([]);
  });

  it('leaves none of them to the app project, which runs on PGlite only', () => {
    const elsewhere = new Set([...BOTH_DATABASES, ...OWN_DATABASE]);
    const missing = testFiles('src/server')
      .filter((file) => !elsewhere.has(file))
      .flatMap((file) => {
        const signs = databaseSigns(readFileSync(path.join(root, file), 'utf8'));
        return signs.length ? [`${file}: ${signs.join(', ')}`] : [];
      });
    expect(missing, 'list these in BOTH_DATABASES (vitest.config.ts)').toEqual([]);
  });
});
