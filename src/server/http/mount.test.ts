import { Hono } from 'hono';
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { ApiError } from '#contract/api-error.ts';
import { endpoint } from '#contract/endpoint.ts';
import type { AppEnv } from './app-env.ts';
import { mount } from './mount.ts';

// A paged list with filters, as the custody API's lists are declared.
const listThings = endpoint({
  method: 'GET',
  path: '/api/test/things/',
  summary: 'Things, filtered and paged.',
  action: 'read',
  permission: 'read',
  audit: false,
  paged: true,
  query: z.object({
    colour: z.optional(z.enum(['red', 'blue'])),
    since: z.optional(z.iso.datetime({ offset: true })),
  }),
  answer: z.object({}),
});

// Mounted as the app mounts a group's routes (`app.route(base, group)`): the group's own paths.
function app() {
  const served = new Hono<AppEnv>();
  mount(served, '/api/test', listThings, ({ query }) => {
    // A handler that changes its query: the next request must not see it.
    const seen = { ...query };
    query.limit += 1000;
    (query as unknown as Record<string, unknown>)['colour'] = 'changed';
    return Promise.resolve(seen as never);
  });
  served.onError((error, c) =>
    error instanceof ApiError ? c.json(error.toBody(), 400) : c.json({ message: 'boom' }, 500),
  );
  return served;
}

async function get(served: Hono<AppEnv>, query: string) {
  const res = await served.request(`/things/${query}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('a mounted list’s query', () => {
  it('is answered the same when sent again, whatever the handler did with it', async () => {
    const served = app();
    for (const query of ['?limit=5&colour=red', '', '?colour=blue&cursor=abc', '?limit=5']) {
      const first = await get(served, query);
      expect(first.status).toBe(200);
      expect(await get(served, query)).toEqual(first);
      expect(await get(served, query)).toEqual(first);
    }
    expect((await get(served, '?limit=5&colour=red')).body).toEqual({ limit: 5, colour: 'red' });
    expect((await get(served, '')).body).toEqual({ limit: 20 });
  });

  it('refuses a bad query with the same 400 every time, before and after good ones', async () => {
    const served = app();
    const bad = [
      ['?limit=abc', 'INVALID_LIMIT', 'limit'],
      ['?limit=0&colour=red', 'INVALID_LIMIT', 'limit'],
      ['?limit=5&colour=green', 'INVALID_FILTER', 'colour'],
      ['?limit=5&since=yesterday', 'INVALID_FILTER', 'since'],
      ['?colour=red%00', 'INVALID_FILTER', 'colour'],
    ] as const;
    await get(served, '?limit=5&colour=red');
    for (const [query, code, field] of bad) {
      const first = await get(served, query);
      expect(first.status).toBe(400);
      expect(first.body).toMatchObject({ code, fields: [expect.objectContaining({ field })] });
      // Its good neighbour in between: what parsed is kept, what did not is checked again.
      await get(served, '?limit=5&colour=red');
      expect(await get(served, query)).toEqual(first);
    }
  });
});
