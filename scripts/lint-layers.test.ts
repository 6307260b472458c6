import path from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * `npm run lint` enforces the layers (ARCHITECTURE.md, "Layers"): each case
 * lints one deliberately wrong file — text placed at a path in the tree,
 * never written to disk — with the project's own ESLint config.
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

async function ruleIds(filePath: string, code: string, linter = eslint): Promise<string[]> {
  const [result] = await linter.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('type-aware rules', { timeout: 120_000 }, () => {
  it('refuses a promise nobody awaits, returns or marks void', async () => {
    const probe = (body: string) =>
      `export async function later(): Promise<void> {}\nexport function now(): void {\n  ${body}\n}\n`;
    const files = {
      'src/server/floating-probe.ts': probe('later();'),
      'src/server/void-probe.ts': probe('void later();'),
    };
    // The project's config with the types from a program of the probes alone:
    // the project service would build the whole project's program for them
    // (about 12 s), and `npm run lint` already proves it builds.
    const typed = new ESLint({
      cwd,
      overrideConfig: {
        languageOptions: { parserOptions: { projectService: false, programs: [programOf(files)] } },
      },
    });
    for (const [file, expected] of [
      ['src/server/floating-probe.ts', ['@typescript-eslint/no-floating-promises']],
      ['src/server/void-probe.ts', []],
    ] as const)
      expect(await ruleIds(file, files[file], typed)).toEqual(expected);
  });
});

/** A TypeScript program of these files (paths from the repository's root), as text, and the standard library. */
function programOf(files: Record<string, string>): ts.Program {
  const texts = new Map(Object.entries(files).map(([file, text]) => [path.join(cwd, file), text]));
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2023,
    lib: ['lib.es2023.d.ts'],
    types: [],
    strict: true,
    noEmit: true,
  };
  const host = ts.createCompilerHost(options, true);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, language, ...rest) => {
    const text = texts.get(name);
    return text === undefined
      ? getSourceFile.call(host, name, language, ...rest)
      : ts.createSourceFile(name, text, language, true);
  };
  host.fileExists = (name) => texts.has(name) || fileExists.call(host, name);
  host.readFile = (name) => texts.get(name) ?? readFile.call(host, name);
  return ts.createProgram([...texts.keys()], options, host);
}

describe('layer rules', { timeout: 120_000 }, () => {
  it('accepts an import that points down', async () => {
    expect(
      await ruleIds(
        'src/web/features/audit/layer-probe.ts',
        "import { cn } from '../../lib/cn.ts';\nexport const probe = cn;\n",
      ),
    ).toEqual([]);
  });

  it.each([
    [
      'a feature importing another feature',
      'src/web/features/audit/layer-probe.ts',
      "import { transactionSearch } from '../transactions/search.ts';",
    ],
    [
      'lib importing a feature',
      'src/web/lib/layer-probe.ts',
      "import { transactionSearch } from '../features/transactions/search.ts';",
    ],
    [
      'a component importing a feature',
      'src/web/components/layer-probe.ts',
      "import { auditSearch } from '../features/audit/search.ts';",
    ],
    [
      'the SPA importing server code',
      'src/web/lib/layer-probe.ts',
      "import { env } from '../../server/env.ts';",
    ],
    [
      'http importing a feature',
      'src/server/http/layer-probe.ts',
      "import { consoleRoutes } from '../wiring/console.routes.ts';",
    ],
    [
      'db importing a feature',
      'src/server/db/layer-probe.ts',
      "import { consoleRoutes } from '../wiring/console.routes.ts';",
    ],
    [
      'production code importing a test helper',
      'src/server/custody/layer-probe.ts',
      "import { createTestDatabase } from '../test/test-database.ts';",
    ],
    [
      'custody importing auth',
      'src/server/custody/sandbox/layer-probe.ts',
      "import { audit } from '../../auth/audit.ts';",
    ],
    [
      'console reaching into the custody routes',
      'src/server/console/layer-probe.ts',
      "import { parseBody } from '../custody/routes/parse-body.ts';",
    ],
    [
      "a capability's sandbox implementation importing auth",
      'src/server/capabilities/approvals/sandbox/layer-probe.ts',
      "import { audit } from '../../../auth/audit.ts';",
    ],
    [
      "a capability's port importing the console",
      'src/server/capabilities/transactions/port.ts',
      "import { consoleRoutes } from '../../wiring/console.routes.ts';",
    ],
    [
      'a capability importing the wiring that composes it',
      'src/server/capabilities/transactions/layer-probe.ts',
      "import { custodyRoutes } from '../../wiring/custody.routes.ts';",
    ],
    [
      'custody importing the wiring',
      'src/server/custody/sandbox/layer-probe.ts',
      "import { custodyRoutes } from '../../wiring/custody.routes.ts';",
    ],
    [
      'console importing the wiring',
      'src/server/console/layer-probe.ts',
      "import { consoleRoutes } from '../wiring/console.routes.ts';",
    ],
    [
      "console reaching into a capability's implementation",
      'src/server/console/layer-probe.ts',
      "import { decideApprovalPolicy } from '../capabilities/approvals/sandbox/policy.ts';",
    ],
    [
      "a capability reaching into another's sandbox implementation",
      'src/server/capabilities/bank-accounts/sandbox/layer-probe.ts',
      "import { decideApprovalPolicy } from '../../approvals/sandbox/policy.ts';",
    ],
    [
      "a capability's routes reaching into another's upstream implementation",
      'src/server/capabilities/transactions/layer-probe.ts',
      "import { approvalsUpstream } from '../approvals/upstream/index.ts';",
    ],
    [
      'auth importing a capability',
      'src/server/auth/layer-probe.ts',
      "import { approvalInbox } from '../capabilities/approvals/inbox.ts';",
    ],
    [
      'the custody protocol importing a feature',
      'src/server/protocol/layer-probe.ts',
      "import { audit } from '../auth/audit.ts';",
    ],
    [
      'src/contract importing the server',
      'src/contract/layer-probe.ts',
      "import { env } from '../server/env.ts';",
    ],
  ])('refuses %s', async (_name, filePath, importLine) => {
    const ids = await ruleIds(filePath, `${importLine}\nexport const probe = 1;\n`);
    expect(ids).toContain('import-x/no-restricted-paths');
  });

  it("accepts a capability's own implementation and another's port", async () => {
    expect(
      await ruleIds(
        'src/server/capabilities/approvals/upstream/layer-probe.ts',
        "import type { BankAccountsPort } from '../../bank-accounts/port.ts';\nimport { approvalsSandbox } from '../sandbox/index.ts';\nexport type Probe = BankAccountsPort;\nexport const probe = approvalsSandbox;\n",
      ),
    ).toEqual([]);
  });

  it('refuses a test library in production code', async () => {
    const ids = await ruleIds(
      'src/server/custody/layer-probe.ts',
      "import { expect } from 'vitest';\nexport const probe = expect;\n",
    );
    expect(ids).toContain('no-restricted-imports');
  });
});
