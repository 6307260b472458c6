import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SECTIONS } from './sections.ts';

/**
 * `npm run bench [-- options]`: runs the sections bench/sections.ts lists
 * (see bench/section.ts to add one), prints each one's tables and writes
 * every figure to .tmp/bench-latest.json.
 *   --only a,b      run only these sections
 *   --seconds S     length of one load cell (default 5)
 *   --requests N    request budget of one in-process load cell (default 2000)
 *   --rows N        bulk rows for the storage section (default 1,000,000)
 *   --no-build      reuse dist/ instead of running `npm run build` first
 *   --help          list the sections
 */

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    seconds: { type: 'string', default: '5' },
    requests: { type: 'string', default: '2000' },
    rows: { type: 'string', default: '1000000' },
    'no-build': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
const OUTPUT = path.join(process.cwd(), '.tmp', 'bench-latest.json');
const progress = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  if (args.help) {
    process.stdout.write(SECTIONS.map((s) => `${s.name}: ${s.about}\n`).join(''));
    return;
  }
  const wanted = args.only?.split(',').map((s) => s.trim());
  const unknown = wanted?.filter((name) => !SECTIONS.some((s) => s.name === name)) ?? [];
  if (unknown.length > 0)
    throw new Error(
      `no section ${unknown.join(', ')}; sections: ${SECTIONS.map((s) => s.name).join(', ')}`,
    );
  const sections = SECTIONS.filter((s) => !wanted || wanted.includes(s.name));

  const started = performance.now();
  const output: Record<string, unknown> = {
    startedAt: new Date().toISOString(),
    node: process.version,
    cpus: os.availableParallelism(),
    loadAverageAtStart: os.loadavg(),
  };
  const texts: string[] = [];
  for (const section of sections) {
    progress(`--- ${section.name}: ${section.about}`);
    const result = await section.run({
      seconds: Number(args.seconds),
      requests: Number.parseInt(args.requests, 10),
      rows: Number.parseInt(args.rows, 10),
      build: !args['no-build'],
      progress,
    });
    output[section.name] = result.data;
    texts.push(`\n=== ${section.name} ===\n${result.text}`);
  }
  output.loadAverageAtEnd = os.loadavg();
  output.totalSeconds = (performance.now() - started) / 1000;
  await mkdir(path.dirname(OUTPUT), { recursive: true });
  await writeFile(OUTPUT, `${JSON.stringify(output, null, 2)}\n`);
  process.stdout.write(
    `${texts.join('\n')}\n\nload average (1/5/15 min) at start ${(output.loadAverageAtStart as number[]).map((n) => n.toFixed(2)).join(' ')}, at end ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}\n` + `written to ${path.relative(process.cwd(), OUTPUT)}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
