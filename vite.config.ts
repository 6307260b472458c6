import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { chunkName } from './scripts/chunk-groups.ts';
import { firstLoadBudget } from './scripts/first-load-budget.ts';
import { precompress } from './scripts/precompress.ts';

/**
 * An endpoint's `summary` (contract/endpoints/) is for the OpenAPI document
 * the server publishes; the SPA never reads it. Left out of the browser's
 * build so that declaring an endpoint once costs the first load nothing.
 */
function endpointSummariesServerOnly(): Plugin {
  const summary = /\n\s*summary:\s*('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`[^`]*`),/g;
  return {
    name: 'endpoint-summaries-server-only',
    apply: (_config, env) => !env.isSsrBuild,
    transform(code, id) {
      if (!/\/src\/contract\/endpoints\/[^/]+\.ts$/.test(id)) return null;
      return { code: code.replace(summary, '\n'), map: null };
    },
  };
}

/**
 * Classic zod (the forms' rules, loaded with the forms) gets a copy of zod's core of its own in
 * the browser's build. Rolldown places a module in one chunk with every export any chunk uses:
 * the core's modules sit in the first load (the pages' `zod/mini` schemas need them), so all the
 * core classic zod uses came with them, about 6 KB gzip the list never runs. Two copies of the
 * core agree: zod keeps its configuration and registry on `globalThis`, a schema's checks and
 * parsing are its own methods, and `instanceof` reads a schema's traits, so mini schemas nested
 * in classic ones parse as before. The forms' chunks carry the extra bytes instead.
 */
function classicZodOwnCore(): Plugin {
  const COPY = '?classic-zod';
  return {
    name: 'classic-zod-own-core',
    enforce: 'pre',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    async resolveId(source, importer) {
      if (!importer?.includes('/node_modules/zod/') || !source.startsWith('.')) return null;
      const [file = importer, query] = importer.split('?');
      if (!file.includes('/zod/v4/classic/') && `?${query}` !== COPY) return null;
      const resolved = await this.resolve(source, file, { skipSelf: true });
      if (!resolved || resolved.external) return null;
      return `${resolved.id.split('?')[0]}${COPY}`;
    },
  };
}

// The router plugin must come before react() so generated route files are
// transformed by it. `vite build` makes the SPA (dist/web); `vite build --ssr`
// makes the server's render of it (dist/ssr, see src/web/entry-server.tsx).
const ssrBuild = {
  outDir: 'dist/ssr',
  emptyOutDir: true,
  sourcemap: true,
  copyPublicDir: false,
  rolldownOptions: { input: 'src/web/entry-server.tsx' },
};

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    tanstackRouter({
      target: 'react',
      routesDirectory: './src/web/routes',
      generatedRouteTree: './src/web/routeTree.gen.ts',
      autoCodeSplitting: true,
      // A route's loader is split like its component: left in the route file, it brought its
      // queries and their contract into every page's first load (ARCHITECTURE.md, "First load").
      codeSplittingOptions: {
        defaultBehavior: [
          ['loader', 'component'],
          ['errorComponent', 'notFoundComponent', 'pendingComponent'],
        ],
      },
    }),
    react(),
    tailwindcss(),
    endpointSummariesServerOnly(),
    classicZodOwnCore(),
    firstLoadBudget(),
    precompress(),
  ],
  resolve: {
    alias: {
      // The dialog's scroll lock injects a <style> the CSP refuses; its rules are in styles.css.
      'react-style-singleton': fileURLToPath(
        new URL('src/web/lib/style-singleton.ts', import.meta.url),
      ),
      // The router's store reads through the shim for React before 18; React 19 has the hook, and
      // the package's plain build uses it: the shim's own copy of the hook stays out of the bundle.
      'use-sync-external-store/shim/with-selector': 'use-sync-external-store/with-selector',
    },
  },
  // The server render bundles every package it uses: one file tree the server
  // imports with no dev dependency installed, React's production build
  // chosen at build time rather than by NODE_ENV at run time.
  ssr: { noExternal: true },
  // Node reads NODE_ENV at run time and `npm start` does not set it: the
  // render's React would run its development build (checks and warnings on
  // every element, about twice the CPU per page).
  ...(isSsrBuild ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
  build: isSsrBuild
    ? ssrBuild
    : {
        outDir: 'dist/web',
        emptyOutDir: true,
        sourcemap: true,
        manifest: true,
        // Every browser the console supports (Chrome and Edge 66+, Firefox 115+, Safari 17+)
        // preloads modules itself: the polyfill would be a script on every first load for none.
        modulePreload: { polyfill: false },
        // Everything the entry imports statically (React, the router, the
        // signed-in shell, the transactions list) in one chunk: a first load is
        // index.html, one script and one stylesheet, not a score of small chunks
        // queued on the browser's six connections. Other pages stay split and
        // import from it (ARCHITECTURE.md, "First load").
        rolldownOptions: {
          output: {
            // The entry lists every chunk an import() may need (Vite's preload of its imports):
            // named by their hash alone, the names cost the first load about 1 KB gzip. The
            // manifest (.vite/manifest.json) says which sources each file holds.
            chunkFileNames: 'assets/[hash].js',
            codeSplitting: {
              groups: [
                { name: 'error-codes', test: /src[\\/]contract[\\/]error-codes\.ts$/, priority: 4 },
                { name: 'first-load', tags: ['$initial'], priority: 3 },
                {
                  name: chunkName(),
                  debugName: 'shared-by-pages',
                  priority: 1,
                  includeDependenciesRecursively: false,
                },
              ],
            },
          },
        },
      },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/auth': 'http://127.0.0.1:8080',
      '/healthz': 'http://127.0.0.1:8080',
    },
  },
}));
