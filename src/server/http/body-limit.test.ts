import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody } from '../../contract/common.ts';
import { paths } from '../../contract/paths.ts';
import {
  createEngineFixture,
  createEngineTestApp,
  type EngineFixture,
  type EngineTestApp,
} from '../test/engine-test-app.ts';
import { MAX_API_BODY_BYTES, MAX_AUTH_BODY_BYTES } from './body-limit.ts';

let t: EngineTestApp;
let f: EngineFixture;
beforeAll(async () => {
  t = await createEngineTestApp();
  f = await createEngineFixture(t.db, t.orgId);
});
afterAll(() => t.close());

/** A transfer whose memo pads the JSON body to exactly `bytes` bytes. */
function transferOfSize(bytes: number): string {
  const body = (memo: string) =>
    JSON.stringify({
      category: 'TRANSFER',
      source: { type: 'VAULT', id: f.treasury.id },
      destination: { type: 'VAULT', id: f.ops.id },
      amount: '0.01',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      memo,
    });
  return body('x'.repeat(bytes - body('').length));
}

async function post(url: string, body: BodyInit, headers: Record<string, string> = {}) {
  const res = await t.app.request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://localhost', ...headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  return { status: res.status, body: (await res.json()) as unknown };
}

function streamOf(text: string, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + chunk));
      offset += chunk;
    },
  });
}

describe('request body size limit', () => {
  it('an API body over the limit: 413 {message, code} before anything reads it', async () => {
    const res = await post(paths.transactions(), transferOfSize(MAX_API_BODY_BYTES + 1));
    expect(res.status).toBe(413);
    const body = ApiErrorBody.parse(res.body);
    expect(body.code).toBe('BODY_TOO_LARGE');
    expect(body.message).toContain('1 MiB');
  });

  it('a body sent in chunks without Content-Length is refused once it passes the limit', async () => {
    const res = await post(
      paths.transactions(),
      streamOf('{"memo":"' + 'y'.repeat(3 * MAX_API_BODY_BYTES)),
    );
    expect(res.status).toBe(413);
    expect(ApiErrorBody.parse(res.body).code).toBe('BODY_TOO_LARGE');
  });

  it('a body of exactly the limit is read and judged on its content', async () => {
    // A 500-character memo rule, not the size, refuses it.
    const res = await post(paths.transactions(), transferOfSize(MAX_API_BODY_BYTES));
    expect(res.status).toBe(400);
    expect(ApiErrorBody.parse(res.body).fields?.map((x) => x.field)).toEqual(['memo']);
  });

  it('sign-in has its own, smaller limit', async () => {
    const password = 'p'.repeat(MAX_AUTH_BODY_BYTES);
    const res = await post('/auth/login', JSON.stringify({ email: 'a@b.example', password }));
    expect(res.status).toBe(413);
    expect(ApiErrorBody.parse(res.body)).toMatchObject({ code: 'BODY_TOO_LARGE' });
    expect(ApiErrorBody.parse(res.body).message).toContain('16 KiB');
  });
});
