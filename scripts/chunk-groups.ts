/**
 * How the SPA's code outside the first load is cut into chunks (vite.config.ts,
 * `codeSplitting.groups`). Left to itself Rolldown makes one chunk per distinct
 * set of importers, so a page that shares a little with each of a dozen others
 * fetched a dozen small chunks (a transaction's page 33, the approvals inbox 22)
 * before it was live. Here a module that pages share is named by the pages that
 * reach it:
 *
 * - reached by three pages or more: one `common` chunk, what most pages need
 *   anyway (the approval card, the contract's shared schemas, small components);
 * - reached by one or two pages: one chunk per such set, named after them;
 * - reached only by code loaded on demand (a dialog's `import()`): left to
 *   Rolldown, so none of it is fetched with a page.
 *
 * A page is the route file's split parts (its component and its loader). The
 * modules a dynamic `import()` names stay chunks of their own, as Rolldown
 * makes them: they are what the page fetches on demand.
 */

interface ModuleInfoLike {
  importers: readonly string[];
  importedIds: readonly string[];
  dynamicImporters: readonly string[];
  isEntry: boolean;
  code: string | null;
}
interface ChunkingContextLike {
  getModuleInfo(id: string): ModuleInfoLike | null;
}

const ROUTE_PART = /\/src\/web\/routes\/(.+)\.tsx\?tsr-split=[\w-]+$/;

/** A module's family when code reaches it by `import()`: its route file, or itself. */
function familyOf(id: string): { page: boolean; name: string } {
  const route = ROUTE_PART.exec(id)?.[1];
  return route ? { page: true, name: route } : { page: false, name: id };
}

/**
 * Libraries kept apart, each one chunk, fetched only by what uses them: the
 * forms' stack, the dialogs', the passkey library, and those one page or two
 * use. Any other library a page needs beyond the first load (big.js, the
 * hashes of an approval card, the router's and query's parts the first load
 * left out) is small and goes with the shared code.
 */
const LIBRARIES: ReadonlyArray<[RegExp, string]> = [
  // react-hook-form, its resolvers and classic zod (zod/mini is in the first load).
  [/\/node_modules\/(react-hook-form|@hookform|zod)\//, 'forms'],
  [
    /\/node_modules\/(@radix-ui|react-remove-scroll|react-remove-scroll-bar|use-callback-ref|use-sidecar|aria-hidden|tslib|get-nonce|detect-node-es)\//,
    'dialog',
  ],
  [/\/node_modules\/@simplewebauthn\//, 'passkeys'],
  [/\/node_modules\/(ibantools|uplot|papaparse|uqr|otpauth)\//, '$1'],
];

function libraryOf(id: string): string | null {
  for (const [test, name] of LIBRARIES) {
    const match = test.exec(id);
    if (match) return name === '$1' ? (match[1] ?? null) : name;
  }
  return null;
}

// A route's split part, or the module an import() names and nothing imports statically.
const isOnDemandRoot = (info: ModuleInfoLike) =>
  info.isEntry || (info.dynamicImporters.length > 0 && info.importers.length === 0);

export function chunkName(): (id: string, ctx: ChunkingContextLike) => string | null {
  /** Every module that imports `id` statically, transitively, stopping where `stop` says. */
  const above = (id: string, ctx: ChunkingContextLike, stop: (id: string) => boolean) => {
    const seen = new Set([id]);
    const queue = [id];
    for (let next = queue.pop(); next !== undefined; next = queue.pop())
      for (const importer of ctx.getModuleInfo(next)?.importers ?? [])
        if (!seen.has(importer) && !stop(importer)) {
          seen.add(importer);
          queue.push(importer);
        }
    return seen;
  };
  // Reached statically from the app's entry: in the first load, or an import of it that the
  // first load's tree-shaking dropped (zod's core names every part of classic zod).
  const initial = new Map<string, boolean>();
  const isInitial = (id: string, ctx: ChunkingContextLike): boolean => {
    let answer = initial.get(id);
    if (answer === undefined) {
      answer = [...above(id, ctx, () => false)].some((m) => {
        const info = ctx.getModuleInfo(m);
        return !!info && info.isEntry && info.dynamicImporters.length === 0;
      });
      initial.set(id, answer);
    }
    return answer;
  };
  // The families that reach a module: the pages (route files) and on-demand modules whose static
  // imports lead to it (a module can be both, lib/signed-decision.ts), never through the first
  // load, which every page has.
  const families = new Map<string, { pages: string[]; all: number }>();
  const familiesOf = (id: string, ctx: ChunkingContextLike) => {
    let answer = families.get(id);
    if (!answer) {
      const names = new Set<string>();
      for (const m of above(id, ctx, (importer) => isInitial(importer, ctx))) {
        const info = ctx.getModuleInfo(m);
        if (info && isOnDemandRoot(info)) names.add(familyOf(m).name);
      }
      answer = { pages: [...names].filter((n) => !n.startsWith('/')).sort(), all: names.size };
      families.set(id, answer);
    }
    return answer;
  };
  // The libraries a module needs, transitively: shared code is cut by them, so a page that needs
  // none of the forms' stack never fetches it for a neighbour's sake.
  const needs = new Map<string, string>();
  const librariesNeeded = (id: string, ctx: ChunkingContextLike) => {
    let answer = needs.get(id);
    if (answer === undefined) {
      const found = new Set<string>();
      const seen = new Set([id]);
      const queue = [id];
      for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
        for (const imported of ctx.getModuleInfo(next)?.importedIds ?? []) {
          if (seen.has(imported) || isInitial(imported, ctx)) continue;
          seen.add(imported);
          const library = libraryOf(imported);
          if (library) found.add(library);
          else queue.push(imported);
        }
      }
      answer = [...found].sort().join('+');
      needs.set(id, answer);
    }
    return answer;
  };
  /** The chunk for `id`, or null to leave it where Rolldown puts it. */
  return (id, ctx) => {
    const info = ctx.getModuleInfo(id);
    if (!info || isOnDemandRoot(info)) return null;
    const reached = familiesOf(id, ctx);
    const library = libraryOf(id);
    // A library goes whole to whoever uses it; so does what the first load imports but tree-shook
    // (classic zod's parts of zod's core).
    if (library && (reached.all >= 2 || isInitial(id, ctx))) return library;
    // One page's own, code only on-demand modules share, the first load's: where Rolldown puts it.
    if (reached.all < 2 || reached.pages.length === 0 || isInitial(id, ctx)) return null;
    const libraries = librariesNeeded(id, ctx);
    // Code only the forms (or only the dialogs) use goes with their library: whoever loads one
    // loads the other.
    if (libraries && !libraries.includes('+')) return libraries;
    return libraries ? `common~${libraries}` : 'common';
  };
}
