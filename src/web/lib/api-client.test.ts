import { describe, expect, it } from 'vitest';
import { getTransaction, listTransactions } from '#contract/endpoints/transactions.ts';
import { getBankAccount, listBankAccounts } from '#contract/endpoints/bank-accounts.ts';
import { createTransaction } from '#contract/endpoints/transaction-writes.ts';
import { createBankAccount } from '#contract/endpoints/bank-account-writes.ts';
import { approvalMessage, decideApproval } from '#contract/endpoints/approvals.ts';
import { listAssets, listSubOrgs, listVaults } from '#contract/endpoints/reference.ts';
import { createApiClient, type FetchLike } from './api-client.ts';
import { ApiError, NetworkError, ResponseValidationError } from './api-errors.ts';

interface Call {
  url: string;
  init: RequestInit;
}

function recordingFetch(respond: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetch: FetchLike = (url, init) => {
    calls.push({ url, init });
    return respond(url, init);
  };
  return { fetch, calls };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const emptyList = { results: [], nextCursor: null, hasNext: false };

describe('createApiClient', () => {
  it('lists with limit 20 by default, the cursor and filters as query parameters', async () => {
    const { fetch, calls } = recordingFetch(() => json(emptyList));
    const client = createApiClient({ fetch, baseUrl: 'http://console.test/' });

    await client.call(listTransactions, {});
    await client.call(listTransactions, {
      query: { status: 'COMPLETED', asset: 'ETH', cursor: 'abc', limit: 50 },
    });

    expect(calls[0]?.url).toBe('http://console.test/api/external/transactions/?limit=20');
    const second = new URL(calls[1]?.url ?? '');
    expect(second.pathname).toBe('/api/external/transactions/');
    expect(Object.fromEntries(second.searchParams)).toEqual({
      asset: 'ETH',
      cursor: 'abc',
      limit: '50',
      status: 'COMPLETED',
    });
  });

  it('sends same-origin credentials, Accept JSON and no body on reads', async () => {
    const { fetch, calls } = recordingFetch(() => json(emptyList));
    await createApiClient({ fetch }).call(listBankAccounts, { query: { status: 'PENDING' } });

    const { url, init } = calls[0] ?? { url: '', init: {} };
    expect(url).toBe('/api/external/bank_accounts/?limit=20&status=PENDING');
    expect(init.method).toBe('GET');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBeUndefined();
    expect(new Headers(init.headers).get('Accept')).toBe('application/json');
    expect(new Headers(init.headers).get('Content-Type')).toBeNull();
  });

  it('posts a create body as JSON with blockChain on the wire', async () => {
    const { fetch, calls } = recordingFetch(() => json({ id: 'tx_1', status: 'PENDING' }, 201));
    const client = createApiClient({ fetch });
    const created = await client.call(createTransaction, {
      body: {
        category: 'TRANSFER',
        source: { type: 'VAULT', id: 'v1' },
        destination: { type: 'CONTACT', id: 'c1' },
        amount: '0.000000000000000001',
        asset: 'ETH',
        blockChain: 'ETHEREUM',
      },
    });

    expect(created).toMatchObject({ id: 'tx_1', status: 'PENDING' });
    const { url, init } = calls[0] ?? { url: '', init: {} };
    expect(url).toBe('/api/external/transactions/');
    expect(init.method).toBe('POST');
    expect(new Headers(init.headers).get('Content-Type')).toBe('application/json');
    const body = JSON.parse(String(init.body));
    expect(body.blockChain).toBe('ETHEREUM');
    expect(body.amount).toBe('0.000000000000000001');
  });

  it('encodes ids into paths and the approval entity id into the query', async () => {
    const { fetch, calls } = recordingFetch((url) =>
      url.includes('approval_message')
        ? json({ approvalId: 'ap 1', message: 'sign me' })
        : url.includes('/action/')
          ? json({ success: true })
          : json({ id: 'x' }),
    );
    const client = createApiClient({ fetch });
    await client.call(getTransaction, { params: { transactionId: 'a/b' } });
    await client.call(approvalMessage, { query: { entityId: 'ba_1' } });
    await client.call(decideApproval, {
      params: { approvalId: 'ap 1' },
      body: { action: 'approve' },
    });

    expect(calls.map((c) => c.url)).toEqual([
      '/api/external/transactions/a%2Fb/',
      '/api/external/change_requests/approvals/approval_message/?entityId=ba_1',
      '/api/external/change_requests/approvals/ap%201/action/',
    ]);
  });

  it('keeps unknown fields and values of lenient responses', async () => {
    const { fetch } = recordingFetch(() =>
      json({ results: [{ id: 't', status: 'SOMETHING_NEW', extra: 1 }], hasNext: false }),
    );
    const page = await createApiClient({ fetch }).call(listTransactions, {});
    expect(page.results[0]).toMatchObject({ status: 'SOMETHING_NEW', extra: 1 });
  });

  it('turns a {message, code} error body into an ApiError', async () => {
    const { fetch } = recordingFetch(() =>
      json({ message: 'cursor is not valid', code: 'INVALID_CURSOR' }, 400),
    );
    const error = await createApiClient({ fetch })
      .call(listTransactions, { query: { cursor: 'zzz' } })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      message: 'cursor is not valid',
      code: 'INVALID_CURSOR',
    });
  });

  it('carries per-field errors', async () => {
    const fields = [{ field: 'routingNumber', message: 'bad checksum' }];
    const { fetch } = recordingFetch(() =>
      json({ message: 'Invalid body', code: 'VALIDATION_ERROR', fields }, 422),
    );
    const error = await createApiClient({ fetch })
      .call(createBankAccount, { body: { paymentMethod: 'US_ACH' } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 422, fields });
  });

  it('falls back to the status when an error body is not JSON', async () => {
    const { fetch } = recordingFetch(
      () => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    const error = await createApiClient({ fetch })
      .call(listVaults, {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, code: undefined });
    expect((error as ApiError).message).toBe('Request failed with status 502 (Bad Gateway)');
  });

  it('reports a failed fetch as a NetworkError', async () => {
    const { fetch } = recordingFetch(() => Promise.reject(new TypeError('fetch failed')));
    const error = await createApiClient({ fetch })
      .call(listAssets, {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(ApiError);
  });

  it('lets an abort through untouched', async () => {
    const controller = new AbortController();
    const { fetch } = recordingFetch((_url, init) => {
      return new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    });
    const pending = createApiClient({ fetch }).call(listSubOrgs, {}, { signal: controller.signal });
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(NetworkError);
    expect((error as Error).name).toBe('AbortError');
  });

  it('rejects a 2xx answer of the wrong shape', async () => {
    const { fetch } = recordingFetch(() => json({ items: [] }));
    const error = await createApiClient({ fetch })
      .call(listTransactions, {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
  });

  it('rejects a 2xx answer that is not JSON', async () => {
    const { fetch } = recordingFetch(() => new Response('<!doctype html>', { status: 200 }));
    const error = await createApiClient({ fetch })
      .call(getBankAccount, { params: { bankAccountId: 'ba_1' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
  });
});
