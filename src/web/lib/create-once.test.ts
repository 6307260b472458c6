import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '#contract/common.ts';
import { createApiClient, type FetchLike } from './api-client.ts';
import { ApiError, NetworkError } from './api-errors.ts';
import { UncertainSendError, createOnce } from './create-once.ts';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A console whose list answers what `existing` holds, counting lookups. */
function consoleWith(existing: Array<{ id: string; externalId: string }>) {
  const lookups: string[] = [];
  const fetch: FetchLike = (url) => {
    lookups.push(url);
    return json({ results: existing, nextCursor: null, hasNext: false });
  };
  return { client: createApiClient({ fetch }), lookups };
}

describe('createOnce', () => {
  it('sends once and answers what the create answered, with no lookup', async () => {
    const { client, lookups } = consoleWith([]);
    let sends = 0;
    const tx = await createOnce(client, {
      externalId: 'console-1',
      unsure: false,
      send: () => {
        sends += 1;
        return Promise.resolve({ id: 'tx-1', externalId: 'console-1' });
      },
    });
    expect(tx.id).toBe('tx-1');
    expect(sends).toBe(1);
    expect(lookups).toEqual([]);
  });

  it('after a lost answer, finds the transaction the attempt made instead of failing', async () => {
    const { client, lookups } = consoleWith([{ id: 'tx-2', externalId: 'console-2' }]);
    const tx = await createOnce(client, {
      externalId: 'console-2',
      unsure: false,
      send: () => Promise.reject(new NetworkError('connection reset')),
    });
    expect(tx.id).toBe('tx-2');
    expect(lookups[0]).toContain('externalId=console-2');
  });

  it('after a lost answer the lookup cannot confirm, says so; the next send looks up first', async () => {
    const { client } = consoleWith([]);
    await expect(
      createOnce(client, {
        externalId: 'console-3',
        unsure: false,
        send: () => Promise.reject(new ApiError(504, undefined, 'Gateway timeout')),
      }),
    ).rejects.toBeInstanceOf(UncertainSendError);

    const found = consoleWith([{ id: 'tx-3', externalId: 'console-3' }]);
    let sends = 0;
    const tx = await createOnce(found.client, {
      externalId: 'console-3',
      unsure: true,
      send: () => {
        sends += 1;
        return Promise.reject(new Error('must not be sent'));
      },
    });
    expect(tx.id).toBe('tx-3');
    expect(sends).toBe(0);
  });

  it('a refusal is passed on as it is: nothing was created', async () => {
    const { client } = consoleWith([]);
    const refusal = new ApiError(
      400,
      ERROR_CODES.duplicateExternalId,
      'externalId is already used',
    );
    await expect(
      createOnce(client, {
        externalId: 'console-4',
        unsure: false,
        send: () => Promise.reject(refusal),
      }),
    ).rejects.toBe(refusal);
  });
});
