import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A NUL-terminated field of a tar header, as text. */
function field(header: Uint8Array, offset: number, length: number): string {
  const bytes = header.subarray(offset, offset + length);
  const end = bytes.indexOf(0);
  return Buffer.from(end < 0 ? bytes : bytes.subarray(0, end)).toString('utf8');
}

/**
 * Writes the files of an uncompressed ustar archive (what PGlite's
 * `dumpDataDir('none')` makes) under `dir`. Unpacking the test template this
 * way is file writes only; the alternative, opening a PGlite on the
 * directory with `loadDataDir`, starts a whole database to do the same and
 * cost several times as long. Only plain files and directories are
 * expected: any other entry (a link, a long-name extension) is refused
 * rather than skipped, so a template that needs them cannot load half-made.
 */
export async function untar(archive: Uint8Array, into: string): Promise<void> {
  const dir = path.resolve(into);
  const writes: Promise<void>[] = [];
  for (let offset = 0; offset + 512 <= archive.length;) {
    const header = archive.subarray(offset, offset + 512);
    const name = field(header, 0, 100);
    // Two zero blocks end the archive.
    if (!name) break;
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const relative = path.posix.join(field(header, 345, 155), name).replace(/^\/+/, '');
    const target = path.resolve(dir, relative);
    if (target !== dir && !target.startsWith(dir + path.sep))
      throw new Error(`tar entry ${relative} is outside ${dir}`);
    const body = archive.subarray(offset + 512, offset + 512 + size);
    if (type === '5') {
      await mkdir(target, { recursive: true });
    } else if (type === '0' || type === '\0') {
      await mkdir(path.dirname(target), { recursive: true });
      writes.push(writeFile(target, body));
    } else {
      throw new Error(
        `tar entry ${relative} is of type ${JSON.stringify(type)}, not a file or directory`,
      );
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  await Promise.all(writes);
}
