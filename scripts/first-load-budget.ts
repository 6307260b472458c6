import { gzipSync, constants } from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * The first load's budget, checked by every `vite build` of the SPA: what a
 * cold `/transactions` fetches before it is live (the entry chunk, every
 * chunk it imports statically, their stylesheets), gzipped at the strongest
 * setting as `precompress.ts` serves it. Over the budget the build fails and
 * names the largest contributors, so a change that grows it is caught where
 * it is made rather than in a bench run days later.
 */

/** What the first load should weigh (docs/bench.md's target). */
export const FIRST_LOAD_TARGET_KB = 150;
/**
 * What the build lets it weigh: the target itself, now that the entry is back within it (it was
 * a ceiling lowered step by step while the entry shrank).
 */
export const FIRST_LOAD_BUDGET_KB = 150;

/** The parts of a Rolldown output chunk this check reads. */
export interface BudgetChunk {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  code: string;
  imports: readonly string[];
  modules: Readonly<Record<string, { code: string | null }>>;
  viteMetadata?: { importedCss: ReadonlySet<string> };
}
export interface BudgetAsset {
  type: 'asset';
  fileName: string;
  source: string | Uint8Array;
}
export type BudgetBundle = Readonly<Record<string, BudgetChunk | BudgetAsset>>;

export interface Contributor {
  /** A package (`react-dom`, `@tanstack/router-core`), a source file, or a stylesheet. */
  name: string;
  /** Its share of the first load's gzip bytes (its own code gzipped, scaled to the total). */
  gzipBytes: number;
}

export interface FirstLoad {
  files: string[];
  gzipBytes: number;
  contributors: Contributor[];
}

const gzipBytes = (data: string | Uint8Array) =>
  gzipSync(data, { level: constants.Z_BEST_COMPRESSION }).length;

/** `/node_modules/@scope/pkg/x.js` → `@scope/pkg`; a source file → its path from the root. */
function contributorOf(moduleId: string, root: string): string {
  const id = moduleId.replace(/\?.*$/, '').replace(/^\0/, '');
  const inPackage = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id);
  if (inPackage?.[1]) return inPackage[1];
  return id.startsWith(`${root}/`) ? id.slice(root.length + 1) : id;
}

/** The entry chunks, what they import statically (transitively) and their stylesheets, weighed. */
export function firstLoadOf(bundle: BudgetBundle, root: string): FirstLoad {
  const chunks = new Map<string, BudgetChunk>();
  const visit = (fileName: string) => {
    const chunk = bundle[fileName];
    if (chunk?.type !== 'chunk' || chunks.has(fileName)) return;
    chunks.set(fileName, chunk);
    chunk.imports.forEach(visit);
  };
  for (const item of Object.values(bundle))
    if (item.type === 'chunk' && item.isEntry) visit(item.fileName);
  const css = new Set(
    [...chunks.values()].flatMap((c) => [...(c.viteMetadata?.importedCss ?? [])]),
  );

  let total = 0;
  const contributors: Contributor[] = [];
  for (const chunk of chunks.values()) {
    const chunkGzip = gzipBytes(chunk.code);
    total += chunkGzip;
    // Each group's code gzipped alone, then scaled so the groups sum to the chunk's gzip.
    const groups = new Map<string, string[]>();
    for (const [id, m] of Object.entries(chunk.modules)) {
      if (!m.code) continue;
      const name = contributorOf(id, root);
      groups.set(name, [...(groups.get(name) ?? []), m.code]);
    }
    const raw = [...groups].map(([name, codes]) => ({ name, bytes: gzipBytes(codes.join('\n')) }));
    const rawTotal = raw.reduce((a, g) => a + g.bytes, 0) || 1;
    for (const g of raw)
      contributors.push({ name: g.name, gzipBytes: (g.bytes / rawTotal) * chunkGzip });
  }
  for (const fileName of css) {
    const asset = bundle[fileName];
    if (asset?.type !== 'asset') continue;
    const size = gzipBytes(asset.source);
    total += size;
    contributors.push({ name: fileName, gzipBytes: size });
  }
  contributors.sort((a, b) => b.gzipBytes - a.gzipBytes);
  return { files: [...chunks.keys(), ...css], gzipBytes: total, contributors };
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

function contributorLines(load: FirstLoad, top: number): string[] {
  return load.contributors.slice(0, top).map((c) => `  ${kb(c.gzipBytes).padStart(6)}  ${c.name}`);
}

/** The first load's files and its largest contributors, for a build asked to report them. */
export function contributorsReport(load: FirstLoad, top = 25): string {
  return [
    `first load ${kb(load.gzipBytes)} KB gzip (${load.files.join(', ')}). Largest contributors, KB gzip (estimated):`,
    ...contributorLines(load, top),
  ].join('\n');
}

/** What the build says when the first load is over budget: the total and the largest contributors. */
export function overBudgetMessage(load: FirstLoad, budgetKb: number, top = 25): string {
  return [
    `first load ${kb(load.gzipBytes)} KB gzip, over its budget of ${budgetKb} KB ` +
      `(target ${FIRST_LOAD_TARGET_KB} KB) ` +
      `(${load.files.join(', ')}). Load on demand (import()) what the first screen does not show. ` +
      `Largest contributors, KB gzip (estimated):`,
    ...contributorLines(load, top),
  ].join('\n');
}

/** The Vite plugin: fails the SPA's build when its first load exceeds the budget. */
export function firstLoadBudget(budgetKb = FIRST_LOAD_BUDGET_KB): Plugin {
  let root = '';
  return {
    name: 'custody-console:first-load-budget',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    // After every other plugin's generateBundle (Vite's preload helper rewrites the entry there):
    // the bytes weighed are the bytes written.
    enforce: 'post',
    configResolved(config) {
      root = config.root;
    },
    writeBundle(_options, bundle) {
      const load = firstLoadOf(bundle as unknown as BudgetBundle, root);
      if (load.gzipBytes > budgetKb * 1024) this.error(overBudgetMessage(load, budgetKb));
      // FIRST_LOAD_REPORT=1 lists the contributors on a build within budget too, to see what to cut.
      if (process.env.FIRST_LOAD_REPORT) this.info(contributorsReport(load));
      this.info(
        `first load ${kb(load.gzipBytes)} KB gzip (budget ${budgetKb} KB, target ${FIRST_LOAD_TARGET_KB} KB)`,
      );
    },
  };
}
