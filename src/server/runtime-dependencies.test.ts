import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `npm install --omit=dev` must be able to serve a built console
 * (`npm run serve`): every package the compiled server can load at run time
 * has to be a production dependency. This walks the imports the server and
 * the CLI reach, as tsconfig.server.json compiles them.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const ENTRIES = ['src/server/main.ts', 'src/server/cli.ts'];
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?[^'";]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)|(?:^|\n)\s*import\s+'([^']+)'/g;

function reachablePackages(): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const queue = ENTRIES.map((e) => path.join(ROOT, e));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(IMPORT)) {
      const statement = m[0];
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec || /^\s*(?:import|export)\s+type\s/.test(statement.trimStart())) continue;
      if (spec.startsWith('.')) {
        queue.push(path.resolve(path.dirname(file), spec));
        continue;
      }
      // The contract's subpath imports (package.json "imports").
      if (spec.startsWith('#contract/')) {
        queue.push(path.join(ROOT, 'src/contract', spec.slice('#contract/'.length)));
        continue;
      }
      if (spec.startsWith('node:') || builtinModules.includes(spec)) continue;
      const name = spec.startsWith('@')
        ? spec.split('/').slice(0, 2).join('/')
        : spec.split('/')[0]!;
      if (!packages.has(name)) packages.set(name, path.relative(ROOT, file));
    }
  }
  return packages;
}

describe('the compiled server runs on production dependencies alone', () => {
  it('imports no dev dependency from any file the server or the CLI can load', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const packages = reachablePackages();
    expect(packages.size).toBeGreaterThan(5);
    const missing = [...packages].filter(([name]) => !(name in pkg.dependencies));
    expect(missing.map(([name, from]) => `${name} (imported by ${from})`)).toEqual([]);
  });
});
