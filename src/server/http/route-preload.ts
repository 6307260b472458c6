import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The chunks of the page a URL opens, named in index.html so the browser
 * fetches them alongside the entry instead of after it. Without this, a cold
 * load is a waterfall: HTML → entry → the router matches → the route's
 * chunks → their imports. Vite's manifest (build.manifest in
 * vite.config.ts) says which file each route compiled to and what it
 * imports; TanStack Router's file names say which URL each route serves.
 */

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

interface RoutePreload {
  pattern: RegExp;
  /** Dynamic segments: with two candidates, /transactions/new beats /transactions/$id. */
  params: number;
  files: string[];
}

// Autocode-split parts of a route (its component, its loader: vite.config.ts), e.g.
// src/web/routes/_authenticated/transactions_.$transactionId.tsx?tsr-split=component
const SPLIT_ROUTE = /^src\/web\/routes\/(.+)\.tsx\?tsr-split=[\w-]+$/;

/** TanStack file-route name → URL pattern: `_x` segments are pathless, a `_` suffix un-nests, `$p` is a parameter. */
export function routePattern(routeFile: string): { pattern: RegExp; params: number } {
  const segments = routeFile
    .split(/[/.]/)
    .filter((s) => !s.startsWith('_') && s !== 'index')
    .map((s) => s.replace(/_$/, ''));
  const params = segments.filter((s) => s.startsWith('$')).length;
  const source = segments
    .map((s) => (s.startsWith('$') ? '/[^/]+' : `/${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))
    .join('');
  return { pattern: new RegExp(`^${source || '/'}/?$`), params };
}

function layoutsOf(routeFile: string): string[] {
  // `_authenticated/transactions` sits under the layout route `_authenticated`.
  const parts = routeFile.split('/');
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
}

function routePreloads(manifest: Manifest): RoutePreload[] {
  const filesOf = (key: string, seen = new Set<string>()): string[] => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return [];
    seen.add(key);
    return [
      chunk.file,
      ...(chunk.css ?? []),
      ...(chunk.imports ?? []).flatMap((i) => filesOf(i, seen)),
    ];
  };
  // Each route's split parts: the page needs its loader's chunk as much as its component's.
  const parts = new Map<string, string[]>();
  for (const key of Object.keys(manifest)) {
    const route = SPLIT_ROUTE.exec(key)?.[1];
    if (route) parts.set(route, [...(parts.get(route) ?? []), key]);
  }
  const preloads: RoutePreload[] = [];
  for (const [route, keys] of parts) {
    const layouts = layoutsOf(route).flatMap((l) => parts.get(l) ?? []);
    const files = [...new Set([...layouts, ...keys].flatMap((k) => filesOf(k)))];
    preloads.push({ ...routePattern(route), files });
  }
  return preloads.sort((a, b) => a.params - b.params);
}

function readPreloads(staticDir: string): RoutePreload[] {
  try {
    const manifest = JSON.parse(
      readFileSync(path.join(staticDir, '.vite', 'manifest.json'), 'utf8'),
    ) as Manifest;
    return routePreloads(manifest);
  } catch {
    // No manifest (an older build, or none yet): the page loads as before, only later.
    return [];
  }
}

/**
 * A function that adds `<link rel="modulepreload">` (and stylesheets) for
 * the page at a URL path to index.html; index.html unchanged when the build
 * has no manifest or no route matches. The manifest is read again whenever
 * index.html changes, so a rebuild is followed without a restart.
 */
export function preloaderFor(staticDir: string): (html: string, urlPath: string) => string {
  let builtFor: string | undefined;
  let preloads: RoutePreload[] = [];
  return (html, urlPath) => {
    if (html !== builtFor) {
      preloads = readPreloads(staticDir);
      builtFor = html;
    }
    const route = preloads.find((p) => p.pattern.test(urlPath));
    if (!route) return html;
    const links = route.files
      .filter((file) => !html.includes(`/${file}"`))
      .map((file) =>
        file.endsWith('.css')
          ? `<link rel="stylesheet" crossorigin href="/${file}">`
          : `<link rel="modulepreload" crossorigin href="/${file}">`,
      );
    return links.length === 0 ? html : html.replace('</head>', `${links.join('\n')}\n</head>`);
  };
}
