import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The server's folders import one another in one direction only
 * (ARCHITECTURE.md, "Layers"), and no file reaches itself through its value
 * imports anywhere (the last describe). A loop between folders needs no loop
 * between files (a.ts -> b/x.ts, b/y.ts -> a2.ts), and may be made of type
 * imports: this reads every import of the server's production code, type
 * imports included, and finds the folders that reach themselves.
 */

const root = new URL('..', import.meta.url).pathname;
const SERVER = 'src/server';

/** Every production source file under `dir` (relative to the repository), tests and their helpers aside. */
function productionFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !/\.test\.tsx?$/.test(file) && !file.startsWith(`${SERVER}/test/`));
}

/**
 * Which folder imports which (or, with `by: 'file'`, which file), from each
 * file's relative imports that stay under `within`. A file directly in
 * `within` stands alone, as `topFolderOf` has it: the clock and the settings
 * sit under everything, the app and the entry points above it.
 */
export function importGraph(
  files: ReadonlyArray<{ file: string; text: string }>,
  within: string,
  by: 'folder' | 'file' = 'folder',
): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { file, text } of files) {
    const node = (f: string) => (by === 'file' || path.dirname(f) === within ? f : path.dirname(f));
    const from = node(file);
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = path.normalize(path.join(path.dirname(file), fileName));
      const to = node(target);
      if (to === from || !(to === within || to.startsWith(`${within}/`))) continue;
      const targets = graph.get(from) ?? new Set<string>();
      targets.add(to);
      graph.set(from, targets);
    }
  }
  return graph;
}

/** The folders that lie on a loop of `graph` (its strongly connected parts of more than one). */
export function foldersInLoops(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  return loopsOf(graph).flat().sort();
}

/** Each loop of `graph`: its strongly connected parts of more than one node, each sorted. */
function loopsOf(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    let popped: string | undefined;
    do {
      popped = stack.pop();
      if (popped === undefined) break;
      onStack.delete(popped);
      part.push(popped);
    } while (popped !== node);
    if (part.length > 1) loops.push(part.sort());
  };
  const nodes = new Set([...graph.keys(), ...[...graph.values()].flatMap((t) => [...t])]);
  for (const node of nodes) if (!index.has(node)) visit(node);
  return loops;
}

/**
 * The server's top-level folders, as the layers are drawn: each capability
 * (`capabilities/<c>`, its sandbox/ and upstream/ with it), each part of
 * custody (`custody/sandbox`, `custody/upstream`, `custody/routes`, and
 * `custody` for the files at its top), and each other folder (`console`,
 * `auth`, `http`, `db` …) with all below it. A file directly in `src/server`
 * stands alone: the clock and the settings sit under everything, the app
 * and the entry points above it.
 */
export function topFolderOf(file: string): string {
  const parts = path.relative(SERVER, file).split('/');
  const [first, second] = parts;
  if (parts.length === 1 || first === undefined) return file;
  if ((first === 'capabilities' || first === 'custody') && parts.length > 2 && second)
    return `${SERVER}/${first}/${second}`;
  return `${SERVER}/${first}`;
}

/** An import from one top-level folder into another: `from -> to`, and the files that make it. */
interface FolderEdge {
  edge: string;
  files: string[];
}

/**
 * The imports between top-level folders (`topFolderOf`) that close a loop:
 * each edge between two folders of one strongly connected part, with the
 * files whose imports make it, so a failure names what to change.
 */
export function loopedFolderEdges(
  files: ReadonlyArray<{ file: string; text: string }>,
): FolderEdge[] {
  const byFile = importGraph(files, SERVER, 'file');
  const graph = new Map<string, Set<string>>();
  const made = new Map<string, string[]>();
  for (const [from, targets] of byFile)
    for (const to of targets) {
      const a = topFolderOf(from);
      const b = topFolderOf(to);
      if (a === b) continue;
      graph.set(a, (graph.get(a) ?? new Set()).add(b));
      const edge = `${a} -> ${b}`;
      made.set(edge, [...(made.get(edge) ?? []), `${from} -> ${to}`]);
    }
  const loopOf = new Map<string, number>();
  loopsOf(graph).forEach((loop, i) => {
    for (const folder of loop) loopOf.set(folder, i);
  });
  return [...made]
    .filter(([edge]) => {
      const [a = '', b = ''] = edge.split(' -> ');
      return loopOf.has(a) && loopOf.get(a) === loopOf.get(b);
    })
    .map(([edge, made]) => ({ edge, files: made.sort() }))
    .sort((x, y) => x.edge.localeCompare(y.edge));
}

/**
 * The folders in a loop today: approvals and policies read each other (the
 * core's kinds and the guard that counts their votes), and the transaction
 * engine runs the ramps' and swaps' steps and queues the webhooks' events.
 * The three backends' compositions sit above them all, in `wiring/`. The
 * list only shrinks: a folder joining a loop fails, and so does one that has
 * left every loop and is still listed here.
 */
const LOOPED_TODAY = [
  'src/server/capabilities/approvals',
  // The approval card's kinds: wired like the rest of approvals (mounted by the
  // console's routes, reading the custody backend), so inside the same loop.
  'src/server/capabilities/approvals/card',
  // The approval core (the approvable kind's interface, the kinds, the held kinds'
  // decision): the card and signing read through it, and the app mounts it.
  'src/server/capabilities/approvals/core',
  // The payment run's held kind: listed among the core's kinds, and judged by
  // the policies (its submit) as a transaction is, so inside the same loop.
  'src/server/capabilities/approvals/payment-run',
  // Signed decisions: wired like the card (mounted by the console's routes and
  // the custody routes' decision, reading the backend through the card).
  'src/server/capabilities/approvals/signing',
  // Staff changes, a held kind: listed among the core's kinds, and proposed through the core.
  'src/server/capabilities/approvals/staff-change',
  // Single sign-on changes, a held kind: listed among the core's kinds, and proposed through the core.
  'src/server/capabilities/approvals/sso-change',
  // A month's close, a held kind: listed among the core's kinds, and proposed through the core.
  'src/server/capabilities/ledger/periods',
  'src/server/capabilities/live',
  'src/server/capabilities/live/sandbox',
  'src/server/capabilities/policies',
  // Policy publishes, a held kind: listed among the core's kinds, and proposed through the core.
  'src/server/capabilities/policies/publish',
  'src/server/capabilities/ramps/sandbox',
  'src/server/capabilities/webhooks/sandbox',
  'src/server/custody/sandbox',
  'src/server/custody/sandbox/engine',
  'src/server/custody/sandbox/seed',
];

/**
 * The imports between top-level folders that close a loop today (the loops
 * LOOPED_TODAY describes). The custody backend's interface is below the
 * capabilities (each adds its port to it) and the routes' compositions sit
 * above them, in `wiring/`. The list only shrinks: a new import that closes a
 * loop fails, naming its files, and so does an edge gone from every loop
 * still listed.
 */
const LOOPED_EDGES_TODAY: string[] = [
  'src/server/capabilities/approvals -> src/server/capabilities/ledger',
  'src/server/capabilities/approvals -> src/server/capabilities/policies',
  'src/server/capabilities/ledger -> src/server/capabilities/approvals',
  'src/server/capabilities/policies -> src/server/capabilities/approvals',
  'src/server/capabilities/ramps -> src/server/custody/sandbox',
  'src/server/capabilities/webhooks -> src/server/custody/sandbox',
  'src/server/custody/sandbox -> src/server/capabilities/ramps',
  'src/server/custody/sandbox -> src/server/capabilities/webhooks',
];

describe('loops between folders', { timeout: 120_000 }, () => {
  it('finds a loop that no two files close, and none where imports point one way', () => {
    const files = [
      { file: 'src/server/a/one.ts', text: "import { x } from '../b/two.ts';" },
      { file: 'src/server/b/three.ts', text: "import type { Y } from '../a/four.ts';" },
      { file: 'src/server/b/two.ts', text: "import { z } from '../c/five.ts';" },
      { file: 'src/server/c/five.ts', text: "import { w } from '#contract/w.ts';" },
    ];
    const graph = importGraph(files, SERVER);
    expect(foldersInLoops(graph)).toEqual(['src/server/a', 'src/server/b']);
    expect(foldersInLoops(importGraph(files.slice(2), SERVER))).toEqual([]);
  });

  const read = (dir: string) =>
    productionFiles(dir).map((file) => ({
      file,
      text: readFileSync(path.join(root, file), 'utf8'),
    }));

  it("finds no loop between the storage layer's files, type imports included", () => {
    // The file loops below pass over type imports; a loop of them still ties these files together.
    const files = read(`${SERVER}/db`);
    expect(files.length).toBeGreaterThan(5);
    expect(foldersInLoops(importGraph(files, `${SERVER}/db`, 'file'))).toEqual([]);
  });

  it('finds a loop between top-level folders, naming the files that close it', () => {
    const files = [
      { file: 'src/server/clock.ts', text: '' },
      { file: 'src/server/app.ts', text: "import { c } from './console/routes.ts';" },
      {
        file: 'src/server/console/routes.ts',
        text: "import { r } from '../capabilities/a/a.routes.ts';",
      },
      {
        file: 'src/server/capabilities/a/a.routes.ts',
        text: "import { s } from '../../console/scope.ts';",
      },
      {
        file: 'src/server/capabilities/a/sandbox/x.ts',
        text: "import { k } from '../../../clock.ts';",
      },
      { file: 'src/server/console/scope.ts', text: "import { k } from '../clock.ts';" },
    ];
    expect(loopedFolderEdges(files)).toEqual([
      {
        edge: 'src/server/capabilities/a -> src/server/console',
        files: ['src/server/capabilities/a/a.routes.ts -> src/server/console/scope.ts'],
      },
      {
        edge: 'src/server/console -> src/server/capabilities/a',
        files: ['src/server/console/routes.ts -> src/server/capabilities/a/a.routes.ts'],
      },
    ]);
    // The shared part moved below both: no loop left, the files at the top stand alone.
    const moved = files.map((f) =>
      f.file === 'src/server/capabilities/a/a.routes.ts'
        ? { ...f, text: "import { s } from '../../scope.ts';" }
        : f,
    );
    expect(loopedFolderEdges(moved)).toEqual([]);
  });

  it('finds no import between top-level folders that closes a loop, beyond those listed today', () => {
    const looped = loopedFolderEdges(read(SERVER));
    const added = looped.filter(({ edge }) => !LOOPED_EDGES_TODAY.includes(edge));
    expect(
      added.map(({ edge, files }) => `${edge}, made by:\n    ${files.join('\n    ')}`).join('\n'),
      'imports that close a loop between top-level folders (and the files that make them)',
    ).toBe('');
    const edges = looped.map(({ edge }) => edge);
    expect(
      LOOPED_EDGES_TODAY.filter((edge) => !edges.includes(edge)),
      'edges no longer in a loop: remove them from LOOPED_EDGES_TODAY',
    ).toEqual([]);
  });

  it('leaves the storage and protocol layers out of every loop, and adds no folder to one', () => {
    const files = read(SERVER);
    expect(files.length).toBeGreaterThan(100);
    const looped = foldersInLoops(importGraph(files, SERVER));
    expect(looped.filter((folder) => /^src\/server\/(db|protocol)(\/|$)/.test(folder))).toEqual([]);
    expect(
      looped.filter((folder) => !LOOPED_TODAY.includes(folder)),
      'folders that joined a loop',
    ).toEqual([]);
    expect(
      LOOPED_TODAY.filter((folder) => !looped.includes(folder)),
      'folders no longer in a loop: remove them from LOOPED_TODAY',
    ).toEqual([]);
  });
});

/**
 * Each relative import of `files` that brings a value (`import type` and
 * all-type named imports left out: a loop of them runs no module before
 * another is ready), as a graph of files.
 */
function valueImportGraph(
  files: ReadonlyArray<{ file: string; text: string }>,
): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { file, text } of files) {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
    const targets = new Set<string>();
    for (const statement of source.statements) {
      const specifier =
        (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
        statement.moduleSpecifier &&
        ts.isStringLiteral(statement.moduleSpecifier)
          ? statement.moduleSpecifier.text
          : undefined;
      if (!specifier?.startsWith('.') || typeOnly(statement)) continue;
      targets.add(path.normalize(path.join(path.dirname(file), specifier)));
    }
    graph.set(file, targets);
  }
  return graph;
}

function typeOnly(statement: ts.Statement): boolean {
  if (ts.isExportDeclaration(statement)) return statement.isTypeOnly;
  if (!ts.isImportDeclaration(statement)) return false;
  const clause = statement.importClause;
  if (!clause) return false; // a side-effect import runs the module
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return (
    !clause.name &&
    named !== undefined &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((element) => element.isTypeOnly)
  );
}

/** Every source file under `dir`, its tests aside (nothing imports a test). */
function sourceFiles(dir: string): Array<{ file: string; text: string }> {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !/\.test\.tsx?$/.test(file))
    .map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }));
}

// Loops of files, read once here: ESLint's import-x/no-cycle walked every file's
// imports again for each file it linted, a sixth of `npm run lint`'s time.
describe('loops between files', { timeout: 120_000 }, () => {
  it('finds a loop of value imports, and none of type imports', () => {
    // button.tsx imports lib/cn.ts; cn.ts importing the button closes a loop.
    const files = [
      { file: 'src/web/components/ui/button.tsx', text: "import { cn } from '../../lib/cn.ts';" },
      {
        file: 'src/web/lib/cn.ts',
        text: "import { Button } from '../components/ui/button.tsx';\nexport const cn = Button;",
      },
    ];
    expect(foldersInLoops(valueImportGraph(files))).toEqual([
      'src/web/components/ui/button.tsx',
      'src/web/lib/cn.ts',
    ]);
    for (const typed of [
      "import type { Button } from '../components/ui/button.tsx';",
      "import { type Button } from '../components/ui/button.tsx';",
      "export type { Button } from '../components/ui/button.tsx';",
    ]) {
      const [button] = files;
      expect(
        foldersInLoops(valueImportGraph([button!, { file: 'src/web/lib/cn.ts', text: typed }])),
      ).toEqual([]);
    }
  });

  for (const dir of ['src/server', 'src/web', 'src/contract', 'e2e', 'bench', 'scripts'])
    it(`finds none in ${dir}`, () => {
      expect(foldersInLoops(valueImportGraph(sourceFiles(dir)))).toEqual([]);
    });
});
