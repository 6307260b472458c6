import type { MiddlewareHandler } from 'hono';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/**
 * Compresses JSON answers of at least `threshold` bytes, brotli when the client
 * accepts it (the SPA's browser does), else gzip. Every JSON answer varies on
 * Accept-Encoding, compressed or not. Our answers are built whole (c.json), so
 * their size is known before choosing; hono's own compress middleware cannot
 * see it (no Content-Length) and would compress even a 60-byte error.
 * An ETag, if any, is left as it is: it names the JSON, not its encoding, and
 * Vary keeps caches from mixing encodings.
 */

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

type Encoding = 'br' | 'gzip';

/** The best encoding the header accepts (q=0 refuses one); undefined for none. */
export function pickEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number.parseFloat(q.slice(2)) || 0 : 1);
  }
  const weight = (e: string) => accepted.get(e) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return undefined;
}

function encode(raw: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? // Quality 4: about gzip's speed, smaller output; 11 is for build-time assets.
      brotli(raw, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 4,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      })
    : gz(raw, { level: 6 });
}

export function compressJson(threshold = 1024): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (c.req.method === 'HEAD' || !res.body || res.headers.has('Content-Encoding')) return;
    if (!res.headers.get('Content-Type')?.startsWith('application/json')) return;
    const vary = res.headers.get('Vary');
    if (!vary?.toLowerCase().includes('accept-encoding')) {
      res.headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    }
    const raw = Buffer.from(await res.arrayBuffer());
    const encoding =
      raw.length >= threshold ? pickEncoding(c.req.header('Accept-Encoding')) : undefined;
    const body = encoding ? await encode(raw, encoding) : raw;
    // Hono's setter carries the old answer's headers over except Content-Type,
    // which the new answer must state itself; then ours go on top.
    c.res = new Response(new Uint8Array(body), {
      status: res.status,
      statusText: res.statusText,
      headers: { 'Content-Type': res.headers.get('Content-Type') ?? 'application/json' },
    });
    c.res.headers.set('Content-Length', String(body.length));
    if (encoding) c.res.headers.set('Content-Encoding', encoding);
  };
}
