import { afterEach, describe, expect, it, vi } from 'vitest';
import { getPolicies } from '#contract/endpoints/policies.ts';
import { listVaults } from '#contract/endpoints/reference.ts';
import { apiClient, type FetchLike } from './api-client.ts';
import { parsesAsGiven } from './answer-as-given.ts';
import { ResponseValidationError } from './api-errors.ts';
import { inServerRender, setRenderScopeLookup } from './render-scope.ts';

// An answer no list's schema accepts: its rows are not a list.
const MALFORMED = { results: 'not a list', nextCursor: null, hasNext: false };
const answering =
  (body: unknown): FetchLike =>
  () =>
    new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });

afterEach(() => {
  setRenderScopeLookup(() => undefined);
  vi.unstubAllGlobals();
});

describe("the SPA's API client in and out of a server render", () => {
  it('checks every answer the browser fetches', async () => {
    vi.stubGlobal('fetch', answering(MALFORMED));
    expect(inServerRender()).toBe(false);
    await expect(apiClient.call(listVaults, {})).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it("takes the server's own answer of a plain schema as it comes while it renders", async () => {
    const inProcess = vi.fn(answering(MALFORMED));
    vi.stubGlobal('fetch', answering({}));
    setRenderScopeLookup(() => inProcess, parsesAsGiven);
    await expect(apiClient.call(listVaults, {})).resolves.toEqual(MALFORMED);
    expect(inProcess).toHaveBeenCalledOnce();
  });

  it('still checks, during a render, an answer whose schema changes what it reads', async () => {
    setRenderScopeLookup(() => answering({ kind: 'nonsense' }), parsesAsGiven);
    await expect(
      apiClient.call(getPolicies, { params: { kind: 'transactions' } }),
    ).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('checks every answer during a render that trusts none', async () => {
    setRenderScopeLookup(() => answering(MALFORMED));
    await expect(apiClient.call(listVaults, {})).rejects.toBeInstanceOf(ResponseValidationError);
  });
});
