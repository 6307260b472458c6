import { vi } from 'vitest';

/**
 * Stubs the global fetch the default API client uses with a handler keyed on
 * the request's path, and records every call. Responses are real `Response`s.
 */
export type FakeRoute = (url: URL, init: RequestInit) => Response | Promise<Response>;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export function installFakeApi(routes: Record<string, FakeRoute>) {
  const calls: URL[] = [];
  const fetchStub = vi.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://console.test');
    calls.push(url);
    const route = routes[url.pathname];
    if (!route)
      return json({ message: `No fake for ${url.pathname}`, code: 'ROUTE_NOT_FOUND' }, 404);
    return route(url, init);
  });
  vi.stubGlobal('fetch', fetchStub);
  return { calls, fetchStub };
}

/** A cursor-paged list over `items`, the way the server pages: cursor = offset here. */
export function pagedList<T>(items: T[], url: URL): Response {
  const limit = Number.parseInt(url.searchParams.get('limit') ?? '20', 10);
  const offset = Number.parseInt(url.searchParams.get('cursor') ?? '0', 10);
  const results = items.slice(offset, offset + limit);
  const hasNext = offset + limit < items.length;
  return json({ results, hasNext, nextCursor: hasNext ? String(offset + limit) : null });
}
