import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { Logger } from 'pino';
import { isApprovalEvent, isTransactionEvent, type LiveEvent } from '#contract/live-events.ts';
import type { NotificationChannel } from '#contract/notifications.ts';
import type { Clock } from '../../clock.ts';
import type { Database, DatabaseHandle } from '../../db/client.ts';
import { declaredWrite } from '../../db/declared-writes.ts';
import { writeVersion } from '../../db/read-cache.ts';
import {
  notificationChatTargets,
  notificationCursors,
  notificationPreferences,
  notifications,
} from '../../db/schema/console.ts';
import { startWokenLoop } from '../../woken-loop.ts';
import { LIVE_CHANNEL, type LiveSource } from '../live/index.ts';
import type { TargetPolicy } from '../webhooks/targets.ts';
import { derive, enabledMembers, type Derived } from './derive.ts';
import type { Member } from './recipients.ts';
import { chatBody, linkFor, messageFor } from './messages.ts';
import { postChat, sendEmail, SEND_TIMEOUT_MS } from './send.ts';
import { smtpServer } from './store.ts';
import { staff } from '../../db/schema/console.ts';

/**
 * Notifications, from the console's logs of changes to each recipient's
 * inbox or team channel.
 *
 * Deriving: the notifier tails the logs the event streams tail (the live
 * sources), each from the position kept in `console.notification_cursors`,
 * so a restart resumes where the last pass stopped: nothing told twice,
 * nothing missed (a log first seen starts at its head: history is not
 * told). A pass holds the cursor's row lock, so two servers on one
 * PostgreSQL never derive one event twice, and each message's dedupe key
 * makes a repeat one row anyway. Each event becomes messages (derive.ts),
 * queued in `console.notifications` in the transaction that moves the
 * cursor. An id not yet visible (PostgreSQL hands ids out before commit) is
 * waited for `gapGraceMs`, then passed, as the live hub does.
 *
 * Sending: due messages are claimed (FOR UPDATE SKIP LOCKED, and the next
 * attempt pushed past the attempt's deadline: a lease) and sent, by email
 * through the admin's SMTP server or to the team's chat webhook. A failure
 * is retried after 30 s, doubling up to an hour, for `maxAttempts` attempts;
 * then the message is FAILED, and may be sent again from the log.
 */

export interface NotifierOptions {
  db: Database;
  clock: Clock;
  logger: Pick<Logger, 'warn' | 'error'>;
  /** The logs to tail, by a name the cursor is kept under. */
  sources: ReadonlyArray<{ name: string; source: LiveSource }>;
  /** The console's address the links start with (NOTIFICATION_BASE_URL). */
  baseUrl: () => string;
  /** Which chat webhook addresses may be reached (WEBHOOK_ALLOW_PRIVATE_TARGETS). */
  targets: TargetPolicy;
  /** How long an event waits for its item's frozen rule before the default stands in. */
  ruleGraceMs?: number;
  gapGraceMs?: number;
  maxAttempts?: number;
  timeoutMs?: number;
  /** Extra notices found by looking, not by an event (stuck transactions). */
  scans?: ReadonlyArray<(now: Date) => Promise<Derived[]>>;
}

const BATCH = 200;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 60 * 60 * 1000;
const LEASE_MARGIN_MS = 30_000;
/** Messages sent at once. */
const CONCURRENCY = 8;

/** How long after its `attempts`-th failure a message is tried again. */
export function retryDelayMs(attempts: number): number {
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

/** The item an event is about: the one whose notices must keep their order. */
function itemOf(event: LiveEvent): string | null {
  if (isTransactionEvent(event)) return event.transactionId;
  if (isApprovalEvent(event)) return event.entityId;
  return null;
}

export interface Notifier {
  /** Reads every log past its cursor and queues the messages; how many were queued. */
  derivePass(): Promise<number>;
  /** Claims due messages and sends them; how many were attempted. */
  deliverPass(): Promise<number>;
  /** Queues the notices given (the daily digest, a scan), as a pass would. */
  enqueue(derived: readonly Derived[], key: string): Promise<number>;
}

export function createNotifier(options: NotifierOptions): Notifier {
  const { db, clock } = options;
  const ruleGraceMs = options.ruleGraceMs ?? 10_000;
  const gapGraceMs = options.gapGraceMs ?? 2_000;
  const maxAttempts = options.maxAttempts ?? 8;
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  const gaps = new Map<string, { expected: number; since: number }>();
  // PGlite: each log's write counts when it was last found told to its head. While they stay
  // so, nothing new can be read: the pass asks nothing. (Its cursor moves only by this
  // notifier's passes, one server owning the database, and only after its log was written.)
  // An idle server asked two statements of each of the four logs every pass, a pass and a
  // half a second. Undefined on PostgreSQL, whose logs other servers write too.
  const toldAt = new Map<string, string>();

  async function enqueueIn(
    tx: Pick<Database, 'select' | 'insert'>,
    derived: readonly Derived[],
    key: string,
    now: Date,
  ): Promise<number> {
    if (derived.length === 0) return 0;
    const [smtp, targets, prefs] = await Promise.all([
      smtpServer(tx),
      tx.select().from(notificationChatTargets),
      tx.select().from(notificationPreferences),
    ]);
    const prefOf = new Map(prefs.map((p) => [p.staffId, p]));
    const digestIds = prefs.filter((p) => p.digest).map((p) => p.staffId);
    const zones = new Map(
      digestIds.length
        ? (
            await tx
              .select({ id: staff.id, timeZone: staff.timeZone })
              .from(staff)
              .where(inArray(staff.id, digestIds))
          ).map((m) => [m.id, m.timeZone ?? 'UTC'])
        : [],
    );
    const rows: Array<typeof notifications.$inferInsert> = [];
    const base = options.baseUrl();
    for (const { notice, members, round } of derived) {
      const link = linkFor(base, notice);
      const message = messageFor(notice, link);
      const row = (channel: NotificationChannel, recipientId: string, recipient: string) => ({
        dedupeKey: [
          notice.event,
          notice.entityType,
          notice.entityId,
          round ?? '',
          key,
          channel,
          recipientId,
        ].join('|'),
        channel,
        recipientId,
        recipient,
        event: notice.event,
        entityType: notice.entityType,
        entityId: notice.entityId,
        subject: message.subject,
        body: channel === 'EMAIL' ? message.text : '',
        link,
        status: 'PENDING' as const,
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
      });
      if (smtp)
        for (const member of members) {
          const pref = prefOf.get(member.id);
          if (pref && (!pref.email || !pref.events.includes(notice.event))) continue;
          // A member on the daily digest is asked once a day, at their hour in their zone: the
          // item waits in the queue until then, and is sent with the others in one message.
          if (pref?.digest && notice.event === 'NEEDS_APPROVAL') {
            const at = nextDigestAt(now, pref.digestHour, zones.get(member.id) ?? 'UTC');
            rows.push({
              ...row('EMAIL', member.id, member.email),
              dedupeKey: `${row('EMAIL', member.id, member.email).dedupeKey}${DIGEST_MARK}`,
              nextAttemptAt: at,
            });
            continue;
          }
          rows.push(row('EMAIL', member.id, member.email));
        }
      for (const target of targets)
        if (target.subOrgId === null || target.subOrgId === notice.subOrgId)
          rows.push(
            row(
              'CHAT',
              target.id,
              `${new URL(target.url).origin} (${target.subOrgId ?? 'whole organization'})`,
            ),
          );
    }
    if (rows.length === 0) return 0;
    const inserted = await tx
      .insert(notifications)
      .values(rows)
      .onConflictDoNothing({ target: notifications.dedupeKey })
      .returning({ id: notifications.id });
    return inserted.length;
  }

  async function deriveSource(name: string, source: LiveSource): Promise<number> {
    // Taken before anything is read: a write meanwhile makes the next pass read again.
    const version = writeVersion(db, source.tables);
    if (version !== undefined && toldAt.get(name) === version) return 0;
    toldAt.delete(name);
    const now = clock.now();
    // A log first seen starts at its head: what happened before is not told.
    const [known] = await db
      .select()
      .from(notificationCursors)
      .where(eq(notificationCursors.source, name));
    if (!known) {
      await db
        .insert(notificationCursors)
        .values({ source: name, position: await source.head() })
        .onConflictDoNothing();
      return 0;
    }
    if ((await source.head()) <= known.position) {
      if (version !== undefined) toldAt.set(name, version);
      return 0;
    }
    // Read and judged outside the transaction (PGlite has one connection: a read beside an
    // open transaction would wait for it); the transaction then checks that no other pass
    // moved the cursor meanwhile, and queues with the move.
    // `position`: the cursor, every event at or before it told. An event whose rule is not
    // written yet holds the cursor, not the events behind it: they are told now, and read
    // again until it is (their notices' dedupe keys keep a second telling from queueing twice).
    // Only a later event of the same item waits with it, so an item's notices keep their order.
    let position = known.position;
    let scanned = known.position;
    let holding = false;
    const held = new Set<string>();
    const told: Derived[] = [];
    let membersRead: Promise<Member[]> | undefined;
    const members = () => (membersRead ??= enabledMembers(db));
    for (const row of await source.after(position, BATCH)) {
      if (row.id !== scanned + 1) {
        const gap = gaps.get(name);
        if (!gap || gap.expected !== scanned + 1) {
          gaps.set(name, { expected: scanned + 1, since: now.getTime() });
          break;
        }
        if (now.getTime() - gap.since < gapGraceMs) break;
      }
      scanned = row.id;
      if (row.event) {
        const item = itemOf(row.event);
        const derived =
          item !== null && held.has(item)
            ? ({ waiting: true } as const)
            : await derive(db, row.event, { now, graceMs: ruleGraceMs, members });
        if (derived.waiting) {
          holding = true;
          if (item === null) break;
          held.add(item);
          continue;
        }
        told.push(...derived.derived);
      }
      if (!holding) position = row.id;
    }
    if (position === known.position && told.length === 0) return 0;
    return db.transaction(async (tx) => {
      const [cursor] = await tx
        .select()
        .from(notificationCursors)
        .where(eq(notificationCursors.source, name))
        .for('update');
      if (cursor?.position !== known.position) return 0;
      const queued = await enqueueIn(tx, told, '', now);
      await tx
        .update(notificationCursors)
        .set({ position })
        .where(eq(notificationCursors.source, name));
      return queued;
    });
  }

  /** What a delivery pass sends through: read once a pass, not once a message. */
  interface Channels {
    smtp: Awaited<ReturnType<typeof smtpServer>>;
    chatTargets: Map<string, typeof notificationChatTargets.$inferSelect>;
  }

  async function deliverOne(
    group: Array<typeof notifications.$inferSelect>,
    { smtp, chatTargets }: Channels,
  ): Promise<void> {
    const [row] = group;
    if (!row) return;
    let error: string | null;
    if (row.channel === 'EMAIL') {
      const message =
        group.length > 1 || row.dedupeKey.endsWith(DIGEST_MARK)
          ? digestMessage(group, options.baseUrl())
          : { subject: row.subject, text: row.body };
      error = smtp
        ? await sendEmail(smtp, { to: row.recipient, ...message }, timeoutMs)
        : 'email is turned off: no SMTP server is set and on';
    } else {
      const target = chatTargets.get(row.recipientId);
      error = target
        ? await postChat(
            target.url,
            chatBody(target.format, { subject: row.subject, text: chatText(row) }, row.link),
            { targets: options.targets, timeoutMs },
          )
        : 'the chat webhook was removed';
    }
    const attempts = row.attempts + 1;
    const at = clock.now();
    await db
      .update(notifications)
      .set(
        error === null
          ? { status: 'SENT', attempts, sentAt: at, lastError: null, nextAttemptAt: null }
          : attempts >= maxAttempts
            ? { status: 'FAILED', attempts, lastError: error, nextAttemptAt: null }
            : {
                attempts,
                lastError: error,
                nextAttemptAt: new Date(at.getTime() + retryDelayMs(attempts)),
              },
      )
      .where(
        inArray(
          notifications.id,
          group.map((g) => g.id),
        ),
      );
  }

  return {
    async derivePass() {
      let queued = 0;
      for (const { name, source } of options.sources) queued += await deriveSource(name, source);
      for (const scan of options.scans ?? []) {
        const now = clock.now();
        queued += await enqueueIn(db, await scan(now), 'scan', now);
      }
      return queued;
    },
    async deliverPass() {
      const now = clock.now();
      const lease = new Date(now.getTime() + timeoutMs * 2 + LEASE_MARGIN_MS);
      const claimed = await declaredWrite(db, [notifications], () =>
        db.transaction(async (tx) => {
          const due = await tx
            .select({ id: notifications.id })
            .from(notifications)
            .where(and(eq(notifications.status, 'PENDING'), lte(notifications.nextAttemptAt, now)))
            .orderBy(asc(notifications.id))
            .limit(CONCURRENCY * 4)
            .for('update', { skipLocked: true });
          if (due.length === 0) return [];
          return tx
            .update(notifications)
            .set({ nextAttemptAt: lease })
            .where(
              inArray(
                notifications.id,
                due.map((d) => d.id),
              ),
            )
            .returning();
        }),
      );
      // A member's digest is one message: their digest rows claimed together go as one.
      const groups = new Map<string, Array<(typeof claimed)[number]>>();
      for (const row of [...claimed].sort((a, b) => a.id - b.id)) {
        const key = row.dedupeKey.endsWith(DIGEST_MARK) ? `digest:${row.recipientId}` : `${row.id}`;
        groups.set(key, [...(groups.get(key) ?? []), row]);
      }
      const queue = [...groups.values()];
      if (queue.length === 0) return 0;
      const [smtp, targets] = await Promise.all([
        smtpServer(db),
        db.select().from(notificationChatTargets),
      ]);
      const channels: Channels = { smtp, chatTargets: new Map(targets.map((t) => [t.id, t])) };
      const workers = Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
        for (let row = queue.shift(); row; row = queue.shift()) await deliverOne(row, channels);
      });
      await Promise.all(workers);
      return claimed.length;
    },
    async enqueue(derived, key) {
      const now = clock.now();
      return enqueueIn(db, derived, key, now);
    },
  };
}

/** Marks a queued message as part of its member's daily digest. */
const DIGEST_MARK = '|digest';

/**
 * The next time after `now` that the clock in `timeZone` shows `hour` (at the turn of a
 * UTC hour: in a zone half an hour off UTC, half past): a member's digest time.
 */
export function nextDigestAt(now: Date, hour: number, timeZone: string): Date {
  const hourIn = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' });
  const start = Math.floor(now.getTime() / 3_600_000) * 3_600_000;
  for (let step = 1; step <= 48; step += 1) {
    const at = new Date(start + step * 3_600_000);
    if (hourIn.format(at) === String(hour).padStart(2, '0')) return at;
  }
  return new Date(start + 24 * 3_600_000);
}

/** A member's digest: what waits for their approval, one line and link per item. */
export function digestMessage(
  rows: ReadonlyArray<{ subject: string; link: string }>,
  baseUrl: string,
): { subject: string; text: string } {
  const subject =
    rows.length === 1
      ? 'Your daily digest: 1 item needs your approval'
      : `Your daily digest: ${rows.length} items need your approval`;
  const lines = [
    `${subject}.`,
    '',
    ...rows.map((r) => `- ${r.subject}: ${r.link}`),
    '',
    `Your approvals inbox (you will be asked to sign in): ${baseUrl.replace(/\/+$/, '')}/approvals`,
    '',
    'Decisions are made in the console only, never from this message.',
  ];
  return { subject, text: lines.join('\n') };
}

/** A chat message's words: the subject, and the item's detail line when it has one. */
function chatText(row: { subject: string }): string {
  return row.subject;
}

export interface RunningNotifier {
  /** Runs a pass now (or once the one under way ends). */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * Runs the notifier: a pass (derive, then send) at every change the logs gain (PostgreSQL:
 * LISTEN on the streams' channel; PGlite: the logs' write counts) and every `intervalMs`
 * anyway (retries falling due, a lost LISTEN). Passes never overlap.
 */
export function startNotifier(
  options: NotifierOptions & {
    listen?: DatabaseHandle['listen'];
    intervalMs?: number;
    watchMs?: number;
  },
): RunningNotifier {
  const notifier = createNotifier(options);
  return startWokenLoop({
    name: 'notifications',
    pass: async (stopped) => {
      await notifier.derivePass();
      while ((await notifier.deliverPass()) > 0 && !stopped());
    },
    db: options.db,
    logger: options.logger,
    intervalMs: options.intervalMs ?? 1_000,
    listen: options.listen,
    channel: LIVE_CHANNEL,
    tables: [...new Set(options.sources.flatMap(({ source }) => source.tables))],
    watchMs: options.watchMs ?? 20,
  });
}

/** The live sources by the names their cursors are kept under (a mode's missing log left out). */
export function namedSources(
  sources: readonly (LiveSource | undefined)[],
): Array<{ name: string; source: LiveSource }> {
  const names = ['status', 'custody', 'change_requests', 'approvals'];
  return sources.flatMap((source, i) => (source ? [{ name: names[i] ?? `log${i}`, source }] : []));
}
