import * as z from 'zod/mini';
import { IsoTimestamp } from './common.ts';

/**
 * Notifications that reach members outside the console: by email (an SMTP
 * server the admin configures) and by a team's chat webhook (Slack- or
 * Teams-compatible). Each message names the item and links to its page in
 * the console: never a link that decides anything without signing in, never
 * a full account number.
 */

export const NOTIFICATION_EVENTS = [
  'NEEDS_APPROVAL',
  'APPROVED',
  'DECLINED',
  'FAILED',
  'STUCK',
  'POLICY_CHANGED',
  'NEW_ADMIN',
] as const;
export const NotificationEvent = z.enum(NOTIFICATION_EVENTS);
export type NotificationEvent = z.infer<typeof NotificationEvent>;

/** Each event in words, as the preferences and the log show it. */
export const NOTIFICATION_EVENT_LABELS: Readonly<Record<NotificationEvent, string>> = {
  NEEDS_APPROVAL: 'An item needs your approval',
  APPROVED: 'Something you proposed was approved',
  DECLINED: 'Something you proposed was declined',
  FAILED: 'A transaction you made failed',
  STUCK: 'A transaction you made has not moved for a while',
  POLICY_CHANGED: 'An approval policy changed',
  NEW_ADMIN: 'A member became an admin',
};

export const NOTIFICATION_CHANNELS = ['EMAIL', 'CHAT'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export const NOTIFICATION_STATUSES = ['PENDING', 'SENT', 'FAILED'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

export const SMTP_SECURITY = ['NONE', 'STARTTLS', 'TLS'] as const;
export type SmtpSecurity = (typeof SMTP_SECURITY)[number];

export const SMTP_SECURITY_LABELS: Readonly<Record<SmtpSecurity, string>> = {
  NONE: 'None (plain connection: only for a server on your own network)',
  STARTTLS: 'STARTTLS (upgrade to TLS; usually port 587)',
  TLS: 'TLS from the start (usually port 465)',
};

const required = (field: string, max: number) =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, `${field} is required`),
      z.maxLength(max, `${field} must be at most ${max} characters`),
    );

/** An address as a mail server takes it: one @, no spaces. */
const EMAIL_RULE = /^[^\s@]+@[^\s@]+$/;

/**
 * The SMTP server's settings as an admin sends them. The password is
 * write-only: left out (or null) keeps the one stored; an empty string
 * removes it.
 */
export const SmtpSettingsInput = z.strictObject({
  host: required('host', 253),
  port: z
    .int('port must be a whole number from 1 to 65535')
    .check(
      z.gte(1, 'port must be a whole number from 1 to 65535'),
      z.lte(65535, 'port must be a whole number from 1 to 65535'),
    ),
  security: z.enum(SMTP_SECURITY, `security must be one of ${SMTP_SECURITY.join(', ')}`),
  username: z.optional(
    z.nullable(
      z.string().check(z.trim(), z.maxLength(320, 'username must be at most 320 characters')),
    ),
  ),
  password: z.optional(
    z.nullable(z.string().check(z.maxLength(1000, 'password must be at most 1000 characters'))),
  ),
  fromAddress: required('fromAddress', 320).check(
    z.regex(EMAIL_RULE, 'fromAddress must be an email address, like console@example.com'),
  ),
  enabled: z.boolean('enabled must be true or false'),
});
export type SmtpSettingsInput = z.infer<typeof SmtpSettingsInput>;

/** The settings as the server answers them: the password only as whether one is set. */
export const SmtpSettings = z.strictObject({
  configured: z.boolean(),
  host: z.string(),
  port: z.int(),
  security: z.enum(SMTP_SECURITY),
  username: z.nullable(z.string()),
  passwordSet: z.boolean(),
  fromAddress: z.string(),
  enabled: z.boolean(),
  updatedAt: z.nullable(IsoTimestamp),
});
export type SmtpSettings = z.infer<typeof SmtpSettings>;

export const TestEmailRequest = z.strictObject({
  to: required('to', 320).check(
    z.regex(EMAIL_RULE, 'to must be an email address, like you@example.com'),
  ),
});
export type TestEmailRequest = z.infer<typeof TestEmailRequest>;

export const TestEmailResult = z.strictObject({
  sent: z.boolean(),
  /** What the server answered, or why it could not be reached. */
  detail: z.string(),
});
export type TestEmailResult = z.infer<typeof TestEmailResult>;

export const CHAT_FORMATS = ['SLACK', 'TEAMS'] as const;
export type ChatFormat = (typeof CHAT_FORMATS)[number];

export const CHAT_FORMAT_LABELS: Readonly<Record<ChatFormat, string>> = {
  SLACK: 'Slack (or compatible): a JSON body with text',
  TEAMS: 'Microsoft Teams: a simple message card',
};

/** A team's incoming webhook: a sub-organization's, or (null) the whole organization's. */
export const ChatTargetInput = z.strictObject({
  subOrgId: z.nullable(z.string().check(z.minLength(1, 'subOrgId must not be empty'))),
  url: required('url', 2000).check(
    z.regex(/^https?:\/\/\S+$/i, 'url must be an http:// or https:// URL'),
  ),
  format: z.enum(CHAT_FORMATS, `format must be one of ${CHAT_FORMATS.join(', ')}`),
  description: z.optional(
    z.string().check(z.trim(), z.maxLength(200, 'description must be at most 200 characters')),
  ),
});
export type ChatTargetInput = z.infer<typeof ChatTargetInput>;

export const ChatTarget = z.strictObject({
  id: z.string(),
  subOrgId: z.nullable(z.string()),
  /** The URL's origin only: the rest of an incoming webhook's URL is its secret. */
  urlOrigin: z.string(),
  format: z.enum(CHAT_FORMATS),
  description: z.string(),
  createdAt: IsoTimestamp,
});
export type ChatTarget = z.infer<typeof ChatTarget>;

export const ChatTargetList = z.strictObject({ results: z.array(ChatTarget) });

/** One message in the delivery log. */
export const NotificationDelivery = z.strictObject({
  id: z.string(),
  channel: z.enum(NOTIFICATION_CHANNELS),
  /** A member's email address, or the team's chat webhook (its origin) and team. */
  recipient: z.string(),
  event: z.enum(NOTIFICATION_EVENTS),
  subject: z.string(),
  /** The item's page in the console. */
  link: z.string(),
  status: z.enum(NOTIFICATION_STATUSES),
  attempts: z.int(),
  lastError: z.nullable(z.string()),
  createdAt: IsoTimestamp,
  sentAt: z.nullable(IsoTimestamp),
  nextAttemptAt: z.nullable(IsoTimestamp),
});
export type NotificationDelivery = z.infer<typeof NotificationDelivery>;

export const NotificationDeliveryFilters = z.strictObject({
  status: z.optional(z.enum(NOTIFICATION_STATUSES)),
});

export const NotificationDeliveryList = z.strictObject({
  results: z.array(NotificationDelivery),
  counts: z.strictObject({ pending: z.int(), sent: z.int(), failed: z.int() }),
});
export type NotificationDeliveryList = z.infer<typeof NotificationDeliveryList>;

/** A member's own choices: which events reach them, by email, each or once a day. */
export const NotificationPreferences = z.strictObject({
  events: z.array(
    z.enum(NOTIFICATION_EVENTS, `events must be among ${NOTIFICATION_EVENTS.join(', ')}`),
  ),
  email: z.boolean('email must be true or false'),
  /** A daily list of what waits for their approval instead of a message per item. */
  digest: z.boolean('digest must be true or false'),
  /** The hour of the day (0–23, in the member's time zone) the digest is sent. */
  digestHour: z
    .int('digestHour must be a whole number from 0 to 23')
    .check(
      z.gte(0, 'digestHour must be a whole number from 0 to 23'),
      z.lte(23, 'digestHour must be a whole number from 0 to 23'),
    ),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;

/** What a member who never chose receives: every event, by email, each as it happens, at 08:00. */
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  events: [...NOTIFICATION_EVENTS],
  email: true,
  digest: false,
  digestHour: 8,
};
