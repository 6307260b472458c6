import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
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
import type { CreateWebhookEndpointRequest } from '#contract/webhooks.ts';
import { apiClient } from '../../../lib/api-client.ts';

/** The endpoints under one key, each endpoint's delivery log under its own. */
export const webhookQueries = {
  all: () => ['webhooks'] as const,
  endpoints: () =>
    queryOptions({
      queryKey: [...webhookQueries.all(), 'endpoints'] as const,
      queryFn: ({ signal }) => apiClient.call(listWebhookEndpoints, {}, { signal }),
    }),
  deliveries: (endpointId: string) =>
    queryOptions({
      queryKey: [...webhookQueries.all(), 'deliveries', endpointId] as const,
      queryFn: ({ signal }) =>
        apiClient.call(
          listWebhookDeliveries,
          { params: { endpointId }, query: { limit: 50 } },
          { signal },
        ),
      // A log that moves on its own (the dispatcher): read again while shown. Its answer
      // carries the log's counts, read with the rows: the counters shown above it come from here.
      refetchInterval: 3_000,
    }),
};

/** Every change reads the endpoints and logs again: counts and states move together. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: webhookQueries.all() });
}

export function useCreateWebhookEndpoint() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: CreateWebhookEndpointRequest) =>
      apiClient.call(createWebhookEndpoint, { body }),
    onSuccess: refresh,
  });
}

export function useSetWebhookEndpointEnabled() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ endpointId, enabled }: { endpointId: string; enabled: boolean }) =>
      apiClient.call(updateWebhookEndpoint, { params: { endpointId }, body: { enabled } }),
    onSettled: refresh,
  });
}

export function useDeleteWebhookEndpoint() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (endpointId: string) =>
      apiClient.call(deleteWebhookEndpoint, { params: { endpointId } }),
    onSettled: refresh,
  });
}

export function useResendWebhookDelivery() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ endpointId, deliveryId }: { endpointId: string; deliveryId: string }) =>
      apiClient.call(resendWebhookDelivery, { params: { endpointId, deliveryId } }),
    onSettled: refresh,
  });
}

export function useResendFailedWebhookDeliveries() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (endpointId: string) =>
      apiClient.call(resendFailedWebhookDeliveries, { params: { endpointId } }),
    onSettled: refresh,
  });
}

/** Sends a test event now; the log and the counts are read again, the test among them. */
export function useSendWebhookTestEvent() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (endpointId: string) =>
      apiClient.call(sendWebhookTestEvent, { params: { endpointId } }),
    onSettled: refresh,
  });
}
