import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '#contract/live-events.ts';
import { connectLiveUpdates, isLive } from './live-updates.ts';

/** The browser's EventSource as far as the module uses it, driven by the test. */
class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static opened: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  closed = false;
  constructor(readonly url: string) {
    super();
    FakeEventSource.opened.push(this);
  }
  close() {
    this.closed = true;
    this.readyState = FakeEventSource.CLOSED;
  }
  send(type: string, data: unknown, lastEventId: string) {
    this.readyState = FakeEventSource.OPEN;
    this.dispatchEvent(new MessageEvent(type, { data: JSON.stringify(data), lastEventId }));
  }
  fail(readyState: number) {
    this.readyState = readyState;
    this.dispatchEvent(new Event('error'));
  }
}

const change = (transactionId: string, status: string): LiveEvent => ({
  kind: 'transaction.status',
  transactionId,
  subOrgId: null,
  status,
  at: '2026-11-26T10:00:00.000Z',
});

let client: QueryClient;
let reads: number;
let unsubscribe: () => void;

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('EventSource', FakeEventSource);
  FakeEventSource.opened = [];
  client = new QueryClient();
  reads = 0;
  // A page's query that polls every second unless the stream is up, as the transaction page's does.
  const observer = new QueryObserver(client, {
    queryKey: ['polled'],
    queryFn: () => {
      reads += 1;
      return Promise.resolve(reads);
    },
    refetchInterval: () => (isLive() ? false : 1_000),
  });
  unsubscribe = observer.subscribe(() => {});
});

afterEach(() => {
  unsubscribe();
  client.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('connectLiveUpdates', () => {
  it('keeps polling for one longest interval after the stream first opens, then stops while it is up, and resumes (refetching once) when it stays down', async () => {
    const onResync = vi.fn();
    const close = connectLiveUpdates(client, { onChanges: vi.fn(), onResync });
    await vi.advanceTimersByTimeAsync(2_500);
    const polledBefore = reads;
    expect(polledBefore).toBeGreaterThanOrEqual(2);

    // A first stream starts at its own now: a change between the page's reads and
    // then is in no event, so the polls go on until they have closed that gap.
    FakeEventSource.opened[0]?.send('ready', {}, '10-0');
    expect(isLive()).toBe(false);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(reads).toBeGreaterThan(polledBefore);
    expect(isLive()).toBe(true);
    expect(document.documentElement.dataset.liveUpdates).toBe('on');
    const polledLive = reads;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(reads).toBe(polledLive);

    // A short drop (the browser reconnecting, sent what it missed) changes nothing.
    FakeEventSource.opened[0]?.fail(FakeEventSource.CONNECTING);
    await vi.advanceTimersByTimeAsync(1_000);
    FakeEventSource.opened[0]?.send('ready', {}, '10-0');
    expect(isLive()).toBe(true);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(isLive()).toBe(true);
    expect(onResync).not.toHaveBeenCalled();

    // Down for good: polling resumes and what is on screen is refreshed.
    FakeEventSource.opened[0]?.fail(FakeEventSource.CONNECTING);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(isLive()).toBe(false);
    expect(onResync).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(reads).toBeGreaterThan(polledLive);
    close();
  });

  it('hands changes over in batches, ignores what it cannot read, and resumes from the last id', async () => {
    const onChanges = vi.fn();
    const close = connectLiveUpdates(client, { onChanges, onResync: vi.fn() }, { retryMs: 500 });
    const first = FakeEventSource.opened[0];
    expect(first?.url).toBe('/api/console/events');
    first?.send('ready', {}, '10-0');
    first?.send('change', change('a', 'APPROVED'), '11-0');
    first?.send('change', { nonsense: true }, '12-0');
    first?.send('change', change('b', 'SIGNED'), '13-0');
    const proposed: LiveEvent = {
      kind: 'approval.proposed',
      entityType: 'BANK_ACCOUNT',
      entityId: 'ba-1',
      subOrgId: 'desk-a',
      status: 'PENDING',
      at: '2026-11-26T10:00:01.000Z',
    };
    first?.send('change', proposed, '13-1');
    await vi.advanceTimersByTimeAsync(100);
    expect(onChanges).toHaveBeenCalledTimes(1);
    expect(onChanges).toHaveBeenCalledWith([
      change('a', 'APPROVED'),
      change('b', 'SIGNED'),
      proposed,
    ]);

    // Refused (a 401 or a restart): opened again after a pause, from where it stood.
    first?.fail(FakeEventSource.CLOSED);
    await vi.advanceTimersByTimeAsync(500);
    expect(FakeEventSource.opened[1]?.url).toBe('/api/console/events?lastEventId=13-1');
    close();
    expect(FakeEventSource.opened[1]?.closed).toBe(true);
    expect(isLive()).toBe(false);
  });

  it('asks for everything on screen to be refetched when the server cannot replay (reset)', () => {
    const onResync = vi.fn();
    const close = connectLiveUpdates(client, { onChanges: vi.fn(), onResync });
    FakeEventSource.opened[0]?.send('reset', {}, '99-0');
    expect(onResync).toHaveBeenCalledTimes(1);
    close();
  });
});
