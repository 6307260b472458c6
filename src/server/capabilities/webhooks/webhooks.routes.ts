import { Hono, type Context } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  resendFailedWebhookDeliveries,
  resendWebhookDelivery,
  sendWebhookTestEvent,
  updateWebhookEndpoint,
} from '#contract/endpoints/webhooks.ts';
import { audit } from '../../auth/audit.ts';
import { unauthorized, type AuthOptions } from '../../auth/session-auth.ts';
import { outsideAdminScope } from '../../console/admin-scope.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';
import type { WebhookEndpointsAdmin } from './port.ts';

/**
 * The sandbox's webhook endpoints, for the settings page and the API
 * (contract/endpoints/webhooks.ts). An organization's endpoints receive
 * every sub-organization's events, so only an admin of all of them manages
 * them (as approval policies). Upstream, the provider registers them: 409.
 */
export function webhookRoutes(options: AuthOptions, backend: CustodyBackend) {
  const app = new Hono<AppEnv>();

  function admin(c: Context<AppEnv>): { endpoints: WebhookEndpointsAdmin; memberId: string } {
    const member = c.get('staff');
    if (!member) throw unauthorized();
    if (member.subOrgIds)
      throw outsideAdminScope(
        "Webhook endpoints receive every sub-organization's events: only an admin of all of them may manage them",
      );
    const endpoints = backend.webhookEndpoints;
    if (!endpoints)
      throw new ApiError(
        409,
        ERROR_CODES.webhooksUnavailable,
        "The console acts on an upstream custody service: its webhook endpoints are registered in the provider's dashboard, and the console receives them at /api/webhooks/custody/",
      );
    return { endpoints, memberId: member.id };
  }

  /** Runs a change, recording it (or its refusal) in the audit log. */
  async function audited<T>(
    c: Context<AppEnv>,
    action: string,
    entityId: string | null,
    run: () => Promise<{ result: T; summary: string; entityId?: string }>,
  ): Promise<T> {
    try {
      const done = await run();
      await audit(c, options, {
        action,
        entityType: 'WEBHOOK_ENDPOINT',
        entityId: done.entityId ?? entityId,
        summary: done.summary,
        outcome: 'success',
      });
      return done.result;
    } catch (error) {
      if (error instanceof ApiError)
        await audit(c, options, {
          action,
          entityType: 'WEBHOOK_ENDPOINT',
          entityId,
          summary: `Refused: ${error.message}`,
          outcome: error.status === 403 ? 'denied' : 'failed',
        });
      throw error;
    }
  }

  mount(app, CONSOLE_API_PREFIX, listWebhookEndpoints, async (_input, c) => ({
    results: await admin(c).endpoints.list(custodyContext(c)),
  }));

  mount(app, CONSOLE_API_PREFIX, createWebhookEndpoint, ({ body }, c) =>
    audited(c, 'webhook.create', null, async () => {
      const { endpoints, memberId } = admin(c);
      const created = await endpoints.create(custodyContext(c), body, memberId);
      return {
        result: created,
        entityId: created.id,
        // The URL's origin and path only: a query string may carry the receiver's own token.
        summary: `Registered ${new URL(created.url).origin}${new URL(created.url).pathname} for ${created.events.join(', ')}`,
      };
    }),
  );

  mount(app, CONSOLE_API_PREFIX, updateWebhookEndpoint, ({ params, body }, c) =>
    audited(c, 'webhook.update', params.endpointId, async () => {
      const { endpoints } = admin(c);
      const updated = await endpoints.setEnabled(
        custodyContext(c),
        params.endpointId,
        body.enabled,
      );
      return { result: updated, summary: body.enabled ? 'Turned on' : 'Turned off' };
    }),
  );

  mount(app, CONSOLE_API_PREFIX, deleteWebhookEndpoint, ({ params }, c) =>
    audited(c, 'webhook.delete', params.endpointId, async () => {
      const { endpoints } = admin(c);
      const removed = await endpoints.remove(custodyContext(c), params.endpointId);
      return {
        result: removed,
        summary: `Deleted, with its log of ${removed.deliveries.pending + removed.deliveries.delivered + removed.deliveries.failed} deliveries`,
      };
    }),
  );

  mount(app, CONSOLE_API_PREFIX, listWebhookDeliveries, ({ params, query }, c) =>
    admin(c).endpoints.deliveries(custodyContext(c), params.endpointId, query),
  );

  mount(app, CONSOLE_API_PREFIX, resendWebhookDelivery, ({ params }, c) =>
    audited(c, 'webhook.resend', params.endpointId, async () => {
      const { endpoints } = admin(c);
      const delivery = await endpoints.resend(
        custodyContext(c),
        params.endpointId,
        params.deliveryId,
      );
      return {
        result: delivery,
        summary: `Resent event ${delivery.eventId} (${delivery.event}, ${delivery.status})`,
      };
    }),
  );

  mount(app, CONSOLE_API_PREFIX, resendFailedWebhookDeliveries, ({ params }, c) =>
    audited(c, 'webhook.resend_failed', params.endpointId, async () => {
      const { endpoints } = admin(c);
      const resent = await endpoints.resendFailed(custodyContext(c), params.endpointId);
      return {
        result: { resent },
        summary: `Resent ${resent} failed ${resent === 1 ? 'delivery' : 'deliveries'}`,
      };
    }),
  );

  mount(app, CONSOLE_API_PREFIX, sendWebhookTestEvent, ({ params }, c) =>
    audited(c, 'webhook.test', params.endpointId, async () => {
      const { endpoints } = admin(c);
      const delivery = await endpoints.sendTest(custodyContext(c), params.endpointId);
      return {
        result: delivery,
        summary:
          delivery.state === 'DELIVERED'
            ? `Sent a test event ${delivery.eventId}: answered ${delivery.lastStatusCode}`
            : `Sent a test event ${delivery.eventId}: not delivered (${delivery.lastError})`,
      };
    }),
  );

  return app;
}
