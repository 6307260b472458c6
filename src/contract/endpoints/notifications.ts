import { endpoint } from '../endpoint.ts';
import {
  ChatTarget,
  ChatTargetInput,
  ChatTargetList,
  NotificationDelivery,
  NotificationDeliveryFilters,
  NotificationDeliveryList,
  NotificationPreferences,
  SmtpSettings,
  SmtpSettingsInput,
  TestEmailRequest,
  TestEmailResult,
} from '../notifications.ts';

/**
 * Notifications (server/capabilities/notifications/). The SMTP server, the
 * teams' chat webhooks and the delivery log are the organization's: only an
 * admin of every sub-organization reads or changes them (a message names
 * items of every sub-organization). Each member sets their own preferences.
 */

export const getSmtpSettings = endpoint({
  method: 'GET',
  path: '/api/console/notifications/smtp/',
  summary: "The SMTP server notifications are sent through; the password only as whether it's set.",
  action: 'manage notifications',
  permission: 'admin',
  audit: false,
  answer: SmtpSettings,
});

export const updateSmtpSettings = endpoint({
  method: 'PUT',
  path: '/api/console/notifications/smtp/',
  summary: 'Sets the SMTP server; a password left out keeps the one stored, never answered back.',
  action: 'manage notifications',
  permission: 'admin',
  audit: { action: 'notifications.smtp', entityType: 'NOTIFICATION_SETTINGS' },
  body: SmtpSettingsInput,
  answer: SmtpSettings,
});

export const sendTestEmail = endpoint({
  method: 'POST',
  path: '/api/console/notifications/smtp/test/',
  summary: 'Sends one test email through the stored SMTP settings now and answers what happened.',
  action: 'manage notifications',
  permission: 'admin',
  audit: { action: 'notifications.test_email', entityType: 'NOTIFICATION_SETTINGS' },
  body: TestEmailRequest,
  answer: TestEmailResult,
});

export const listChatTargets = endpoint({
  method: 'GET',
  path: '/api/console/notifications/chat/',
  summary: "The teams' chat webhooks (their URLs' origins only).",
  action: 'manage notifications',
  permission: 'admin',
  audit: false,
  answer: ChatTargetList,
});

export const createChatTarget = endpoint({
  method: 'POST',
  path: '/api/console/notifications/chat/',
  summary: "Adds a team's incoming webhook (Slack- or Teams-compatible).",
  action: 'manage notifications',
  permission: 'admin',
  audit: { action: 'notifications.chat_create', entityType: 'NOTIFICATION_CHAT' },
  body: ChatTargetInput,
  answer: ChatTarget,
  status: 201,
});

export const deleteChatTarget = endpoint({
  method: 'DELETE',
  path: '/api/console/notifications/chat/:targetId/',
  summary: "Removes a team's chat webhook.",
  action: 'manage notifications',
  permission: 'admin',
  audit: {
    action: 'notifications.chat_delete',
    entityType: 'NOTIFICATION_CHAT',
    entityParam: 'targetId',
  },
  resource: 'chat webhook',
  answer: ChatTarget,
});

export const listNotificationDeliveries = endpoint({
  method: 'GET',
  path: '/api/console/notifications/deliveries/',
  summary:
    'The delivery log, newest first: channel, recipient, event, status, attempts, last error.',
  action: 'manage notifications',
  permission: 'admin',
  audit: false,
  query: NotificationDeliveryFilters,
  answer: NotificationDeliveryList,
});

export const retryNotificationDelivery = endpoint({
  method: 'POST',
  path: '/api/console/notifications/deliveries/:deliveryId/retry/',
  summary: 'Sends a message again now (a failed one gets its retries back).',
  action: 'manage notifications',
  permission: 'admin',
  audit: {
    action: 'notifications.retry',
    entityType: 'NOTIFICATION',
    entityParam: 'deliveryId',
  },
  resource: 'notification',
  answer: NotificationDelivery,
});

export const getNotificationPreferences = endpoint({
  method: 'GET',
  path: '/api/console/account/notifications/',
  summary: "The signed-in member's notification preferences.",
  action: 'read notification preferences',
  permission: 'read',
  audit: false,
  answer: NotificationPreferences,
});

export const updateNotificationPreferences = endpoint({
  method: 'PUT',
  path: '/api/console/account/notifications/',
  summary: "Sets the signed-in member's notification preferences.",
  action: 'change notification preferences',
  permission: 'read',
  audit: { action: 'notifications.preferences', entityType: 'STAFF' },
  body: NotificationPreferences,
  answer: NotificationPreferences,
});
