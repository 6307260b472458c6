import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect } from 'vitest';
import { createTransaction } from '../test/fixtures.ts';
import { appTestWith } from '../test/app-test.ts';

// JSON answers are compressed on the wire when the client accepts it.
const appTest = appTestWith({ seed: true });

const LIST = '/api/external/transactions/?limit=20';

describe('compressed JSON answers', () => {
  appTest('brotli-encodes a page for a browser, which accepts br', async ({ t }) => {
    const res = await t.app.request(LIST, {
      headers: { 'Accept-Encoding': 'gzip, deflate, br, zstd' },
    });
    expect(res.headers.get('Content-Encoding')).toBe('br');
    const body = JSON.parse(brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString());
    expect(body.results).toHaveLength(20);
  });

  appTest(
    'gzips a page of transactions for a client that accepts gzip, and the bytes are the same JSON',
    async ({ t }) => {
      const plain = await t.app.request(LIST);
      const plainText = await plain.text();
      expect(plainText.length).toBeGreaterThan(1024);
      expect(plain.headers.get('Content-Encoding')).toBeNull();
      expect(plain.headers.get('Vary')).toMatch(/Accept-Encoding/);

      const res = await t.app.request(LIST, { headers: { 'Accept-Encoding': 'gzip, br;q=0' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('Content-Encoding')).toBe('gzip');
      expect(res.headers.get('Vary')).toMatch(/Accept-Encoding/);
      expect(res.headers.get('Cache-Control')).toBe('no-store');
      expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.length).toBeLessThan(plainText.length / 3);
      const body = JSON.parse(gunzipSync(bytes).toString('utf8'));
      expect(body.results).toHaveLength(20);
      expect(body).toEqual(JSON.parse(plainText));
    },
  );

  appTest('sends identity when the client takes neither', async ({ t }) => {
    const res = await t.app.request(LIST, { headers: { 'Accept-Encoding': 'deflate' } });
    expect(res.headers.get('Content-Encoding')).toBeNull();
    expect(res.headers.get('Content-Length')).toBe(
      String((await res.clone().arrayBuffer()).byteLength),
    );
    expect((await res.json()).results).toHaveLength(20);
  });

  appTest('leaves small answers and errors under 1 KB as they are', async ({ t }) => {
    const res = await t.app.request('/api/external/transactions/not-a-real-id/', {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('Content-Encoding')).toBeNull();
    expect(res.headers.get('Vary')).toMatch(/Accept-Encoding/);
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(await res.json()).toMatchObject({ code: expect.any(String) });
  });

  appTest(
    'answers a repeated page with the same bytes, and a new page once a transaction is written',
    async ({ t }) => {
      const br = { headers: { 'Accept-Encoding': 'br' } };
      const read = async () => {
        const res = await t.app.request(LIST, br);
        expect(res.status).toBe(200);
        expect(res.headers.get('Content-Encoding')).toBe('br');
        const bytes = Buffer.from(await res.arrayBuffer());
        expect(res.headers.get('Content-Length')).toBe(String(bytes.length));
        return { res, bytes, ids: parseIds(brotliDecompressSync(bytes)) };
      };
      const parseIds = (json: Buffer) =>
        (JSON.parse(json.toString('utf8')) as { results: Array<{ id: string }> }).results.map(
          (r) => r.id,
        );

      const first = await read();
      const again = await read();
      expect(again.bytes.equals(first.bytes)).toBe(true);
      // Each answer keeps its own headers: its request id, the security and cache headers.
      expect(again.res.headers.get('X-Request-Id')).not.toBe(first.res.headers.get('X-Request-Id'));
      expect(again.res.headers.get('Cache-Control')).toBe('no-store');
      expect(again.res.headers.get('Content-Security-Policy')).toMatch(/default-src 'self'/);
      expect(again.res.headers.get('Vary')).toMatch(/Accept-Encoding/);

      const created = await createTransaction(t.db, { orgId: t.orgId });
      const after = await read();
      expect(after.ids[0]).toBe(created.id);
      expect(after.ids).not.toEqual(first.ids);
      // The same page in gzip and in plain JSON says the same as the brotli one.
      const gzipped = await t.app.request(LIST, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(parseIds(gunzipSync(Buffer.from(await gzipped.arrayBuffer())))).toEqual(after.ids);
      const plain = await t.app.request(LIST);
      expect(parseIds(Buffer.from(await plain.arrayBuffer()))).toEqual(after.ids);
    },
  );
});
