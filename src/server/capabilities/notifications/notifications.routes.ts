import { Hono, type Context } from 'hono';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import {
  createChatTarget,
  deleteChatTarget,
  getNotificationPreferences,
  getSmtpSettings,
  listChatTargets,
  listNotificationDeliveries,
  retryNotificationDelivery,
  sendTestEmail,
  updateNotificationPreferences,
  updateSmtpSettings,
} from '#contract/endpoints/notifications.ts';
import { unauthorized, type AuthOptions } from '../../auth/session-auth.ts';
import { outsideAdminScope } from '../../console/admin-scope.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';
import { checkTarget, type TargetPolicy } from '../webhooks/targets.ts';
import { sendEmail } from './send.ts';
import {
  addChatTarget,
  chatTargets,
  deliveries,
  preferencesOf,
  removeChatTarget,
  retryDelivery,
  saveSmtp,
  savePreferences,
  smtpAnswer,
  smtpRow,
} from './store.ts';

/**
 * Notification settings (contract/endpoints/notifications.ts). The SMTP
 * server, the teams' chat webhooks and the delivery log are the
 * organization's: only an admin of every sub-organization manages them,
 * since messages name items of every sub-organization. The SMTP password is
 * kept on the server and never answered. Each member sets their own
 * preferences.
 */
export function notificationRoutes(options: AuthOptions, targets: TargetPolicy) {
  const app = new Hono<AppEnv>();
  const { db, clock } = options;

  function admin(c: Context<AppEnv>): string {
    const member = c.get('staff');
    if (!member) throw unauthorized();
    if (member.subOrgIds)
      throw outsideAdminScope(
        "Notifications name every sub-organization's items: only an admin of all of them may manage them",
      );
    return member.id;
  }

  function me(c: Context<AppEnv>): string {
    const member = c.get('staff');
    if (!member) throw unauthorized();
    return member.id;
  }

  mount(app, CONSOLE_API_PREFIX, getSmtpSettings, async (_input, c) => {
    admin(c);
    return smtpAnswer(await smtpRow(db));
  });

  mount(app, CONSOLE_API_PREFIX, updateSmtpSettings, async ({ body }, c) =>
    saveSmtp(db, body, admin(c), clock.now()),
  );

  mount(app, CONSOLE_API_PREFIX, sendTestEmail, async ({ body }, c) => {
    admin(c);
    const server = await smtpRow(db);
    if (!server) return { sent: false, detail: 'No SMTP server is set: save its settings first' };
    const error = await sendEmail(server, {
      to: body.to,
      subject: 'Custody Console: test email',
      text: 'This is a test email from Custody Console: notifications can reach you here.',
    });
    return error === null
      ? { sent: true, detail: `Sent to ${body.to} through ${server.host}:${server.port}` }
      : { sent: false, detail: error };
  });

  mount(app, CONSOLE_API_PREFIX, listChatTargets, async (_input, c) => {
    admin(c);
    return { results: await chatTargets(db) };
  });

  mount(app, CONSOLE_API_PREFIX, createChatTarget, async ({ body }, c) => {
    const memberId = admin(c);
    await checkTarget(body.url, targets);
    return addChatTarget(db, body, memberId, clock.now());
  });

  mount(app, CONSOLE_API_PREFIX, deleteChatTarget, async ({ params }, c) => {
    admin(c);
    return removeChatTarget(db, params.targetId);
  });

  mount(app, CONSOLE_API_PREFIX, listNotificationDeliveries, async ({ query }, c) => {
    admin(c);
    return deliveries(db, query.status);
  });

  mount(app, CONSOLE_API_PREFIX, retryNotificationDelivery, async ({ params }, c) => {
    admin(c);
    return retryDelivery(db, params.deliveryId, clock.now());
  });

  mount(app, CONSOLE_API_PREFIX, getNotificationPreferences, async (_input, c) =>
    preferencesOf(db, me(c)),
  );

  mount(app, CONSOLE_API_PREFIX, updateNotificationPreferences, async ({ body }, c) =>
    savePreferences(db, me(c), body, clock.now()),
  );

  return app;
}
