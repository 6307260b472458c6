import type { Logger } from 'pino';
import { LIVE_STREAM_EVENTS, type LiveEvent } from '#contract/live-events.ts';
import type { Clock } from '../../clock.ts';
import type { Database, DatabaseHandle } from '../../db/client.ts';
import { writeVersion } from '../../db/read-cache.ts';
import { APPROVAL_EVENTS_KEPT_MS, pruneApprovalEvents } from './approval-source.ts';
import { CUSTODY_EVENTS_KEPT_MS, pruneCustodyEvents } from './custody-source.ts';
import type { LiveRow, LiveSource } from './source.ts';

/**
 * One server's fan-out of status changes to the browsers' event streams
 * (`GET /api/console/events`, live.routes.ts).
 *
 * The truth is durable, never in memory: each source (source.ts) is a log in
 * the database, with ids that only grow. The hub tails them from where it
 * stands and sends each new row to every open stream whose member may see
 * its sub-organization; each event's SSE id is the position in every log
 * after it (`<status>-<custody>-<change requests>-<approvals>`, the order of
 * `sources`), so a browser that reconnects with `Last-Event-ID` is sent, from
 * the database, exactly what it missed.
 *
 * When to look: on PostgreSQL a trigger NOTIFYs `custody_live` at the commit
 * of every change (migrations: console 0013 and 0017, sandbox 0011 and 0015), and each server
 * LISTENs, so a change made through any server, the simulator's thread or
 * the CLI reaches the streams held by every server; a slow poll is the
 * safety net for a lost connection. On PGlite (one process) the write
 * counts the database's thread keeps (db/read-cache.ts) are checked every
 * `pollMs`: no query until a source's table was written.
 *
 * A bigserial id is taken when a row is inserted, not when it commits: on
 * PostgreSQL row 12 can be visible before row 11. The tail stops at such a
 * gap and waits for it to fill (`gapGraceMs`); an id still missing then was
 * rolled back, and is passed.
 *
 * The hub runs only while a stream is open: the first starts it (the tail
 * from the logs' heads), the last to close stops it.
 *
 * A stream lasts no longer than its session. Sign-out (and every other end
 * of a session on this server) ends it at once (`endSessions`, called
 * through auth's `endSessionStreams`). A session ended anywhere else
 * (another server, the CLI) is found by asking the database: after a batch
 * of rows is read and before any of it is sent, so no event committed after
 * the end is sent; and at the poll, so a quiet stream ends too (PGlite:
 * within `pollMs` of a write to the sessions or staff tables, or of the
 * session's expiry; PostgreSQL: within the 5 s safety-net poll).
 */

export interface LiveHubOptions {
  /**
   * The logs, in the order of the SSE id's numbers: the sandbox's status log, the stored
   * webhook events, the sandbox's change-request events, the console's approval events.
   * Undefined: a log this mode has not (its number stays 0).
   */
  sources: readonly (LiveSource | undefined)[];
  database: Pick<DatabaseHandle, 'db' | 'listen'>;
  clock: Clock;
  logger: Logger;
  /** A comment line this often keeps proxies from closing an idle stream (15 s). */
  heartbeatMs?: number;
  /** PGlite: how often the write counts are checked; PostgreSQL: the safety-net poll. */
  pollMs?: number;
  /**
   * A stream ends after at most this long (5 min); the browser reconnects with Last-Event-ID,
   * and the session, role and scope are checked again: a revoked session or a narrowed scope
   * holds for at most this long on a stream already open. Each stream's life is cut by a
   * random part of `streamJitter` of it, so streams opened together (a server's restart, a
   * network blip) do not all end, and reconnect, together.
   */
  maxStreamMs?: number;
  /** The share of `maxStreamMs` a stream's life may be shortened by at random (0.2). */
  streamJitter?: number;
  /** How often the streams whose life is over are ended (1 s): ends spread as lives do. */
  endCheckMs?: number;
  /**
   * Recent events kept in memory: a stream that reconnects with a Last-Event-ID they cover
   * is sent what it missed from them, without reading the logs (4,096).
   */
  recentEvents?: number;
  /** More missed events than this are not replayed: the browser is told to refetch. */
  maxReplay?: number;
  /** How long the tail waits at an id not yet visible before passing it. */
  gapGraceMs?: number;
  /** A stream whose unsent bytes pass this is closed (the browser resumes from the database). */
  maxQueuedBytes?: number;
  /**
   * Which of the streams' sessions are live, each with when it ends by time; `tables` are
   * those whose writes may end one (PGlite: unchanged, and before the earliest end, nothing
   * is asked). Undefined: streams are held to nothing but their own time.
   */
  sessions?: {
    live(ids: readonly string[]): Promise<ReadonlyMap<string, Date>>;
    tables: readonly string[];
  };
}

/** Whose stream it is: what they may see, and their session (ended with it). */
export interface LiveViewer {
  visible: (subOrgId: string | null) => boolean;
  sessionId?: string;
}

export const LIVE_CHANNEL = 'custody_live';
const BATCH = 500;

/** A position in each log, as the SSE id carries it. */
export type Cursor = readonly number[];

export function formatCursor(cursor: Cursor): string {
  return cursor.join('-');
}

/**
 * The cursor an SSE id names (two to eight numbers joined by "-"), or undefined when it is
 * not one a server wrote. One with another count of logs than this server's (written before
 * a log was added) is answered with a reset (`missed`).
 */
export function parseCursor(text: string): Cursor | undefined {
  const parts = text.trim().split('-');
  if (parts.length < 2 || parts.length > 8 || !parts.every((p) => /^\d{1,15}$/.test(p)))
    return undefined;
  // eslint-disable-next-line no-restricted-syntax -- event log positions, at most 15 digits each
  return parts.map(Number);
}

const encoder = new TextEncoder();

function frame(name: string, id: string | undefined, data: string): Uint8Array {
  return encoder.encode(
    `${id === undefined ? '' : `id: ${id}\n`}event: ${name}\ndata: ${data}\n\n`,
  );
}

const HEARTBEAT = encoder.encode(': keep-alive\n\n');

/** What may be sent to a stream: a frame, and the sub-org it is about (undefined: to everyone). */
interface Outgoing {
  bytes: Uint8Array;
  subOrgId?: string | null;
  /** A change's place in the logs. */
  position?: Cursor;
}

/** An event the tail sent, kept for streams that reconnect (`recent`). */
interface RecentEvent {
  event: LiveEvent;
  /** Its log (the index in `sources`) and its id there. */
  source: number;
  id: number;
  /** Every log's position once it was read. */
  position: Cursor;
}

export interface LiveStream {
  /** Sent when the member may see `subOrgId`. */
  readonly visible: (subOrgId: string | null) => boolean;
  /** The session it was opened with: it ends when that ends. */
  readonly sessionId: string | undefined;
  readonly controller: ReadableStreamDefaultController<Uint8Array>;
  /** Set while what it missed is read: live frames wait here. */
  waiting?: Outgoing[];
  endsAt: number;
  closed: boolean;
}

export class LiveHub {
  private readonly streams = new Set<LiveStream>();
  private running: Promise<void> | undefined;
  private positions: number[];
  private timers: NodeJS.Timeout[] = [];
  private unlisten: (() => Promise<void>) | undefined;
  private listening = false;
  /** PGlite: each source's write count when last looked at. */
  private versions: string[] = [];
  /** Sources to read at the next pump: those written since (all, when that cannot be told). */
  private readonly dirty = new Set<number>();
  private pumping = false;
  private again = false;
  private gap: Array<{ expected: number; since: number } | undefined> = [];
  private gapTimer: NodeJS.Timeout | undefined;
  private lastPrune = 0;
  /** The sessions last found live, the sessions' tables' write count then, their earliest end. */
  private sessionsChecked: { ids: Set<string>; version: string | undefined; until: number } = {
    ids: new Set(),
    version: undefined,
    until: 0,
  };
  private readonly heartbeatMs: number;
  private readonly pollMs: number;
  private readonly maxStreamMs: number;
  private readonly streamJitter: number;
  private readonly endCheckMs: number;
  private readonly recentEvents: number;
  /** The events the tail sent since `recentFrom`, oldest first (a ring: `recentStart`). */
  private recent: RecentEvent[] = [];
  private recentStart = 0;
  /** Every event after this position is in `recent`. */
  private recentFrom: Cursor = [];
  private readonly maxReplay: number;
  private readonly gapGraceMs: number;
  private readonly maxQueuedBytes: number;

  constructor(private readonly options: LiveHubOptions) {
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
    this.pollMs = options.pollMs ?? (options.database.listen ? 5_000 : 50);
    this.maxStreamMs = options.maxStreamMs ?? 5 * 60_000;
    this.streamJitter = Math.min(1, Math.max(0, options.streamJitter ?? 0.2));
    this.endCheckMs = options.endCheckMs ?? 1_000;
    this.recentEvents = options.recentEvents ?? 4_096;
    this.maxReplay = options.maxReplay ?? 1_000;
    // PGlite runs one transaction at a time: a gap there was rolled back, and never fills.
    this.gapGraceMs = options.gapGraceMs ?? (options.database.listen ? 2_000 : 0);
    this.maxQueuedBytes = options.maxQueuedBytes ?? 1_048_576;
    this.positions = options.sources.map(() => 0);
  }

  /** How many streams are open on this server. */
  get size(): number {
    return this.streams.size;
  }

  private get db(): Database {
    return this.options.database.db;
  }

  private start(): Promise<void> {
    this.running ??= (async () => {
      this.positions = await Promise.all(
        this.options.sources.map((source) => (source ? source.head() : 0)),
      );
      this.recent = [];
      this.recentStart = 0;
      this.recentFrom = [...this.positions];
      this.versions = this.sourceVersions() ?? [];
      await this.listen();
      const poll = setInterval(() => this.poll(), this.pollMs);
      const beat = setInterval(() => this.heartbeat(), this.heartbeatMs);
      const ends = setInterval(() => this.endExpired(), this.endCheckMs);
      poll.unref();
      beat.unref();
      ends.unref();
      this.timers = [poll, beat, ends];
    })().catch((error: unknown) => {
      this.running = undefined;
      throw error;
    });
    return this.running;
  }

  private async listen(): Promise<void> {
    const listen = this.options.database.listen;
    if (!listen || this.listening) return;
    try {
      this.unlisten = await listen(
        LIVE_CHANNEL,
        () => this.wake(),
        () => {
          // The safety-net poll listens again and catches up meanwhile.
          this.listening = false;
          this.unlisten = undefined;
          this.options.logger.warn('live updates: the LISTEN connection was lost');
        },
      );
      this.listening = true;
    } catch (error) {
      this.options.logger.warn(
        { err: error },
        'live updates: LISTEN failed; polling until it works',
      );
    }
  }

  private stopIfIdle(): void {
    if (this.streams.size > 0 || !this.running) return;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    clearTimeout(this.gapTimer);
    this.gapTimer = undefined;
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    this.listening = false;
    this.running = undefined;
    void unlisten?.().catch(() => undefined);
  }

  /** Each source's write count (PGlite), or undefined on PostgreSQL, where other servers write. */
  private sourceVersions(): string[] | undefined {
    const versions: string[] = [];
    for (const source of this.options.sources) {
      const version = source ? writeVersion(this.db, source.tables) : '';
      if (version === undefined) return undefined;
      versions.push(version);
    }
    return versions;
  }

  private poll(): void {
    const versions = this.sourceVersions();
    if (versions === undefined) {
      void this.listen();
      // The pump asks after the sessions once it has read the logs.
      this.wake();
      return;
    }
    // A quiet stream whose session ended (no write here, but one of its tables written).
    this.checkSessions().catch((error: unknown) => {
      this.options.logger.warn({ err: error }, 'live updates: sessions could not be checked');
    });
    // Only the logs written since: four sources, and a status change is most of the writes.
    const written = versions.flatMap((v, i) => (v === this.versions[i] ? [] : [i]));
    this.versions = versions;
    if (written.length > 0) this.wake(written);
  }

  /** Reads the logs past where the hub stands (`sources`: those indexes only) and sends what is new. */
  wake(sources?: readonly number[]): void {
    if (!this.running) return;
    for (const index of sources ?? this.options.sources.keys()) this.dirty.add(index);
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    void (async () => {
      try {
        do {
          this.again = false;
          await this.pump();
        } while (this.again && this.running);
      } catch (error) {
        // Read every log again at the next wake: what this pump had taken is not lost.
        for (const index of this.options.sources.keys()) this.dirty.add(index);
        this.options.logger.warn({ err: error }, 'live updates: the logs could not be read');
      } finally {
        this.pumping = false;
      }
    })();
  }

  private async pump(): Promise<void> {
    const sources = this.options.sources;
    const todo = [...this.dirty].sort((a, b) => a - b);
    this.dirty.clear();
    let checked = false;
    for (const index of todo) {
      const source = sources[index];
      if (!source) continue;
      for (;;) {
        const rows = await source.after(this.positions[index] ?? 0, BATCH);
        // Read first, then asked: a session ended before these rows were read gets none of them.
        if (rows.some((row) => row.event)) {
          await this.checkSessions();
          checked = true;
        }
        let stopped = false;
        for (const row of rows) {
          if (!this.passes(index, row)) {
            stopped = true;
            break;
          }
          this.positions[index] = row.id;
          if (row.event) this.broadcast(row.event, index, row.id);
        }
        if (stopped || rows.length < BATCH) break;
      }
    }
    if (!checked) await this.checkSessions();
    await this.prune();
  }

  /**
   * Ends the streams whose session is no longer live. On PGlite nothing is asked while the
   * sessions' tables are unwritten, every session was among those last found live and none of
   * them has reached its end; on PostgreSQL (other servers write) it always asks.
   */
  private async checkSessions(): Promise<void> {
    const sessions = this.options.sessions;
    if (!sessions) return;
    const ids = new Set<string>();
    for (const stream of this.streams) if (stream.sessionId) ids.add(stream.sessionId);
    if (ids.size === 0) return;
    const now = this.options.clock.now().getTime();
    const version = writeVersion(this.db, sessions.tables);
    const last = this.sessionsChecked;
    if (
      version !== undefined &&
      version === last.version &&
      now < last.until &&
      [...ids].every((id) => last.ids.has(id))
    )
      return;
    const live = await sessions.live([...ids]);
    let until = Number.POSITIVE_INFINITY;
    for (const end of live.values()) until = Math.min(until, end.getTime());
    this.sessionsChecked = { ids: new Set(live.keys()), version, until };
    for (const stream of [...this.streams])
      if (stream.sessionId && ids.has(stream.sessionId) && !live.has(stream.sessionId))
        this.end(stream);
  }

  /** Ends this server's streams of these sessions now: they were signed out or revoked. */
  endSessions(sessionIds: readonly string[]): void {
    const ended = new Set(sessionIds);
    for (const stream of [...this.streams])
      if (stream.sessionId && ended.has(stream.sessionId)) this.end(stream);
  }

  /** Whether the tail may move on to `row`: the next id, or a gap waited for long enough. */
  private passes(index: number, row: LiveRow): boolean {
    const expected = (this.positions[index] ?? 0) + 1;
    if (row.id === expected || this.gapGraceMs <= 0) {
      this.gap[index] = undefined;
      return true;
    }
    const now = performance.now();
    const gap = this.gap[index];
    if (!gap || gap.expected !== expected) {
      this.gap[index] = { expected, since: now };
    } else if (now - gap.since >= this.gapGraceMs) {
      this.gap[index] = undefined;
      return true;
    }
    this.gapTimer ??= setTimeout(
      () => {
        this.gapTimer = undefined;
        this.wake();
      },
      Math.min(100, this.gapGraceMs),
    );
    this.gapTimer.unref();
    return false;
  }

  private async prune(): Promise<void> {
    const now = this.options.clock.now().getTime();
    if (now - this.lastPrune < 60 * 60_000) return;
    this.lastPrune = now;
    await pruneCustodyEvents(this.db, new Date(now - CUSTODY_EVENTS_KEPT_MS));
    await pruneApprovalEvents(this.db, new Date(now - APPROVAL_EVENTS_KEPT_MS));
  }

  private broadcast(event: LiveEvent, source: number, id: number): void {
    const position: Cursor = [...this.positions];
    this.remember({ event, source, id, position });
    const out: Outgoing = {
      bytes: frame(LIVE_STREAM_EVENTS.change, formatCursor(position), JSON.stringify(event)),
      subOrgId: event.subOrgId,
      position,
    };
    for (const stream of this.streams) this.send(stream, out);
  }

  private send(stream: LiveStream, out: Outgoing): void {
    if (stream.closed) return;
    if (out.subOrgId !== undefined && !stream.visible(out.subOrgId)) return;
    if (stream.waiting) {
      stream.waiting.push(out);
      return;
    }
    const queued = -(stream.controller.desiredSize ?? 0);
    if (queued > this.maxQueuedBytes) {
      // A reader this far behind resumes from the database once it reconnects.
      this.end(stream);
      return;
    }
    try {
      stream.controller.enqueue(out.bytes);
    } catch {
      this.drop(stream);
    }
  }

  /** Keeps a sent event for reconnecting streams; the oldest goes once `recentEvents` are kept. */
  private remember(sent: RecentEvent): void {
    if (this.recentEvents <= 0) {
      this.recentFrom = sent.position;
      return;
    }
    if (this.recent.length < this.recentEvents) {
      this.recent.push(sent);
      return;
    }
    const oldest = this.recent[this.recentStart];
    if (oldest) this.recentFrom = oldest.position;
    this.recent[this.recentStart] = sent;
    this.recentStart = (this.recentStart + 1) % this.recent.length;
  }

  private heartbeat(): void {
    const now = this.options.clock.now().getTime();
    for (const stream of this.streams) {
      if (now >= stream.endsAt) this.end(stream);
      else this.send(stream, { bytes: HEARTBEAT });
    }
  }

  /** Ends the streams whose life is over (each life its own length: `streamJitter`). */
  private endExpired(): void {
    const now = this.options.clock.now().getTime();
    for (const stream of this.streams) if (now >= stream.endsAt) this.end(stream);
  }

  /** A new stream's life: `maxStreamMs`, less a random part of `streamJitter` of it. */
  private streamLife(): number {
    return this.maxStreamMs * (1 - this.streamJitter * Math.random());
  }

  /**
   * Opens a stream for a member who may see `viewer.visible` sub-orgs,
   * resuming after `from` when given. Answers the body to send; it ends when
   * the browser goes away, the stream's time is up, its session ends or the
   * hub closes.
   */
  open(viewer: LiveViewer, from?: Cursor): ReadableStream<Uint8Array> {
    let stream: LiveStream | undefined;
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          stream = {
            visible: viewer.visible,
            sessionId: viewer.sessionId,
            controller,
            waiting: [],
            endsAt: this.options.clock.now().getTime() + this.streamLife(),
            closed: false,
          };
          this.streams.add(stream);
          controller.enqueue(encoder.encode('retry: 2000\n\n'));
          void this.begin(stream, from);
        },
        cancel: () => {
          if (stream) this.drop(stream);
        },
      },
      { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
    );
  }

  /** Starts the tail if needed, sends what was missed, then what waited meanwhile. */
  private async begin(stream: LiveStream, from: Cursor | undefined): Promise<void> {
    try {
      await this.start();
      if (stream.closed) return;
      const upTo: Cursor = [...this.positions];
      const missed = from ? await this.missed(stream, from, upTo) : [];
      if (stream.closed) return;
      const waiting = stream.waiting ?? [];
      stream.waiting = undefined;
      for (const out of missed) this.send(stream, out);
      this.send(stream, { bytes: frame(LIVE_STREAM_EVENTS.ready, formatCursor(upTo), '{}') });
      // What the tail sent while this began and the replay (or the start) already covers is left out.
      for (const out of waiting)
        if (!out.position || out.position.some((p, i) => p > (upTo[i] ?? 0)))
          this.send(stream, out);
    } catch (error) {
      this.options.logger.warn({ err: error }, 'live updates: a stream could not start');
      this.end(stream);
    }
  }

  /** What a stream that stood at `from` missed up to `upTo`, or a reset when that cannot be told. */
  private async missed(stream: LiveStream, from: Cursor, upTo: Cursor): Promise<Outgoing[]> {
    const reset = (): Outgoing[] => [
      { bytes: frame(LIVE_STREAM_EVENTS.reset, formatCursor(upTo), '{}') },
    ];
    // Another count of logs (an id from before a log was added), or a position beyond the
    // logs' (another database, or one restored): nothing can be told.
    if (from.length !== upTo.length || from.some((p, i) => p > (upTo[i] ?? 0))) return reset();
    if (from.every((p, i) => p === upTo[i])) return [];
    const remembered = this.missedFromRecent(stream, from);
    if (remembered === 'too many') return reset();
    if (remembered) return remembered;
    const out: Outgoing[] = [];
    const cursor = [...from];
    for (const [index, source] of this.options.sources.entries()) {
      const end = upTo[index] ?? 0;
      if (!source) continue;
      while ((cursor[index] ?? 0) < end) {
        const rows = await source.after(cursor[index] ?? 0, BATCH, end);
        if (rows.length === 0) break;
        for (const row of rows) {
          cursor[index] = row.id;
          if (!row.event || !stream.visible(row.event.subOrgId)) continue;
          if (out.length >= this.maxReplay) return reset();
          out.push({
            bytes: frame(
              LIVE_STREAM_EVENTS.change,
              formatCursor(cursor),
              JSON.stringify(row.event),
            ),
            subOrgId: row.event.subOrgId,
          });
        }
      }
      cursor[index] = end;
    }
    return out;
  }

  /**
   * What a stream that stood at `from` missed, from the events kept in memory, or undefined
   * when they do not reach back that far (the logs are read). Called with nothing read since
   * `upTo` was taken, so the kept events end there. Each frame's id is the later of `from` and
   * the event's position, log by log: ids only grow, and one names everything sent before it
   * (a `from` another server wrote may be ahead of this one's positions in some logs).
   */
  private missedFromRecent(stream: LiveStream, from: Cursor): Outgoing[] | 'too many' | undefined {
    if (this.recentFrom.length !== from.length) return undefined;
    if (from.some((p, i) => p < (this.recentFrom[i] ?? 0))) return undefined;
    const out: Outgoing[] = [];
    const count = this.recent.length;
    for (let k = 0; k < count; k += 1) {
      const sent = this.recent[(this.recentStart + k) % count];
      if (!sent) continue;
      if (sent.id <= (from[sent.source] ?? 0)) continue;
      if (!stream.visible(sent.event.subOrgId)) continue;
      if (out.length >= this.maxReplay) return 'too many';
      const id = sent.position.map((p, i) => Math.max(p, from[i] ?? 0));
      out.push({
        bytes: frame(LIVE_STREAM_EVENTS.change, formatCursor(id), JSON.stringify(sent.event)),
        subOrgId: sent.event.subOrgId,
      });
    }
    return out;
  }

  /** Closes a stream from this side (the browser reconnects). */
  private end(stream: LiveStream): void {
    if (stream.closed) return;
    try {
      stream.controller.close();
    } catch {
      // Already errored or cancelled by the reader.
    }
    this.drop(stream);
  }

  private drop(stream: LiveStream): void {
    stream.closed = true;
    stream.waiting = undefined;
    this.streams.delete(stream);
    this.stopIfIdle();
  }

  /** Ends every stream and stops the tail: the server is shutting down. */
  close(): void {
    for (const stream of [...this.streams]) this.end(stream);
    this.stopIfIdle();
  }
}
