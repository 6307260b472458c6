import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '#contract/live-events.ts';
import type { Database } from '../../db/client.ts';
import { TestClock } from '../../test/test-clock.ts';
import { LiveHub, type LiveHubOptions } from './hub.ts';
import type { LiveRow, LiveSource } from './source.ts';

/**
 * The hub over logs held in memory: when streams end, and what a reconnect
 * costs. No database: the logs count how often they are read.
 */

/** A log in memory that counts its reads. */
function memoryLog() {
  const rows: LiveRow[] = [];
  let reads = 0;
  const source: LiveSource = {
    tables: [],
    head: () => Promise.resolve(rows.at(-1)?.id ?? 0),
    after(after, limit, upTo) {
      reads += 1;
      return Promise.resolve(
        rows.filter((r) => r.id > after && (upTo === undefined || r.id <= upTo)).slice(0, limit),
      );
    },
  };
  return {
    source,
    reads: () => reads,
    add(transactionId: string, status: string) {
      const event: LiveEvent = {
        kind: 'transaction.status',
        transactionId,
        subOrgId: null,
        status,
        at: '2030-01-01T12:30:00.000Z',
      };
      rows.push({ id: rows.length + 1, event });
    },
  };
}

const clock = new TestClock();

function hubOver(log: LiveSource, over: Partial<LiveHubOptions> = {}): LiveHub {
  return new LiveHub({
    sources: [log, undefined],
    database: { db: {} as Database },
    clock,
    logger: pino({ level: 'silent' }),
    // Nothing read unless a test wakes the hub.
    pollMs: 1e9,
    heartbeatMs: 1e9,
    ...over,
  });
}

interface Frame {
  event: string;
  id?: string;
  data?: string;
}

/** Reads a stream's frames as they come; `ended` once the server closed it. */
function reader(body: ReadableStream<Uint8Array>) {
  const frames: Frame[] = [];
  const state = { ended: false };
  const decoder = new TextDecoder();
  let buffer = '';
  const r = body.getReader();
  void (async () => {
    for (;;) {
      const { value, done } = await r.read().catch(() => ({ value: undefined, done: true }));
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const frame: Frame = { event: 'message' };
        for (const line of block.split('\n')) {
          if (line.startsWith('event: ')) frame.event = line.slice(7);
          else if (line.startsWith('id: ')) frame.id = line.slice(4);
          else if (line.startsWith('data: ')) frame.data = line.slice(6);
        }
        if (block.startsWith('event') || block.startsWith('id')) frames.push(frame);
      }
    }
    state.ended = true;
  })();
  return {
    frames,
    ended: () => state.ended,
    changes: () =>
      frames
        .filter((f) => f.event === 'change')
        .map((f) => JSON.parse(f.data ?? '{}') as { transactionId: string; status: string }),
    cancel: () => r.cancel(),
  };
}

const everyone = { visible: () => true };

afterEach(() => {
  vi.useRealTimers();
});

describe("a stream's end", () => {
  it('streams opened together end spread over the last fifth of their life, not together', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const log = memoryLog();
    const hub = hubOver(log.source, { maxStreamMs: 60_000, endCheckMs: 100 });
    const opened = clock.now().getTime();
    const streams = Array.from({ length: 40 }, () => reader(hub.open(everyone)));
    await vi.waitFor(() => {
      for (const s of streams) expect(s.frames.map((f) => f.event)).toContain('ready');
    });
    const openAt = (ms: number) => {
      clock.set(new Date(opened + ms));
      vi.advanceTimersByTime(100);
      return hub.size;
    };
    // None before four fifths of its life; some, not all, half-way through the last fifth.
    expect(openAt(47_900)).toBe(40);
    const halfway = openAt(54_000);
    expect(halfway).toBeGreaterThan(0);
    expect(halfway).toBeLessThan(40);
    // Every one by the whole life.
    expect(openAt(60_000)).toBe(0);
    await vi.waitFor(() => {
      for (const s of streams) expect(s.ended()).toBe(true);
    });
    hub.close();
  });
});

describe('a reconnect with Last-Event-ID', () => {
  it('is answered from the events kept in memory, reading no log, with exactly what was missed', async () => {
    const log = memoryLog();
    const hub = hubOver(log.source);
    // Another tab keeps the hub running: the tail, and what it has sent, stay.
    const other = reader(hub.open(everyone));
    await vi.waitFor(() => expect(other.frames.map((f) => f.event)).toContain('ready'));
    const first = reader(hub.open(everyone));
    await vi.waitFor(() => expect(first.frames.map((f) => f.event)).toContain('ready'));
    log.add('t1', 'PENDING');
    hub.wake();
    await vi.waitFor(() => expect(first.changes()).toHaveLength(1));
    const lastSeen = first.frames.filter((f) => f.event === 'change').at(-1)?.id ?? '';
    await first.cancel();

    log.add('t1', 'APPROVED');
    log.add('t2', 'PENDING');
    hub.wake();
    await vi.waitFor(() => expect(other.changes()).toHaveLength(3));
    const readsBefore = log.reads();
    const [position0 = 0, position1 = 0] = lastSeen.split('-').map(Number);
    const again = reader(hub.open(everyone, [position0, position1]));
    await vi.waitFor(() => expect(again.frames.map((f) => f.event)).toContain('ready'));
    expect(again.changes().map((c) => [c.transactionId, c.status])).toEqual([
      ['t1', 'APPROVED'],
      ['t2', 'PENDING'],
    ]);
    expect(log.reads()).toBe(readsBefore);
    // Its ids go on from where it stood, as the log's would.
    expect(again.frames.filter((f) => f.event === 'change').map((f) => f.id)).toEqual([
      '2-0',
      '3-0',
    ]);
    hub.close();
  });

  it('reads the log when the kept events do not reach back far enough', async () => {
    const log = memoryLog();
    const hub = hubOver(log.source, { recentEvents: 2 });
    const other = reader(hub.open(everyone));
    await vi.waitFor(() => expect(other.frames.map((f) => f.event)).toContain('ready'));
    for (const status of ['PENDING', 'APPROVED', 'SIGNED', 'SUBMITTED']) log.add('t1', status);
    hub.wake();
    await vi.waitFor(() => expect(other.changes()).toHaveLength(4));
    const readsBefore = log.reads();
    // It stood before the first: four missed, two kept.
    const again = reader(hub.open(everyone, [0, 0]));
    await vi.waitFor(() => expect(again.frames.map((f) => f.event)).toContain('ready'));
    expect(again.changes().map((c) => c.status)).toEqual([
      'PENDING',
      'APPROVED',
      'SIGNED',
      'SUBMITTED',
    ]);
    expect(log.reads()).toBeGreaterThan(readsBefore);
    hub.close();
  });
});
