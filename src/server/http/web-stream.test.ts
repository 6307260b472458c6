import { PassThrough } from 'node:stream';
import { createGzip, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { toWebStream } from './web-stream.ts';

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    chunks.push(value);
  }
}

describe('toWebStream', () => {
  it('carries every byte in order, written before and after it was made, and ends', async () => {
    const source = new PassThrough();
    source.write('<head>');
    const web = toWebStream(source);
    setImmediate(() => source.end('x'.repeat(200_000)));
    const bytes = await readAll(web);
    expect(bytes.toString('utf8')).toBe(`<head>${'x'.repeat(200_000)}`);
  });

  it('carries a compressed stream whole', async () => {
    const gzip = createGzip();
    const web = toWebStream(gzip);
    gzip.write('a'.repeat(50_000));
    gzip.end('b'.repeat(50_000));
    expect(gunzipSync(await readAll(web)).toString('utf8')).toBe(
      'a'.repeat(50_000) + 'b'.repeat(50_000),
    );
  });

  it('stops pulling from the source while the reader is behind', async () => {
    const source = new PassThrough({ highWaterMark: 1024 });
    const web = toWebStream(source);
    const reader = web.getReader();
    let accepted = 0;
    // The writer fills the web stream's queue (64 KB), then the source's own buffers.
    while (source.write(Buffer.alloc(1024)) && accepted < 1000) accepted += 1;
    expect(accepted).toBeLessThan(1000);
    await reader.read();
    await reader.cancel();
  });

  it('destroys the source when the reader cancels, and ignores what it sends afterwards', async () => {
    const source = new PassThrough();
    const web = toWebStream(source);
    const reader = web.getReader();
    source.write('first');
    expect(Buffer.from((await reader.read()).value ?? []).toString()).toBe('first');
    await reader.cancel();
    expect(source.destroyed).toBe(true);
    // A chunk, an end or an error after the cancel is not an uncaught error.
    source.emit('data', Buffer.from('late'));
    source.emit('end');
    source.emit('error', new Error('late'));
    source.emit('error', new Error('later still'));
  });

  it('errors the web stream when the source fails or closes before its end', async () => {
    const failing = new PassThrough();
    const failed = readAll(toWebStream(failing));
    failing.destroy(new Error('disk gone'));
    await expect(failed).rejects.toThrow('disk gone');

    const cut = new PassThrough();
    const closed = readAll(toWebStream(cut));
    cut.destroy();
    await expect(closed).rejects.toThrow('closed before its end');
  });
});
