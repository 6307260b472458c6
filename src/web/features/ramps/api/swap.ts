import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { previewApprovalCard } from '#contract/endpoints/approval-card-preview.ts';
import { quoteTrade } from '#contract/endpoints/ramp-writes.ts';
import { createTransaction } from '#contract/endpoints/transaction-writes.ts';
import type { SwapCreateRequest, TradeQuoteQuery } from '#contract/trades.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { UncertainSendError, createOnce } from '../../../lib/create-once.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { bestTradesFirst } from '../swap.ts';

/**
 * Every provider's price for a swap, best first. A mutation, as a ramp's
 * quote is: a moment's price the member asks for, and asks again for.
 */
export function useQuoteTrade() {
  return useMutation({
    mutationFn: async (query: TradeQuoteQuery) => {
      const answer = await apiClient.call(quoteTrade, { query });
      return {
        query,
        answer: { ...answer, tradeResponseDataList: bestTradesFirst(answer.tradeResponseDataList) },
      };
    },
  });
}

/**
 * The approval card the chosen quote's swap would have (POST
 * /api/console/approval_cards/preview/): computed by the server from the very
 * body Send would send, as it will be for the created swap.
 */
export function useSwapCardPreview(body: SwapCreateRequest) {
  return useQuery(
    queryOptions({
      queryKey: ['approval-card-preview', body] as const,
      queryFn: ({ signal }) => apiClient.call(previewApprovalCard, { body }, { signal }),
      // Prices, balances and the rule may change: asked afresh at each review.
      staleTime: 0,
      retry: false,
    }),
  );
}

/** Executing a quote exactly once: the same lookup-before-retry as every create (lib/create-once.ts). */
export function useCreateSwap() {
  const queryClient = useQueryClient();
  // Survives re-renders: once an attempt went unanswered, every later one looks up first.
  const unsure = useRef(false);
  return useMutation({
    mutationFn: async (body: SwapCreateRequest) => {
      try {
        return await createOnce(apiClient, {
          externalId: body.externalId,
          unsure: unsure.current,
          send: (signal) => apiClient.call(createTransaction, { body }, { signal }),
        });
      } catch (error) {
        if (error instanceof UncertainSendError) unsure.current = true;
        throw error;
      }
    },
    // The vault holds the amount and fee from now on: its balance moved.
    onSuccess: (_transaction, body) =>
      void queryClient.invalidateQueries({
        queryKey: referenceQueries.vaultBalances(body.vaultId).queryKey,
      }),
  });
}
