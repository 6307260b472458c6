// `npm run build:server`: compiles the console server (and the contract it
// shares with the SPA) to dist/node with tsconfig.server.json, then copies the
// SQL migrations beside the compiled database code, where it looks for them.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const out = 'dist/node';
rmSync(out, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.server.json'], { stdio: 'inherit' });
cpSync('src/server/db/migrations', `${out}/server/db/migrations`, { recursive: true });
// The compiled files keep their `#contract/…` imports (tsc rewrites relative
// specifiers only); this package.json beside them maps those to the compiled
// contract, where the root one maps them to the TypeScript sources.
writeFileSync(
  `${out}/package.json`,
  `${JSON.stringify({ type: 'module', imports: { '#contract/*.ts': './contract/*.js' } }, null, 2)}\n`,
);
