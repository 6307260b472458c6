import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client.ts';
import { rampQueries } from './ramp-queries.ts';

/** The payer's word that an on-ramp's or FX's money is on its way: the transaction moves on. */
export function useMarkDepositSent(transactionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // The ramps' write contract (classic zod) loads with the first use, not with the page.
    mutationFn: async () => {
      const { markDepositDone } = await import('#contract/endpoints/ramp-writes.ts');
      return apiClient.call(markDepositDone, { body: { transactionId } });
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: rampQueries.all() }),
  });
}
