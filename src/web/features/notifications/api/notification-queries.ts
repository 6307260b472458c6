import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  createChatTarget,
  deleteChatTarget,
  getSmtpSettings,
  listChatTargets,
  listNotificationDeliveries,
  retryNotificationDelivery,
  sendTestEmail,
  updateSmtpSettings,
} from '#contract/endpoints/notifications.ts';
import type { ChatTargetInput, SmtpSettingsInput } from '#contract/notifications.ts';
import { apiClient } from '../../../lib/api-client.ts';

/** The admin's settings and the delivery log, under one key. */
export const notificationQueries = {
  all: () => ['notifications'] as const,
  smtp: () =>
    queryOptions({
      queryKey: [...notificationQueries.all(), 'smtp'] as const,
      queryFn: ({ signal }) => apiClient.call(getSmtpSettings, {}, { signal }),
    }),
  chat: () =>
    queryOptions({
      queryKey: [...notificationQueries.all(), 'chat'] as const,
      queryFn: ({ signal }) => apiClient.call(listChatTargets, {}, { signal }),
    }),
  deliveries: () =>
    queryOptions({
      queryKey: [...notificationQueries.all(), 'deliveries'] as const,
      queryFn: ({ signal }) =>
        apiClient.call(listNotificationDeliveries, { query: {} }, { signal }),
      // The log moves on its own (the notifier sends and retries): read again while shown.
      refetchInterval: 3_000,
    }),
};

function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: notificationQueries.all() });
}

export function useSaveSmtp() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: SmtpSettingsInput) => apiClient.call(updateSmtpSettings, { body }),
    onSuccess: refresh,
  });
}

export function useSendTestEmail() {
  return useMutation({
    mutationFn: (to: string) => apiClient.call(sendTestEmail, { body: { to } }),
  });
}

export function useAddChatTarget() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: ChatTargetInput) => apiClient.call(createChatTarget, { body }),
    onSuccess: refresh,
  });
}

export function useRemoveChatTarget() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (targetId: string) => apiClient.call(deleteChatTarget, { params: { targetId } }),
    onSettled: refresh,
  });
}

export function useRetryDelivery() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      apiClient.call(retryNotificationDelivery, { params: { deliveryId } }),
    onSettled: refresh,
  });
}
