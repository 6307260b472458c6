import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/env.ts';

/**
 * The README is the front door and `docs/` the reference behind it: these
 * keep the door small, every document reachable from it, and
 * docs/configuration.md true to the settings the server reads, so the two
 * cannot drift apart unnoticed.
 */
const root = path.resolve(new URL('..', import.meta.url).pathname);
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const README = 'README.md';
const CONFIGURATION = 'docs/configuration.md';
// Where docs/configuration.md lists what is read outside env.ts.
const READ_ELSEWHERE = '## Read elsewhere';
// The operating system's own, handed on to the processes the bench starts.
const SYSTEM = new Set(['PATH']);

/** Every variable `loadConfig` asks the environment for, asked as it asks: by name. */
function settingsRead(): string[] {
  const asked = new Set<string>();
  const env = new Proxy<Record<string, string | undefined>>(
    {},
    {
      get(_target, key) {
        if (typeof key === 'string') asked.add(key);
        return undefined;
      },
    },
  );
  loadConfig(env, root);
  return [...asked].sort();
}

/** The settings table of docs/configuration.md: each variable and its default cell. */
function documentedSettings(): Map<string, string> {
  const [settings = ''] = read(CONFIGURATION).split(READ_ELSEWHERE);
  const rows = new Map<string, string>();
  for (const match of settings.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|/gm)) {
    rows.set(match[1] ?? '', (match[2] ?? '').trim());
  }
  return rows;
}

// Upstream mode, where every setting shows in the config (the sandbox leaves out
// the upstream ones), so a documented default is compared where it counts.
const upstream: Record<string, string> = {
  CUSTODY_BACKEND: 'upstream',
  CUSTODY_BASE_URL: 'https://custody.example.com',
  CUSTODY_API_KEY: 'docs-test-key',
  CUSTODY_PRIVATE_KEY: generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString(),
};

function without(env: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([key]) => key !== name));
}

/** Relative links of a Markdown file, resolved from its folder, without their #fragment. */
function linkedFiles(file: string): string[] {
  const text = read(file);
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
  return links
    .filter((link) => !/^[a-z]+:/.test(link) && !link.startsWith('#'))
    .map((link) => path.normalize(path.join(path.dirname(file), link.split('#')[0] ?? '')));
}

/** The code, tests, bench and scripts, and the config files at the top. */
function repositoryFiles(): string[] {
  return ['src', 'scripts', 'bench', 'e2e']
    .flatMap((dir) =>
      readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).map((file) =>
        path.join(dir, file),
      ),
    )
    .concat(readdirSync(root).filter((file) => /\.config\.[mc]?[jt]s$/.test(file)));
}

const docs = readdirSync(path.join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);

describe('the README', () => {
  it('is at most 200 lines', () => {
    expect(read(README).split('\n').length).toBeLessThanOrEqual(200);
  });

  it('gives the two commands CI runs, as written', () => {
    expect(read(README)).toContain('npm install && npm start');
    expect(read(README)).toMatch(/^npm test\b/m);
  });

  it('links every document in docs/, directly or through docs/README.md', () => {
    const reached = new Set(linkedFiles(README));
    if (reached.has('docs/README.md'))
      for (const file of linkedFiles('docs/README.md')) reached.add(file);
    expect(docs.filter((file) => !reached.has(file))).toEqual([]);
    expect(reached).toContain('ARCHITECTURE.md');
  });

  it('and the documents link only to files that exist', () => {
    const broken = [README, 'ARCHITECTURE.md', ...docs].flatMap((file) =>
      linkedFiles(file)
        .filter((target) => !existsSync(path.join(root, target)))
        .map((target) => `${file} -> ${target}`),
    );
    expect(broken).toEqual([]);
  });
});

describe('docs/configuration.md', () => {
  it('documents every setting env.ts reads, and no other', () => {
    expect([...documentedSettings().keys()].sort()).toEqual(settingsRead());
  });

  it("gives each setting's default as the code has it", () => {
    const literal = /^`([^`]*)`$/;
    const compared: string[] = [];
    const contradicted: string[] = [];
    for (const [name, cell] of documentedSettings()) {
      const value = literal.exec(cell)?.[1];
      if (value === undefined) continue;
      compared.push(name);
      const written = loadConfig({ ...upstream, [name]: value }, root);
      if (!isDeepStrictEqual(written, loadConfig(without(upstream, name), root))) {
        contradicted.push(`${name}: ${value}`);
      }
    }
    expect(contradicted).toEqual([]);
    // Guards the comparison itself: a table the pattern no longer reads compares nothing.
    expect(compared).toContain('PORT');
    expect(compared.length).toBeGreaterThanOrEqual(10);
  });

  it('lists every process.env read outside env.ts', () => {
    const sources = repositoryFiles()
      .filter((file) => /\.[mc]?[jt]sx?$/.test(file))
      .filter((file) => file !== 'src/server/env.ts' && file !== 'scripts/docs.test.ts');
    const documented = read(CONFIGURATION);
    const undocumented = new Set<string>();
    for (const file of sources) {
      // A name in quotes is a build's define, not a read.
      for (const match of read(file).matchAll(/(?<!['"])process\.env\.([A-Z][A-Z0-9_]*)/g)) {
        const name = match[1] ?? '';
        if (SYSTEM.has(name) || documented.includes(`\`${name}\``)) continue;
        undocumented.add(`${name} (${file})`);
      }
    }
    expect([...undocumented]).toEqual([]);
  });
});

describe('comments and documents', () => {
  it('say why in their own words, never which tracker issue asked', () => {
    // The tracker is not in the repository: its numbers tell a reader nothing.
    const files = [...repositoryFiles(), README, 'ARCHITECTURE.md', ...docs].filter((file) =>
      /\.([mc]?[jt]sx?|sql|sh|md)$/.test(file),
    );
    const naming = files.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, index) =>
          /\bissues? #?\d+\b/i.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(naming).toEqual([]);
  });
});
