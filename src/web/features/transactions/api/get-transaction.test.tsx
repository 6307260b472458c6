import { focusManager } from '@tanstack/react-query';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '#contract/paths.ts';
import { createTestQueryClient } from '../../../test/render.tsx';
import {
  POLLING,
  pollDelay,
  useTransactionSnapshot,
  type TransactionSnapshot,
} from './get-transaction.ts';
import { transactionQueries } from './transaction-queries.ts';

/**
 * The detail page's polling rules, against a fake server that answers
 * conditional GETs the way the console server does (ETag, 304), on fake timers.
 */

const ID = 'tx-poll';

/**
 * A Response whose body is read in microtasks: a real one needs the real
 * event loop, which fake timers would leave behind the polling schedule.
 */
function answer(status: number, etag: string, body?: unknown): Response {
  return {
    status,
    ok: status >= 200 && status < 300,
    statusText: '',
    headers: new Headers({ ETag: etag }),
    text: () => Promise.resolve(body === undefined ? '' : JSON.stringify(body)),
  } as Response;
}

function fakeServer(initialStatus: string) {
  let status = initialStatus;
  let version = 1;
  const answers: number[] = [];
  const fetchStub = vi.fn((input: string, init: RequestInit = {}) => {
    expect(input).toBe(paths.transaction(ID));
    const etag = `"v${version}"`;
    const sent = new Headers(init.headers).get('If-None-Match');
    answers.push(sent === etag ? 304 : 200);
    return Promise.resolve(
      sent === etag ? answer(304, etag) : answer(200, etag, { id: ID, status }),
    );
  });
  vi.stubGlobal('fetch', fetchStub);
  return {
    answers,
    requests: () => fetchStub.mock.calls.length,
    moveTo(next: string) {
      status = next;
      version += 1;
    },
  };
}

function setVisible(visible: boolean) {
  Object.defineProperty(document, 'visibilityState', {
    configurable: true,
    get: () => (visible ? 'visible' : 'hidden'),
  });
  act(() => {
    window.dispatchEvent(new Event('visibilitychange'));
  });
}

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** Mounts the hook; `data()` reads the query's cache, which is what drives the polling. */
function mount() {
  const client = createTestQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  renderHook(() => useTransactionSnapshot(ID), { wrapper });
  return {
    data: () => client.getQueryData<TransactionSnapshot>(transactionQueries.detail(ID)),
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  setVisible(true);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  focusManager.setFocused(undefined);
});

describe('pollDelay', () => {
  const snap = (status: string, unchangedPolls: number) => ({
    transaction: { id: ID, status },
    etag: '"x"',
    unchangedPolls,
  });
  it('starts at 2 s and backs off to 15 s while nothing changes', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map((n) => pollDelay(snap('SUBMITTED', n)))).toEqual([
      2000, 3200, 5120, 8192, 13107, 15000, 15000, 15000,
    ]);
  });
  it('stops at a terminal status and when there is no copy', () => {
    for (const status of ['COMPLETED', 'FAILED', 'DECLINED'])
      expect(pollDelay(snap(status, 0))).toBe(false);
    expect(pollDelay(undefined)).toBe(false);
  });

  it('does not follow a draft: nothing in the custody API moves it on', () => {
    expect(pollDelay(snap('DRAFT', 0))).toBe(false);
  });
});

describe('useTransactionSnapshot polling', () => {
  it('polls after 2 s, answers unchanged polls with 304 and backs off', async () => {
    const server = fakeServer('SUBMITTED');
    const { data } = mount();
    await advance(0);
    expect(server.requests()).toBe(1);
    expect(data()?.transaction.status).toBe('SUBMITTED');

    await advance(POLLING.firstMs - 1);
    expect(server.requests()).toBe(1);
    await advance(1);
    expect(server.requests()).toBe(2);
    expect(server.answers.at(-1)).toBe(304);
    expect(data()?.unchangedPolls).toBe(1);

    // Next waits 3.2 s, then 5.12 s.
    await advance(3199);
    expect(server.requests()).toBe(2);
    await advance(1);
    expect(server.requests()).toBe(3);
    await advance(5119);
    expect(server.requests()).toBe(3);
    await advance(1);
    expect(server.requests()).toBe(4);

    // A minute later the interval has reached its 15 s ceiling: 8.2 + 13.1 + 15 + 15 + … s.
    const before = server.requests();
    await advance(60_000);
    const polls = server.requests() - before;
    expect(polls).toBeGreaterThanOrEqual(4);
    expect(polls).toBeLessThanOrEqual(5);
    expect(server.answers.slice(1).every((s) => s === 304)).toBe(true);
  });

  it('goes back to 2 s as soon as something changes', async () => {
    const server = fakeServer('SIGNED');
    const { data } = mount();
    await advance(0);
    await advance(2000 + 3200 + 5120);
    expect(server.requests()).toBe(4);
    server.moveTo('SUBMITTED');
    await advance(8192);
    expect(server.answers.at(-1)).toBe(200);
    expect(data()?.transaction.status).toBe('SUBMITTED');
    expect(data()?.unchangedPolls).toBe(0);
    const after = server.requests();
    await advance(2000);
    expect(server.requests()).toBe(after + 1);
  });

  it('makes no request while the tab is hidden and looks at once when it comes back', async () => {
    const server = fakeServer('SUBMITTED');
    mount();
    await advance(0);
    setVisible(false);
    await advance(120_000);
    expect(server.requests()).toBe(1);

    server.moveTo('WAITING_CONFIRMATION');
    setVisible(true);
    await advance(0);
    expect(server.requests()).toBe(2);
    expect(server.answers.at(-1)).toBe(200);
  });

  it('stops polling at a terminal status, even when the tab comes back', async () => {
    const server = fakeServer('WAITING_CONFIRMATION');
    const { data } = mount();
    await advance(0);
    server.moveTo('COMPLETED');
    await advance(2000);
    expect(data()?.transaction.status).toBe('COMPLETED');
    const count = server.requests();
    await advance(10 * 60_000);
    setVisible(false);
    setVisible(true);
    await advance(60_000);
    expect(server.requests()).toBe(count);
  });

  it('never polls a transaction that starts terminal', async () => {
    const server = fakeServer('DECLINED');
    mount();
    await advance(10 * 60_000);
    expect(server.requests()).toBe(1);
  });
});
