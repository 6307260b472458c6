import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { createTransactionFromIntent } from '#contract/endpoints/ramp-writes.ts';
import type { IntentCreateRequest } from '#contract/ramps.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { UncertainSendError, createOnce } from '../../../lib/create-once.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { rampQueries } from './ramp-queries.ts';

/**
 * Executing a quote, exactly once: the intent goes with the quote's id and
 * the form's externalId through the same lookup-before-retry as every create
 * (lib/create-once.ts).
 */
export function useCreateRamp() {
  const queryClient = useQueryClient();
  // Survives re-renders: once an attempt went unanswered, every later one looks up first.
  const unsure = useRef(false);
  return useMutation({
    mutationFn: async (body: IntentCreateRequest) => {
      try {
        return await createOnce(apiClient, {
          externalId: body.externalId,
          unsure: unsure.current,
          send: (signal) => apiClient.call(createTransactionFromIntent, { body }, { signal }),
        });
      } catch (error) {
        if (error instanceof UncertainSendError) unsure.current = true;
        throw error;
      }
    },
    onSuccess: (_transaction, body) => {
      void queryClient.invalidateQueries({ queryKey: rampQueries.all() });
      // An off-ramp holds its amount from now on: the vault's balance moved.
      const source = body.intent?.source;
      if (source?.type === 'VAULT' && source.id)
        void queryClient.invalidateQueries({
          queryKey: referenceQueries.vaultBalances(source.id).queryKey,
        });
    },
  });
}
