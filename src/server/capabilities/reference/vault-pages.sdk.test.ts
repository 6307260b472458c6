import { describe, expect } from 'vitest';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { VaultListResponse } from '#contract/reference.ts';
import { createTestApiUser, type TestApiUser } from '../../test/api-client.ts';
import { appTest } from '../../test/app-test.ts';
import { createVault } from '../../test/fixtures.ts';
import { sdkRequest, type Sdk } from '../../test/sdk-wire.ts';
import type { TestApp } from '../../test/test-app.ts';

/**
 * The older SDKs' getVaults asks for a numbered page and an order, not a
 * cursor: the JS SDK as `?limit=2&page=2&reverse=false&vaultName=…`
 * (`URLSearchParams` after), the Python SDK 1.0.x as
 * `?limit=2&page=2&reverse=False&vaultName=…` (Python's bool written as is),
 * and Python's `VaultListResponse` reads `count`, `next` and `previous`.
 */

const MINUTE = 60_000;

/** Five vaults one minute apart, oldest first, under a name no other test uses. */
async function fiveVaults(t: TestApp, name: string) {
  const start = Date.now() - 60 * MINUTE;
  const made = [];
  for (let i = 0; i < 5; i += 1) {
    const at = new Date(start + i * MINUTE);
    made.push(
      await createVault(t.db, {
        orgId: t.orgId,
        vaultName: `${name} ${i + 1}`,
        createdAt: at,
        updatedAt: at,
      }),
    );
  }
  return made.map((v) => v.id);
}

/** The URL each SDK builds for getVaults(params, page, limit, reverse). */
function getVaultsUrl(sdk: Sdk, name: string, page: number, limit: number, reverse: boolean) {
  const flag = sdk === 'python' ? (reverse ? 'True' : 'False') : String(reverse);
  const filters = new URLSearchParams({ vaultName: name }).toString();
  return `${paths.vaults()}?limit=${limit}&page=${page}&reverse=${flag}&${filters}`;
}

async function call(t: TestApp, sdk: Sdk, user: TestApiUser, url: string) {
  const res = await t.app.request(
    url,
    sdkRequest(sdk, user, 'GET', url, undefined, { urlPath: url }),
  );
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as unknown, text };
}

describe("getVaults' page and reverse, as the older SDKs send them", () => {
  for (const sdk of ['js', 'python'] as const) {
    appTest(
      `${sdk}: pages count from 1 in pages of limit, newest first; reverse lists oldest first`,
      async ({ t }) => {
        const name = `Paged ${sdk}`;
        const [v1, v2, v3, v4, v5] = await fiveVaults(t, name);
        const user = await createTestApiUser(t, `${sdk} pager`);
        const ids = async (page: number, reverse: boolean) => {
          const res = await call(t, sdk, user, getVaultsUrl(sdk, name, page, 2, reverse));
          expect(res.status, res.text).toBe(200);
          return VaultListResponse.parse(res.body);
        };

        const newest = [await ids(1, false), await ids(2, false), await ids(3, false)];
        expect(newest.map((p) => p.results.map((v) => v.id))).toEqual([[v5, v4], [v3, v2], [v1]]);
        expect(newest.map((p) => p.hasNext)).toEqual([true, true, false]);

        const oldest = [await ids(1, true), await ids(2, true), await ids(3, true)];
        expect(oldest.map((p) => p.results.map((v) => v.id))).toEqual([[v1, v2], [v3, v4], [v5]]);

        // Past the end: an empty page, as a numbered page past the last one is.
        expect((await ids(4, false)).results).toEqual([]);

        // What Python 1.0.x's VaultListResponse requires: the count, and the pages either side.
        const middle = await call(t, sdk, user, getVaultsUrl(sdk, name, 2, 2, true));
        expect(middle.body).toMatchObject({ count: 5 });
        const around = middle.body as { next: string; previous: string };
        expect(new URL(around.next).searchParams.get('page')).toBe('3');
        expect(new URL(around.previous).searchParams.get('page')).toBe('1');
        expect(new URL(around.next).searchParams.get('reverse')).toBe(
          sdk === 'python' ? 'True' : 'true',
        );
        const first = await call(t, sdk, user, getVaultsUrl(sdk, name, 1, 2, false));
        expect(first.body).toMatchObject({ count: 5, previous: null });
        const last = await call(t, sdk, user, getVaultsUrl(sdk, name, 3, 2, false));
        expect(last.body).toMatchObject({ count: 5, next: null });
      },
    );
  }

  appTest(
    "reverse's cursor keeps its order; a cursor from the other order, a bad page or reverse, and a page beside a cursor are refused naming the parameter",
    async ({ t }) => {
      const name = 'Paged cursor';
      const [v1, v2, v3] = await fiveVaults(t, name);
      const user = await createTestApiUser(t, 'cursor pager');
      const filter = `vaultName=${encodeURIComponent(name)}`;
      const first = await call(t, 'js', user, `${paths.vaults()}?limit=2&reverse=true&${filter}`);
      expect(first.status, first.text).toBe(200);
      const page1 = VaultListResponse.parse(first.body);
      expect(page1.results.map((v) => v.id)).toEqual([v1, v2]);
      const cursor = encodeURIComponent(page1.nextCursor ?? '');
      const second = await call(
        t,
        'js',
        user,
        `${paths.vaults()}?limit=2&reverse=true&cursor=${cursor}&${filter}`,
      );
      expect(second.status, second.text).toBe(200);
      expect(VaultListResponse.parse(second.body).results[0]?.id).toBe(v3);

      const otherOrder = await call(t, 'js', user, `${paths.vaults()}?limit=2&cursor=${cursor}`);
      expect(otherOrder.status, otherOrder.text).toBe(400);
      expect(ApiErrorBody.parse(otherOrder.body).code).toBe('INVALID_CURSOR');

      for (const [query, field] of [
        ['page=0', 'page'],
        ['page=two', 'page'],
        ['page=-1', 'page'],
        ['reverse=maybe', 'reverse'],
        [`page=2&cursor=${cursor}&reverse=true`, 'page'],
      ] as const) {
        const res = await call(t, 'js', user, `${paths.vaults()}?limit=2&${query}`);
        expect(res.status, `${query}: ${res.text}`).toBe(400);
        const error = ApiErrorBody.parse(res.body);
        expect(
          error.fields?.map((f) => f.field),
          query,
        ).toContain(field);
      }
    },
  );
});
