// `npm run dev`: the console server (restarting on change) and Vite's dev
// server with hot reload, which proxies /api, /auth and /healthz to it.
// Open http://127.0.0.1:5173. Ctrl-C stops both.
import { spawn } from 'node:child_process';

const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'src/server/main.ts'], {
    stdio: 'inherit',
    // The browser talks to Vite, so Vite's address is the console's public origin.
    env: { ...process.env, PUBLIC_URL: process.env.PUBLIC_URL || 'http://127.0.0.1:5173' },
  }),
  spawn('npx', ['vite', '--host', '127.0.0.1'], { stdio: 'inherit' }),
];

let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 2_000).unref();
}
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
