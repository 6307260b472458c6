import { endpoint } from '../endpoint.ts';
import {
  CreateWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
  WebhookDelivery,
  WebhookDeliveryFilters,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookEndpointList,
  WebhookEvent,
  WebhookReceipt,
  WebhookResendResult,
} from '../webhooks.ts';

/**
 * Webhooks (server/capabilities/webhooks/). The sandbox's outgoing endpoints
 * are an organization's: only an admin of every sub-organization registers,
 * reads or resends them (a restricted admin would otherwise receive every
 * sub-organization's events). The console's receiver needs no session: it
 * checks the signature instead.
 */

export const listWebhookEndpoints = endpoint({
  method: 'GET',
  path: '/api/console/webhooks/',
  summary: 'The webhook endpoints the sandbox sends to, with their deliveries by state.',
  action: 'manage webhooks',
  permission: 'admin',
  audit: false,
  answer: WebhookEndpointList,
});

export const createWebhookEndpoint = endpoint({
  method: 'POST',
  path: '/api/console/webhooks/',
  summary:
    'Registers an endpoint; the answer holds its verification key, shown this once and never again.',
  action: 'manage webhooks',
  permission: 'admin',
  audit: { action: 'webhook.create', entityType: 'WEBHOOK_ENDPOINT', selfRecorded: true },
  body: CreateWebhookEndpointRequest,
  answer: WebhookEndpointCreated,
  status: 201,
});

export const updateWebhookEndpoint = endpoint({
  method: 'PATCH',
  path: '/api/console/webhooks/:endpointId/',
  summary: 'Turns an endpoint on or off (off: its events are no longer queued for it).',
  action: 'manage webhooks',
  permission: 'admin',
  audit: {
    action: 'webhook.update',
    entityType: 'WEBHOOK_ENDPOINT',
    entityParam: 'endpointId',
    selfRecorded: true,
  },
  resource: 'webhook endpoint',
  body: UpdateWebhookEndpointRequest,
  answer: WebhookEndpoint,
});

export const deleteWebhookEndpoint = endpoint({
  method: 'DELETE',
  path: '/api/console/webhooks/:endpointId/',
  summary: 'Deletes an endpoint and its delivery log.',
  action: 'manage webhooks',
  permission: 'admin',
  audit: {
    action: 'webhook.delete',
    entityType: 'WEBHOOK_ENDPOINT',
    entityParam: 'endpointId',
    selfRecorded: true,
  },
  resource: 'webhook endpoint',
  answer: WebhookEndpoint,
});

export const listWebhookDeliveries = endpoint({
  method: 'GET',
  path: '/api/console/webhooks/:endpointId/deliveries/',
  summary: "An endpoint's delivery log, newest first: status code, latency, attempts, last error.",
  action: 'manage webhooks',
  permission: 'admin',
  audit: false,
  resource: 'webhook endpoint',
  query: WebhookDeliveryFilters,
  paged: true,
  answer: WebhookDeliveryList,
});

export const resendWebhookDelivery = endpoint({
  method: 'POST',
  path: '/api/console/webhooks/:endpointId/deliveries/:deliveryId/resend/',
  summary: 'Sends one event to the endpoint again (same eventId and body), with a day of retries.',
  action: 'manage webhooks',
  permission: 'admin',
  audit: {
    action: 'webhook.resend',
    entityType: 'WEBHOOK_ENDPOINT',
    entityParam: 'endpointId',
    selfRecorded: true,
  },
  resource: 'webhook delivery',
  answer: WebhookDelivery,
});

export const resendFailedWebhookDeliveries = endpoint({
  method: 'POST',
  path: '/api/console/webhooks/:endpointId/resend-failed/',
  summary: 'Sends every failed delivery of the endpoint again, oldest first.',
  action: 'manage webhooks',
  permission: 'admin',
  audit: {
    action: 'webhook.resend_failed',
    entityType: 'WEBHOOK_ENDPOINT',
    entityParam: 'endpointId',
    selfRecorded: true,
  },
  resource: 'webhook endpoint',
  answer: WebhookResendResult,
});

export const sendWebhookTestEvent = endpoint({
  method: 'POST',
  path: '/api/console/webhooks/:endpointId/test-event/',
  summary:
    'Sends the endpoint a signed test event now (event WEBHOOK_TEST, no transaction) and answers its delivery: status code and latency, or the error. Logged as a test; never retried.',
  action: 'manage webhooks',
  permission: 'admin',
  audit: {
    action: 'webhook.test',
    entityType: 'WEBHOOK_ENDPOINT',
    entityParam: 'endpointId',
    selfRecorded: true,
  },
  resource: 'webhook endpoint',
  answer: WebhookDelivery,
});

/**
 * The console's receiver: the custody service's webhooks (upstream mode's
 * way of learning of changes). No session: the `X-Signature` over the body
 * and `X-Timestamp` (within 5 minutes), keyed with CUSTODY_WEBHOOK_KEY, is
 * the check; an eventId already received is refused. Answered before the
 * event is processed.
 */
export const receiveCustodyWebhook = endpoint({
  method: 'POST',
  path: '/api/webhooks/custody/',
  summary:
    'Receives a signed custody webhook (X-Signature, X-Timestamp); answered before processing.',
  action: 'deliver custody webhooks',
  permission: 'public',
  audit: false,
  body: WebhookEvent,
  answer: WebhookReceipt,
});
