import type { Page, PageRequest } from '#contract/common.ts';
import type {
  CreateWebhookEndpointRequest,
  WebhookDelivery,
  WebhookDeliveryCounts,
  WebhookDeliveryState,
  WebhookEndpoint,
  WebhookEndpointCreated,
} from '#contract/webhooks.ts';
import type { CustodyContext } from '../../custody/call-context.ts';

/**
 * The webhook endpoints the custody service sends to. Only the
 * sandbox has them: it is the custody service. Upstream, the provider's own
 * dashboard registers them, and the console's routes say so.
 */
export interface WebhookEndpointsAdmin {
  list(ctx: CustodyContext): Promise<WebhookEndpoint[]>;
  /** Checks the URL (targets.ts) and answers the key, this once. */
  create(
    ctx: CustodyContext,
    body: CreateWebhookEndpointRequest,
    createdBy: string | null,
  ): Promise<WebhookEndpointCreated>;
  setEnabled(ctx: CustodyContext, endpointId: string, enabled: boolean): Promise<WebhookEndpoint>;
  /** Deletes it with its delivery log; answers it as it was. */
  remove(ctx: CustodyContext, endpointId: string): Promise<WebhookEndpoint>;
  /** A page of the log, and the whole log's counts by state read with it. */
  deliveries(
    ctx: CustodyContext,
    endpointId: string,
    query: PageRequest & { state?: WebhookDeliveryState | undefined },
  ): Promise<Page<WebhookDelivery> & { deliveries: WebhookDeliveryCounts }>;
  /**
   * Queues one delivery again, due now, with a day of retries: a delivered
   * or failed one, or one waiting for its retry after a failed attempt.
   */
  resend(ctx: CustodyContext, endpointId: string, deliveryId: string): Promise<WebhookDelivery>;
  /** Queues every FAILED delivery of the endpoint again; answers how many. */
  resendFailed(ctx: CustodyContext, endpointId: string): Promise<number>;
  /**
   * Sends the endpoint a signed test event now, whether it is on or off, and
   * logs it as a delivery marked as a test: DELIVERED, or FAILED with its
   * error (never retried). Answers that delivery.
   */
  sendTest(ctx: CustodyContext, endpointId: string): Promise<WebhookDelivery>;
}

export interface WebhooksPort {
  readonly webhookEndpoints?: WebhookEndpointsAdmin;
}

// The backend the routes speak to holds this port: each capability adds its
// own, so custody/backend.ts composes them without importing any capability.
declare module '../../custody/backend.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into CustodyBackend
  interface CustodyBackend extends WebhooksPort {}
}
