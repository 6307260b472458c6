import { runCli } from './cli/run.ts';

/**
 * `npm run cli -- <command>`: what must happen before anyone can sign in or
 * call the sandbox. Results go to stdout, everything else to
 * stderr; `npm run -s cli -- …` keeps npm's own banner off stdout too.
 */

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  readStdin,
  env: process.env,
  cwd: process.cwd(),
}).then(
  (code) => {
    // exitCode, not exit(): stdout may be a pipe still flushing the result.
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `cli failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
