import { useMutation, useQueryClient } from '@tanstack/react-query';
import { markDepositDone } from '#contract/endpoints/ramp-writes.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { rampQueries } from './ramp-queries.ts';

/** The payer's word that an on-ramp's or FX's money is on its way: the transaction moves on. */
export function useMarkDepositSent(transactionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiClient.call(markDepositDone, { body: { transactionId } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: rampQueries.all() }),
  });
}
