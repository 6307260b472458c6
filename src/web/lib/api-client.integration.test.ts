import { describe, expect } from 'vitest';
import { getTransaction, listTransactions } from '#contract/endpoints/transactions.ts';
import { getBankAccount, listBankAccounts } from '#contract/endpoints/bank-accounts.ts';
import { appTestWith } from '../../server/test/app-test.ts';
import { ApiError, NetworkError } from './api-errors.ts';
import { createApiClient } from './api-client.ts';

// The SPA's client against the real console app and a real (seeded) database,
// in process: what the browser would get, without a browser. It addresses the
// app as http://localhost, the test app's public origin (PUBLIC_URL).
const appTest = appTestWith({ seed: true }).extend('client', { scope: 'file' }, ({ t }) =>
  createApiClient({ fetch: (url, init) => t.app.request(`http://localhost${url}`, init) }),
);

describe('api client against the real app', () => {
  appTest(
    'pages through transactions with the default page size, newest first',
    async ({ client }) => {
      const first = await client.call(listTransactions, {});
      expect(first.results).toHaveLength(20);
      expect(first.hasNext).toBe(true);
      const second = await client.call(listTransactions, {
        query: { cursor: first.nextCursor ?? null },
      });
      const ids = new Set([...first.results, ...second.results].map((t) => t.id));
      expect(ids.size).toBe(40);
      const times = [...first.results, ...second.results].map((t) => t.createdAt ?? '');
      expect([...times].sort().reverse()).toEqual(times);
    },
  );

  appTest('sends filters as query parameters and blockChain on the wire', async ({ client }) => {
    const page = await client.call(listTransactions, {
      query: {
        status: 'COMPLETED',
        category: 'TRANSFER',
        limit: 5,
      },
    });
    expect(page.results.length).toBeGreaterThan(0);
    for (const t of page.results) {
      expect(t.status).toBe('COMPLETED');
      expect(t.category).toBe('TRANSFER');
      expect(t.blockChain).toBeTruthy();
    }
  });

  appTest('gets one transaction and one bank account by id', async ({ client }) => {
    const [tx] = (await client.call(listTransactions, { query: { limit: 1 } })).results;
    expect(
      (await client.call(getTransaction, { params: { transactionId: tx?.id ?? '' } })).id,
    ).toBe(tx?.id);
    const [account] = (
      await client.call(listBankAccounts, { query: { status: 'APPROVED', limit: 1 } })
    ).results;
    expect(
      (await client.call(getBankAccount, { params: { bankAccountId: account?.id ?? '' } })).status,
    ).toBe('APPROVED');
  });

  appTest('turns API refusals into ApiError with status, message and code', async ({ client }) => {
    await expect(
      client.call(getTransaction, { params: { transactionId: 'no-such-transaction' } }),
    ).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    await expect(client.call(listTransactions, { query: { limit: 101 } })).rejects.toMatchObject({
      status: 400,
      code: 'INVALID_LIMIT',
    });
    const error = await client
      .call(listTransactions, { query: { cursor: 'tampered' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('INVALID_CURSOR');
    expect((error as ApiError).message).toMatch(/cursor/i);
  });

  appTest('reports a network failure as a NetworkError, not an ApiError', async () => {
    const offline = createApiClient({
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    await expect(offline.call(listTransactions, {})).rejects.toBeInstanceOf(NetworkError);
  });

  appTest('hands the AbortSignal to fetch and passes an abort through untouched', async ({ t }) => {
    // app.request ignores signals, so this fetch honours them as a browser's would.
    const abortable = createApiClient({
      fetch: (url, init) =>
        init.signal?.aborted
          ? Promise.reject(new DOMException('The operation was aborted.', 'AbortError'))
          : t.app.request(`http://localhost${url}`, init),
    });
    const controller = new AbortController();
    controller.abort();
    const error = await abortable
      .call(listTransactions, {}, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(error).not.toBeInstanceOf(NetworkError);
  });
});
