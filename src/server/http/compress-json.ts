import type { Context, MiddlewareHandler } from 'hono';
import { promisify } from 'node:util';
import {
  brotliCompress,
  constants,
  createBrotliCompress,
  createGzip,
  gzip,
  type BrotliCompress,
  type Gzip,
} from 'node:zlib';
import { isSharedAnswer } from '../db/read-cache.ts';
import { markSecured } from './security-headers.ts';

/**
 * Compresses JSON answers of at least `threshold` bytes, brotli when the client
 * accepts it (the SPA's browser does), else gzip. Every JSON answer varies on
 * Accept-Encoding, compressed or not. Our answers are built whole (c.json), so
 * their size is known before choosing; hono's own compress middleware cannot
 * see it (no Content-Length) and would compress even a 60-byte error.
 * An ETag, if any, is left as it is: it names the JSON, not its encoding, and
 * Vary keeps caches from mixing encodings.
 *
 * Serializing and compressing were a third of the server's time on the list
 * page when profiled. An answer the read cache shares between requests
 * (db/read-cache.ts: never mutated, replaced when anything commits) is
 * therefore serialized once and compressed once per encoding, the bytes kept
 * beside it for as long as the cache keeps it. Any other answer is serialized
 * and compressed per request, as before.
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
    // eslint-disable-next-line no-restricted-syntax -- an Accept-Encoding q-value, no amount
    accepted.set(name, q ? Number.parseFloat(q.slice(2)) || 0 : 1);
  }
  const weight = (e: string) => accepted.get(e) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return undefined;
}

// Settings cheap enough for every request. Brotli quality 4: about gzip's
// speed, smaller output; 11 is for build-time assets. A 256 KB window (2^18)
// instead of the default 4 MB: what is compressed here (a page of rows, a
// JSON answer) is far smaller, so the output is the same, but every encoder
// holds its window in native memory for as long as its response lasts. With
// the default, 50 pages rendered at once kept the server at 550 MB resident
// and its external memory forced a full GC about every 25 pages; with 2^18,
// 300-385 MB and a third as many full GCs (docs/running.md, "Production runtime").
const BROTLI_PARAMS = {
  [constants.BROTLI_PARAM_QUALITY]: 4,
  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  [constants.BROTLI_PARAM_LGWIN]: 18,
};
const GZIP_LEVEL = 6;

/** `raw` in `encoding`. */
function encode(raw: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(raw, {
        params: { ...BROTLI_PARAMS, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
      })
    : gz(raw, { level: GZIP_LEVEL });
}

// A rendered page is compressed afresh for every request (a visitor's own rows: nothing to
// share), so its stream is a step cheaper than a JSON answer: at quality 3 a rendered
// /transactions (~90 KB of HTML) took about a third less CPU than at 4, for 14.4 KB on the
// wire against 13.6 KB (docs/bench.md, "A rendered page's CPU").
const PAGE_BROTLI_PARAMS = { ...BROTLI_PARAMS, [constants.BROTLI_PARAM_QUALITY]: 3 };

/** A stream encoding a page in `encoding`, for a body sent in parts (brotli a step below `encode`'s). */
export function encoder(encoding: Encoding): {
  stream: BrotliCompress | Gzip;
  /** Sends what was written so far on to the client, without ending the stream. */
  flush(): Promise<void>;
} {
  if (encoding === 'br') {
    const stream = createBrotliCompress({ params: PAGE_BROTLI_PARAMS });
    return {
      stream,
      flush: () =>
        new Promise((resolve) => stream.flush(constants.BROTLI_OPERATION_FLUSH, resolve)),
    };
  }
  const stream = createGzip({ level: GZIP_LEVEL });
  return {
    stream,
    flush: () => new Promise((resolve) => stream.flush(constants.Z_SYNC_FLUSH, resolve)),
  };
}

/** One JSON body and, once asked for, its encodings. */
class JsonBody {
  readonly raw: Buffer;
  private readonly encoded = new Map<Encoding, Promise<Buffer>>();

  constructor(text: string) {
    this.raw = Buffer.from(text);
  }

  /** Concurrent requests for the same body share one compression. */
  encode(encoding: Encoding): Promise<Buffer> {
    let bytes = this.encoded.get(encoding);
    if (!bytes) {
      bytes = encode(this.raw, encoding);
      this.encoded.set(encoding, bytes);
      bytes.catch(() => this.encoded.delete(encoding));
    }
    return bytes;
  }
}

// Keyed by the shared answer itself: dropped with it when the read cache lets it go.
const sharedBodies = new WeakMap<object, JsonBody>();

function bodyOf(value: unknown): JsonBody {
  if (!isSharedAnswer(value)) return new JsonBody(JSON.stringify(value));
  const key = value as object;
  let body = sharedBodies.get(key);
  if (!body) {
    body = new JsonBody(JSON.stringify(value));
    sharedBodies.set(key, body);
  }
  return body;
}

/** c.json, but through bodyOf; the answer it made is remembered with its body. */
function jsonThroughBodies(c: Context, made: WeakMap<Response, JsonBody>): Context['json'] {
  // c.body's overloads, as the one signature c.json forwards to it.
  const send = c.body as (
    bytes: Uint8Array<ArrayBuffer>,
    arg?: number | ResponseInit,
    headers?: Record<string, string | string[]>,
  ) => Response;
  const json = (
    value: unknown,
    arg?: number | ResponseInit,
    headers?: Record<string, string | string[]>,
  ): Response => {
    const body = bodyOf(value);
    // The body's bytes, shared and never written to, rather than its text: a text body is
    // joined to the header block and encoded again for every answer (a page of 20 is
    // ~15 KB, about a fifth of what an answer from the read cache allocated).
    const bytes = body.raw as Uint8Array<ArrayBuffer>;
    const res = send(bytes, arg, { 'Content-Type': 'application/json', ...headers });
    made.set(res, body);
    return res;
  };
  return json as unknown as Context['json'];
}

export interface CompressJsonOptions {
  /** Answers under this many bytes go as they are (default 1 KB). */
  threshold?: number;
  /**
   * The security headers every answer carries (http/security-headers.ts), by
   * lower-case name: given, a JSON answer is made once with all its headers
   * in one plain record, and securityHeaders leaves it be. Each header set
   * one by one through the answer's Headers (about fifteen an answer) cost
   * more than the rest of a cached answer's header work.
   */
  securityHeaders?: (c: Context) => Readonly<Record<string, string>>;
}

export function compressJson({
  threshold = 1024,
  securityHeaders,
}: CompressJsonOptions = {}): MiddlewareHandler {
  return async (c, next) => {
    const made = new WeakMap<Response, JsonBody>();
    c.json = jsonThroughBodies(c, made);
    await next();
    const res = c.res;
    if (c.req.method === 'HEAD' || res.headers.has('Content-Encoding')) return;
    if (!res.headers.get('Content-Type')?.startsWith('application/json')) return;
    const vary = res.headers.get('Vary');
    const varies = vary?.toLowerCase().includes('accept-encoding')
      ? vary
      : vary
        ? `${vary}, Accept-Encoding`
        : 'Accept-Encoding';
    // The answer c.json made (its bytes known), or one built some other way (read back).
    const known = made.get(res);
    if (!known && !res.body) {
      res.headers.set('Vary', varies);
      return;
    }
    const body = known ?? new JsonBody(await res.text());
    const encoding =
      body.raw.length >= threshold ? pickEncoding(c.req.header('Accept-Encoding')) : undefined;
    const bytes = encoding ? await body.encode(encoding) : body.raw;
    // The shared bytes themselves, not a copy: nothing writes to a response body.
    const payload = bytes as Uint8Array<ArrayBuffer>;
    // A record holds one value a name: an answer setting cookies keeps its Headers.
    const secured = securityHeaders?.(c);
    if (secured && res.headers.getSetCookie().length === 0) {
      const record: Record<string, string> = {};
      for (const [name, value] of res.headers) record[name] = value;
      delete record['x-powered-by'];
      Object.assign(record, secured);
      record['vary'] = varies;
      record['content-length'] = String(bytes.length);
      if (encoding) record['content-encoding'] = encoding;
      c.res = undefined;
      const answer = new Response(payload, { status: res.status, headers: record });
      markSecured(answer);
      c.res = answer;
      return;
    }
    res.headers.set('Vary', varies);
    if (!encoding && known) {
      res.headers.set('Content-Length', String(body.raw.length));
      return;
    }
    const headers = new Headers(res.headers);
    headers.set('Content-Length', String(bytes.length));
    if (encoding) headers.set('Content-Encoding', encoding);
    // Cleared first: hono's setter would otherwise copy the old answer's headers
    // by rebuilding it from its body stream, the costliest step of the answer.
    c.res = undefined;
    c.res = new Response(payload, { status: res.status, headers });
  };
}
