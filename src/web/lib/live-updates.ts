import type { QueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { liveEvents } from '#contract/endpoints/live.ts';
import { LIVE_STREAM_EVENTS, LiveEvent } from '#contract/live-events.ts';

/**
 * The tab's one event stream (`GET /api/console/events`, contract/live-events.ts):
 * status changes pushed by the server, so pages refresh exactly what changed
 * instead of polling. While the stream is up (`isLive()`), the polling
 * timers stand still (the transaction page, the transactions list, the
 * approvals inbox and its badge read `isLive()` in their `refetchInterval`);
 * when it goes down and stays down, they start again and what is on screen is
 * refetched once, so nothing stays stale for long. The browser reconnects by
 * itself, sending `Last-Event-ID`, and the server replays what was missed; a
 * stream the server refused (a 401, a restart) is opened again with the last
 * id in the query, after a growing pause.
 *
 * Module state, like the CSRF token: set only in the browser (the layout
 * connects in an effect), never while rendering on the server.
 */

let live = false;

/** Whether the event stream is up: polling stands still meanwhile. */
export function isLive(): boolean {
  return live;
}

export interface LiveHandlers {
  /** A batch of changes (collected for `batchMs`): refresh what they touch. */
  onChanges(events: LiveEvent[]): void;
  /** Changes may have been missed: refresh everything on screen. */
  onResync(): void;
}

export interface LiveOptions {
  /** Changes arriving together are handled together (a simulator moves many at once). */
  batchMs?: number;
  /** A stream down this long counts as down: polling resumes (a short reconnect replays instead). */
  downAfterMs?: number;
  /** The first pause before a refused stream is opened again; it doubles up to a minute. */
  retryMs?: number;
  /** How long polling goes on after the stream's first opening (the longest poll interval). */
  settleMs?: number;
}

const MAX_RETRY_MS = 60_000;

/**
 * Every observer re-reads its options, so a `refetchInterval` that reads
 * `isLive()` is recomputed now: the timers stop when the stream comes up and
 * start when it goes down, whichever page holds them.
 */
function retime(queryClient: QueryClient): void {
  for (const query of queryClient.getQueryCache().getAll())
    for (const observer of query.observers) observer.setOptions(observer.options);
}

/** Opens the tab's stream; answers how to close it (sign-out, the layout unmounting). */
export function connectLiveUpdates(
  queryClient: QueryClient,
  handlers: LiveHandlers,
  options: LiveOptions = {},
): () => void {
  if (typeof EventSource === 'undefined' || typeof document === 'undefined') return () => {};
  const batchMs = options.batchMs ?? 100;
  const downAfterMs = options.downAfterMs ?? 5_000;
  const firstRetryMs = options.retryMs ?? 2_000;
  const settleMs = options.settleMs ?? 15_000;

  let source: EventSource | undefined;
  let lastId: string | undefined;
  let closed = false;
  let retryMs = firstRetryMs;
  let pending: LiveEvent[] = [];
  let batchTimer: ReturnType<typeof setTimeout> | undefined;
  let downTimer: ReturnType<typeof setTimeout> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let settleTimer: ReturnType<typeof setTimeout> | undefined;

  const setLive = (next: boolean) => {
    if (live === next) return;
    live = next;
    // Nothing shown; said on the document for whoever checks (the browser tests).
    document.documentElement.dataset.liveUpdates = next ? 'on' : 'off';
    retime(queryClient);
  };

  const flush = () => {
    batchTimer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length > 0) handlers.onChanges(batch);
  };

  const goneDown = () => {
    downTimer = undefined;
    if (!live) return;
    setLive(false);
    handlers.onResync();
  };

  const open = () => {
    const url = lastId
      ? `${liveEvents.path}?${new URLSearchParams({ lastEventId: lastId }).toString()}`
      : liveEvents.path;
    const stream = new EventSource(url);
    source = stream;
    stream.addEventListener(LIVE_STREAM_EVENTS.ready, (event) => {
      // A stream opened without an id starts at its own "now": a change made
      // between the page's reads and that moment is in no event. So the first
      // time it comes up, polling goes on for one longest poll interval
      // (`settleMs`) before it stops: the polls close that gap, as they did
      // before the stream, without a re-read of everything at once. A resumed
      // stream was sent what it missed and goes live at once.
      const fresh = lastId === undefined;
      lastId = event.lastEventId || lastId;
      retryMs = firstRetryMs;
      clearTimeout(downTimer);
      downTimer = undefined;
      if (!fresh) {
        setLive(true);
        return;
      }
      settleTimer ??= setTimeout(() => {
        settleTimer = undefined;
        if (!closed && source === stream) setLive(true);
      }, settleMs);
    });
    stream.addEventListener(LIVE_STREAM_EVENTS.change, (event) => {
      lastId = event.lastEventId || lastId;
      const parsed = z.safeParse(LiveEvent, JSON.parse(String(event.data)));
      if (!parsed.success) return;
      pending.push(parsed.data);
      batchTimer ??= setTimeout(flush, batchMs);
    });
    stream.addEventListener(LIVE_STREAM_EVENTS.reset, (event) => {
      lastId = event.lastEventId || lastId;
      handlers.onResync();
    });
    stream.addEventListener('error', () => {
      // Reconnecting (the browser does, with Last-Event-ID) or refused: polling takes
      // over only if it is not back soon.
      downTimer ??= setTimeout(goneDown, downAfterMs);
      if (stream.readyState !== EventSource.CLOSED || closed) return;
      retryTimer = setTimeout(() => {
        retryTimer = undefined;
        if (!closed) open();
      }, retryMs);
      retryMs = Math.min(MAX_RETRY_MS, retryMs * 2);
    });
  };

  open();
  return () => {
    closed = true;
    source?.close();
    for (const timer of [batchTimer, downTimer, retryTimer, settleTimer]) clearTimeout(timer);
    setLive(false);
  };
}
