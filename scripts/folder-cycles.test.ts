import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The server's folders import one another in one direction only
 * (ARCHITECTURE.md, "Layers"). ESLint's `import-x/no-cycle` refuses a loop
 * between files, but not one between folders whose files never import each
 * other in a circle (a.ts -> b/x.ts, b/y.ts -> a2.ts), nor one made of type
 * imports. This reads every import of the server's production code, type
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
 * Which folder imports which (or, with `files: true`, which file), from each
 * file's relative imports that stay under `within`.
 */
export function importGraph(
  files: ReadonlyArray<{ file: string; text: string }>,
  within: string,
  by: 'folder' | 'file' = 'folder',
): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { file, text } of files) {
    const from = by === 'folder' ? path.dirname(file) : file;
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = path.normalize(path.join(path.dirname(file), fileName));
      const to = by === 'folder' ? path.dirname(target) : target;
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
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const looped: string[] = [];
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
    if (part.length > 1) looped.push(...part);
  };
  const nodes = new Set([...graph.keys(), ...[...graph.values()].flatMap((t) => [...t])]);
  for (const node of nodes) if (!index.has(node)) visit(node);
  return looped.sort();
}

/**
 * The folders in one loop today: the entry points beside the clock and the
 * settings in `src/server`, and the wiring between custody, console and the
 * capabilities, which is being rearranged so that none is left. The list
 * only shrinks: a folder joining a loop fails, and so does one that has
 * left every loop and is still listed here.
 */
const LOOPED_TODAY = [
  'src/server',
  'src/server/auth',
  'src/server/capabilities/approvals',
  // The approval card's kinds: wired like the rest of approvals (mounted by the
  // console's routes, reading the custody backend), so inside the same loop.
  'src/server/capabilities/approvals/card',
  // The approval core (the approvable kind's interface, the kinds, the held kinds'
  // decision): the card and signing read through it, and the app mounts it.
  'src/server/capabilities/approvals/core',
  // Signed decisions: wired like the card (mounted by the console's routes and
  // the custody routes' decision, reading the backend through the card).
  'src/server/capabilities/approvals/signing',
  'src/server/capabilities/approvals/sandbox',
  'src/server/capabilities/approvals/upstream',
  'src/server/capabilities/bank-accounts',
  'src/server/capabilities/bank-accounts/sandbox',
  'src/server/capabilities/bank-accounts/upstream',
  'src/server/capabilities/contacts',
  'src/server/capabilities/contacts/sandbox',
  'src/server/capabilities/contacts/upstream',
  'src/server/capabilities/live',
  'src/server/capabilities/live/sandbox',
  // Operations' user actions: wired as every capability is (a port in the
  // backend, sandbox/ and upstream/ the composites build), so inside the same loop.
  'src/server/capabilities/operations',
  'src/server/capabilities/operations/sandbox',
  'src/server/capabilities/operations/upstream',
  'src/server/capabilities/overview',
  'src/server/capabilities/policies',
  'src/server/capabilities/policies/sandbox',
  'src/server/capabilities/policies/upstream',
  'src/server/capabilities/ramps',
  'src/server/capabilities/ramps/sandbox',
  'src/server/capabilities/ramps/upstream',
  'src/server/capabilities/reference',
  'src/server/capabilities/reference/sandbox',
  'src/server/capabilities/reference/upstream',
  // The sandbox's world-making tools: wired as every capability is (a port in
  // the backend, a sandbox/ the composite builds), so inside the same loop.
  'src/server/capabilities/sandbox-world',
  'src/server/capabilities/sandbox-world/sandbox',
  'src/server/capabilities/transactions',
  'src/server/capabilities/transactions/sandbox',
  'src/server/capabilities/transactions/upstream',
  'src/server/capabilities/vaults',
  'src/server/capabilities/vaults/sandbox',
  'src/server/capabilities/vaults/upstream',
  'src/server/capabilities/webhooks',
  'src/server/capabilities/webhooks/sandbox',
  'src/server/cli',
  'src/server/console',
  'src/server/custody',
  'src/server/custody/routes',
  'src/server/custody/sandbox',
  'src/server/custody/sandbox/engine',
  'src/server/custody/sandbox/seed',
  'src/server/custody/upstream',
  'src/server/http',
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
    // ESLint's no-cycle passes over type imports; a loop of them still ties the files together.
    const files = read(`${SERVER}/db`);
    expect(files.length).toBeGreaterThan(5);
    expect(foldersInLoops(importGraph(files, `${SERVER}/db`, 'file'))).toEqual([]);
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
