import { get } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { shareAnswer } from '../db/read-cache.ts';
import { listen } from '../test/served.ts';
import { compressJson, encoder, pickEncoding } from './compress-json.ts';

/** The window a brotli stream declares in its first bits (RFC 7932, section 9.1): what a decoder must hold. */
function brotliWindowBits(stream: Uint8Array): number {
  const bits = stream[0] ?? 0;
  if ((bits & 1) === 0) return 16;
  const short = (bits >> 1) & 7;
  if (short !== 0) return 17 + short;
  const long = (bits >> 4) & 7;
  return long === 0 ? 17 : 8 + long;
}

async function streamed(parts: string[]): Promise<Buffer> {
  const { stream, flush } = encoder('br');
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => stream.on('end', resolve));
  for (const part of parts.slice(0, -1)) {
    stream.write(part);
    await flush();
  }
  stream.end(parts.at(-1));
  await ended;
  return Buffer.concat(chunks);
}

describe('pickEncoding', () => {
  it('prefers brotli, then gzip, and honours q-values', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0.5, gzip;q=0.9')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*, br;q=0')).toBe('gzip');
    expect(pickEncoding('identity')).toBeUndefined();
    expect(pickEncoding('deflate')).toBeUndefined();
    expect(pickEncoding('')).toBeUndefined();
    expect(pickEncoding(undefined)).toBeUndefined();
  });
});

describe('brotli window', () => {
  // Each encoder holds its window for as long as its response lasts: the
  // default 4 MB per page in flight is what kept a busy server at 550 MB.
  const page = Array.from({ length: 2000 }, (_, i) => `<tr><td>row ${i}</td></tr>`).join('');

  it('is 256 KB for a page sent in parts, which still decodes whole', async () => {
    const bytes = await streamed(['<head>', page]);
    expect(brotliWindowBits(bytes)).toBe(18);
    expect(brotliDecompressSync(bytes).toString()).toBe(`<head>${page}`);
  });

  it('is 256 KB for a JSON answer, which still decodes whole', async () => {
    const rows = Array.from({ length: 500 }, (_, i) => ({ id: `tx-${i}`, amount: `${i}.5` }));
    const app = new Hono().use(compressJson()).get('/rows', (c) => c.json({ rows }));
    const res = await app.request('/rows', { headers: { 'Accept-Encoding': 'br' } });
    expect(res.headers.get('Content-Encoding')).toBe('br');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(brotliWindowBits(bytes)).toBe(18);
    expect(JSON.parse(brotliDecompressSync(bytes).toString())).toEqual({ rows });
  });
});

describe('a shared answer', () => {
  // A page the read cache shares is sent as its kept bytes to every request, over real HTTP
  // (the node adapter writes a byte body and a text body differently).
  const rows = Array.from({ length: 60 }, (_, i) => ({ id: `tx-${i}`, note: `Trésorerie € ${i}` }));
  const page = { rows };
  shareAnswer(page);

  it('reaches every client whole, in plain JSON and in brotli, non-ASCII text included', async () => {
    // With its security headers made in the answer's one record of headers, as the app does.
    const secured = { 'x-frame-options': 'DENY', 'cache-control': 'no-store' };
    const app = new Hono()
      .use(compressJson({ securityHeaders: () => secured }))
      .get('/rows', (c) => c.json(page));
    const server = await listen(app);
    try {
      const url = `http://127.0.0.1:${server.port}/rows`;
      const expected = Buffer.from(JSON.stringify(page));
      for (let i = 0; i < 3; i += 1) {
        const plain = await fetch(url, { headers: { 'Accept-Encoding': 'identity' } });
        const bytes = Buffer.from(await plain.arrayBuffer());
        expect(plain.headers.get('Content-Length')).toBe(String(expected.length));
        expect(plain.headers.get('Content-Type')).toMatch(/^application\/json/);
        expect(plain.headers.get('X-Frame-Options')).toBe('DENY');
        expect(plain.headers.get('Vary')).toBe('Accept-Encoding');
        expect(bytes.equals(expected)).toBe(true);
      }
      const br = await new Promise<{ headers: Record<string, unknown>; bytes: Buffer }>(
        (resolve, reject) => {
          get(url, { headers: { 'Accept-Encoding': 'br' } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
          }).on('error', reject);
        },
      );
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['cache-control']).toBe('no-store');
      expect(br.headers['content-length']).toBe(String(br.bytes.length));
      expect(brotliDecompressSync(br.bytes).equals(expected)).toBe(true);
    } finally {
      await server.close();
    }
  });
});
