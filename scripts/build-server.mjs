// `npm run build:server`: compiles the console server (and the contract it
// shares with the SPA) to dist/node with tsconfig.server.json, then copies the
// SQL migrations beside the compiled database code, where it looks for them.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const out = 'dist/node';
rmSync(out, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.server.json'], { stdio: 'inherit' });
cpSync('src/server/db/migrations', `${out}/server/db/migrations`, { recursive: true });
