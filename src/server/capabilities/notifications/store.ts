import { randomUUID } from 'node:crypto';
import { count, desc, eq, sql } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  type ChatTarget,
  type ChatTargetInput,
  type NotificationDelivery,
  type NotificationDeliveryList,
  type NotificationPreferences,
  type NotificationStatus,
  type SmtpSettings,
  type SmtpSettingsInput,
} from '#contract/notifications.ts';
import type { Database } from '../../db/client.ts';
import {
  notificationChatTargets,
  notificationPreferences,
  notifications,
  notificationSmtp,
} from '../../db/schema/console.ts';
import type { SmtpServer } from './send.ts';

/** The settings' one row. */
const SMTP_ID = 'smtp';
/** The newest messages the log answers. */
const LOG_ROWS = 200;

type SmtpRow = typeof notificationSmtp.$inferSelect;

export async function smtpRow(db: Pick<Database, 'select'>): Promise<SmtpRow | undefined> {
  const [row] = await db.select().from(notificationSmtp).where(eq(notificationSmtp.id, SMTP_ID));
  return row;
}

/** The stored server to send through, when one is set and turned on. */
export async function smtpServer(db: Pick<Database, 'select'>): Promise<SmtpServer | undefined> {
  const row = await smtpRow(db);
  return row?.enabled ? row : undefined;
}

export function smtpAnswer(row: SmtpRow | undefined): SmtpSettings {
  return {
    configured: !!row,
    host: row?.host ?? '',
    port: row?.port ?? 587,
    security: row?.security ?? 'STARTTLS',
    username: row?.username ?? null,
    passwordSet: !!row?.password,
    fromAddress: row?.fromAddress ?? '',
    enabled: row?.enabled ?? false,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

export async function saveSmtp(
  db: Database,
  input: SmtpSettingsInput,
  memberId: string,
  now: Date,
): Promise<SmtpSettings> {
  const before = await smtpRow(db);
  // Left out (or null): the stored password stays; "": removed.
  const password =
    input.password === undefined || input.password === null
      ? (before?.password ?? null)
      : input.password || null;
  const values = {
    host: input.host,
    port: input.port,
    security: input.security,
    username: input.username || null,
    password,
    fromAddress: input.fromAddress,
    enabled: input.enabled,
    updatedAt: now,
    updatedBy: memberId,
  };
  const [row] = await db
    .insert(notificationSmtp)
    .values({ id: SMTP_ID, ...values })
    .onConflictDoUpdate({ target: notificationSmtp.id, set: values })
    .returning();
  return smtpAnswer(row);
}

function chatAnswer(row: typeof notificationChatTargets.$inferSelect): ChatTarget {
  return {
    id: row.id,
    subOrgId: row.subOrgId,
    urlOrigin: new URL(row.url).origin,
    format: row.format,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function chatTargets(db: Pick<Database, 'select'>): Promise<ChatTarget[]> {
  const rows = await db
    .select()
    .from(notificationChatTargets)
    .orderBy(notificationChatTargets.createdAt, notificationChatTargets.id);
  return rows.map(chatAnswer);
}

export async function addChatTarget(
  db: Database,
  input: ChatTargetInput,
  memberId: string,
  now: Date,
): Promise<ChatTarget> {
  const [row] = await db
    .insert(notificationChatTargets)
    .values({
      id: `chat_${randomUUID()}`,
      subOrgId: input.subOrgId,
      url: input.url,
      format: input.format,
      description: input.description ?? '',
      createdAt: now,
      createdBy: memberId,
    })
    .returning();
  if (!row) throw new Error('the chat webhook was not stored');
  return chatAnswer(row);
}

export async function removeChatTarget(db: Database, id: string): Promise<ChatTarget> {
  const [row] = await db
    .delete(notificationChatTargets)
    .where(eq(notificationChatTargets.id, id))
    .returning();
  if (!row) throw new ApiError(404, ERROR_CODES.notFound, 'No chat webhook with that id');
  return chatAnswer(row);
}

export async function preferencesOf(
  db: Pick<Database, 'select'>,
  staffId: string,
): Promise<NotificationPreferences> {
  const [row] = await db
    .select()
    .from(notificationPreferences)
    .where(eq(notificationPreferences.staffId, staffId));
  if (!row) return DEFAULT_NOTIFICATION_PREFERENCES;
  return { events: row.events, email: row.email, digest: row.digest, digestHour: row.digestHour };
}

export async function savePreferences(
  db: Database,
  staffId: string,
  input: NotificationPreferences,
  now: Date,
): Promise<NotificationPreferences> {
  const values = {
    events: [...new Set(input.events)],
    email: input.email,
    digest: input.digest,
    digestHour: input.digestHour,
    updatedAt: now,
  };
  await db
    .insert(notificationPreferences)
    .values({ staffId, ...values })
    .onConflictDoUpdate({ target: notificationPreferences.staffId, set: values });
  return preferencesOf(db, staffId);
}

type NotificationRow = typeof notifications.$inferSelect;

export function deliveryAnswer(row: NotificationRow): NotificationDelivery {
  return {
    id: String(row.id),
    channel: row.channel,
    recipient: row.recipient,
    event: row.event,
    subject: row.subject,
    link: row.link,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    nextAttemptAt: row.status === 'PENDING' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
  };
}

export async function deliveries(
  db: Pick<Database, 'select'>,
  status: NotificationStatus | undefined,
): Promise<NotificationDeliveryList> {
  const [rows, counted] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(status ? eq(notifications.status, status) : undefined)
      .orderBy(desc(notifications.id))
      .limit(LOG_ROWS),
    db
      .select({ status: notifications.status, n: count() })
      .from(notifications)
      .groupBy(notifications.status),
  ]);
  const n = (s: NotificationStatus) => counted.find((c) => c.status === s)?.n ?? 0;
  return {
    results: rows.map(deliveryAnswer),
    counts: { pending: n('PENDING'), sent: n('SENT'), failed: n('FAILED') },
  };
}

/** Sends a message again at once: a failed one starts its retries afresh. */
export async function retryDelivery(
  db: Database,
  id: string,
  now: Date,
): Promise<NotificationDelivery> {
  if (!/^\d{1,15}$/.test(id))
    throw new ApiError(404, ERROR_CODES.notFound, 'No notification with that id');
  const [row] = await db
    .update(notifications)
    .set({
      status: 'PENDING',
      nextAttemptAt: now,
      attempts: sql`case when ${notifications.status} = 'FAILED' then 0 else ${notifications.attempts} end`,
    })
    .where(eq(notifications.id, sql`${id}::bigint`))
    .returning();
  if (!row) throw new ApiError(404, ERROR_CODES.notFound, 'No notification with that id');
  return deliveryAnswer(row);
}
