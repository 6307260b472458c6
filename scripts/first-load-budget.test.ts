import { gzipSync, constants } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  contributorsReport,
  FIRST_LOAD_BUDGET_KB,
  FIRST_LOAD_TARGET_KB,
  firstLoadBudget,
  firstLoadOf,
  overBudgetMessage,
  type BudgetBundle,
} from './first-load-budget.ts';

const gz = (s: string) => gzipSync(s, { level: constants.Z_BEST_COMPRESSION }).length;
// Text that compresses poorly, so sizes are far apart and easy to rank.
const noise = (n: number, seed: number) => {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return String.fromCharCode(33 + (x % 90));
  }).join('');
};

const ROOT = '/repo';
const big = noise(20_000, 1);
const small = noise(2_000, 2);
const shared = noise(5_000, 3);
const page = noise(9_000, 4);
const css = noise(3_000, 5);
const BUNDLE: BudgetBundle = {
  'assets/index.js': {
    type: 'chunk',
    fileName: 'assets/index.js',
    isEntry: true,
    code: big + small,
    imports: ['assets/shared.js'],
    modules: {
      '/repo/node_modules/react-dom/cjs/react-dom-client.production.js': { code: big },
      '/repo/src/web/main.tsx': { code: small },
    },
    viteMetadata: { importedCss: new Set(['assets/index.css']) },
  },
  'assets/shared.js': {
    type: 'chunk',
    fileName: 'assets/shared.js',
    isEntry: false,
    code: shared,
    imports: [],
    modules: { '/repo/node_modules/@tanstack/router-core/dist/esm/router.js': { code: shared } },
  },
  // Loaded on demand (import()): no part of the first load.
  'assets/page.js': {
    type: 'chunk',
    fileName: 'assets/page.js',
    isEntry: false,
    code: page,
    imports: ['assets/shared.js'],
    modules: { '/repo/src/web/routes/page.tsx': { code: page } },
  },
  'assets/index.css': { type: 'asset', fileName: 'assets/index.css', source: css },
};

describe('the first load’s budget', () => {
  it('weighs the entry, what it imports statically and their stylesheets, not what loads on demand', () => {
    const load = firstLoadOf(BUNDLE, ROOT);
    expect(load.files).toEqual(['assets/index.js', 'assets/shared.js', 'assets/index.css']);
    expect(load.gzipBytes).toBe(gz(big + small) + gz(shared) + gz(css));
    expect(load.contributors.map((c) => c.name)).toEqual([
      'react-dom',
      '@tanstack/router-core',
      'assets/index.css',
      'src/web/main.tsx',
    ]);
    // Each chunk's contributors add up to the chunk.
    const sum = load.contributors.reduce((a, c) => a + c.gzipBytes, 0);
    expect(sum).toBeCloseTo(load.gzipBytes, 6);
  });

  it('says by how much it is over, and names the largest contributors first', () => {
    const load = firstLoadOf(BUNDLE, ROOT);
    const message = overBudgetMessage(load, 10, 2);
    expect(message).toMatch(
      /^first load \d+\.\d KB gzip, over its budget of 10 KB \(target 150 KB\)/,
    );
    const lines = message.split('\n').slice(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\s+\d+\.\d {2}react-dom$/);
    expect(lines[1]).toMatch(/@tanstack\/router-core$/);
  });
});

describe('the build’s check', () => {
  // The plugin's hook as Vite calls it: `this` carries error() and info().
  function runCheck(budgetKb: number) {
    const plugin = firstLoadBudget(budgetKb);
    const calls = { error: [] as string[], info: [] as string[] };
    const context = {
      error: (message: string) => {
        calls.error.push(message);
        throw new Error(message);
      },
      info: (message: string) => calls.info.push(message),
    };
    (plugin.configResolved as (config: { root: string }) => void)({ root: ROOT });
    const writeBundle = plugin.writeBundle as unknown as (
      this: typeof context,
      options: object,
      bundle: BudgetBundle,
    ) => void;
    let failed = false;
    try {
      writeBundle.call(context, {}, BUNDLE);
    } catch {
      failed = true;
    }
    return { failed, ...calls };
  }

  it('fails the build when the first load grows past its budget, naming what grew', () => {
    const kb = firstLoadOf(BUNDLE, ROOT).gzipBytes / 1024;
    const over = runCheck(Math.floor(kb) - 1);
    expect(over.failed).toBe(true);
    expect(over.error[0]).toMatch(/over its budget/);
    expect(over.error[0]).toMatch(/react-dom/);

    const within = runCheck(Math.ceil(kb));
    expect(within.failed).toBe(false);
    expect(within.info.at(-1)).toMatch(/^first load \d+\.\d KB gzip \(budget/);
  });

  it('lists the largest contributors of a build within budget when asked', () => {
    const report = contributorsReport(firstLoadOf(BUNDLE, ROOT), 3);
    const lines = report.split('\n');
    expect(lines[0]).toMatch(
      /^first load \d+\.\d KB gzip \(assets\/index\.js, assets\/shared\.js, assets\/index\.css\)/,
    );
    expect(lines.slice(1).map((l) => l.trim().split(/\s+/)[1])).toEqual([
      'react-dom',
      '@tanstack/router-core',
      'assets/index.css',
    ]);
  });

  it('keeps its ceiling at the target', () => {
    expect(FIRST_LOAD_BUDGET_KB).toBeLessThanOrEqual(FIRST_LOAD_TARGET_KB);
    expect(FIRST_LOAD_TARGET_KB).toBe(150);
  });
});
