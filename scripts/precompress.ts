import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { Plugin } from 'vite';
import { COMPRESSIBLE_FILE } from '../src/server/http/compressible.ts';

/**
 * Writes `x.br` and `x.gz` beside every compressible file of the built SPA, at
 * the strongest settings (paid once at build, never per request). The server
 * answers a request with the variant its Accept-Encoding allows (see
 * src/server/http/spa.ts); a variant that would not be smaller is not written.
 */

// Below this the headers cost more than the bytes saved.
const MIN_BYTES = 512;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

export interface PrecompressResult {
  files: number;
  bytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

export async function precompressDirectory(dir: string): Promise<PrecompressResult> {
  const result: PrecompressResult = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  for await (const file of files(dir)) {
    if (!COMPRESSIBLE_FILE.test(file) || (await stat(file)).size < MIN_BYTES) continue;
    const raw = await readFile(file);
    const [br, gzipped] = await Promise.all([
      brotli(raw, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      }),
      gz(raw, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    result.files += 1;
    result.bytes += raw.length;
    if (br.length < raw.length) {
      await writeFile(`${file}.br`, br);
      result.brotliBytes += br.length;
    }
    if (gzipped.length < raw.length) {
      await writeFile(`${file}.gz`, gzipped);
      result.gzipBytes += gzipped.length;
    }
  }
  return result;
}

/** The Vite plugin: precompresses the output directory once the bundle is written. */
export function precompress(): Plugin {
  let outDir = '';
  let serverBuild = false;
  return {
    name: 'custody-console:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      // The server-render build (dist/ssr) is read from disk by the server, never sent.
      serverBuild = Boolean(config.build.ssr);
    },
    async closeBundle() {
      if (serverBuild) return;
      const r = await precompressDirectory(outDir);
      const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
      this.info(
        `precompressed ${r.files} files: ${kb(r.bytes)} → brotli ${kb(r.brotliBytes)}, gzip ${kb(r.gzipBytes)}`,
      );
    },
  };
}
