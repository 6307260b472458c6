import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * Amounts never pass through a JS number (eslint.config.js, "Amounts"): each
 * case lints text placed at a path in the tree, never written to disk, with
 * the project's own ESLint config.
 */
const cwd = new URL('..', import.meta.url).pathname;
// The probes' paths are not on disk, where the type-aware rules cannot follow them.
const eslint = new ESLint({
  cwd,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off' },
  },
});

async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

const FEE_MODEL = 'src/server/custody/sandbox/amount-probe.ts';
const declared = 'declare const fee: string;\ndeclare const z: any;\ndeclare const big: any;\n';

describe('amounts never become JS numbers', { timeout: 120_000 }, () => {
  it.each([
    ['Number()', 'export const n = Number(fee) * 1.1;'],
    ['new Number()', 'export const n = new Number(fee);'],
    ['Number passed as a function', "export const n = fee.split('.').map(Number);"],
    ['parseFloat', 'export const n = parseFloat(fee);'],
    ['Number.parseFloat', 'export const n = Number.parseFloat(fee);'],
    ['parseInt', 'export const n = parseInt(fee, 10);'],
    ['Number.parseInt', 'export const n = Number.parseInt(fee, 10);'],
    ['unary +', 'export const n = +fee * 1.1;'],
    ["zod's coerce", 'export const n = z.coerce.number();'],
    ["big.js's toNumber", 'export const n = big.toNumber();'],
    ['toFixed', 'export const n = (1.1).toFixed(2);'],
  ])('refuses %s in production code', async (_name, line) => {
    for (const path of [
      FEE_MODEL,
      'src/server/capabilities/transactions/amount-probe.ts',
      'src/contract/amount-probe.ts',
      'src/web/lib/amount-probe.ts',
      'src/web/features/transactions/amount-probe.tsx',
    ])
      expect(await refusals(path, declared + line), path).toHaveLength(1);
  });

  it('accepts a conversion whose disable comment says what it is', async () => {
    expect(
      await refusals(
        FEE_MODEL,
        `${declared}// eslint-disable-next-line no-restricted-syntax -- a count of rows\nexport const n = Number(fee);\n`,
      ),
    ).toEqual([]);
  });

  it('accepts the decimal module, and files that hold no amount their Number() but never parseFloat', async () => {
    expect(
      await refusals('src/contract/decimal.ts', `${declared}export const s = big.toFixed(2);\n`),
    ).toEqual([]);
    expect(
      await refusals('src/web/lib/dates.ts', `${declared}export const y = Number(fee);\n`),
    ).toEqual([]);
    expect(
      await refusals('src/web/lib/dates.ts', `${declared}export const y = parseFloat(fee);\n`),
    ).toHaveLength(1);
  });

  it('lets tests count with Number(), but never parseFloat an amount', async () => {
    const test = 'src/server/custody/sandbox/amount-probe.test.ts';
    expect(await refusals(test, `${declared}export const n = Number(fee);\n`)).toEqual([]);
    expect(await refusals(test, `${declared}export const n = parseFloat(fee);\n`)).toHaveLength(1);
  });
});
