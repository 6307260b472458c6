import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { AUDIT_REASON_HEADER } from '#contract/common.ts';
import type { CreateTransactionRequest, Transaction } from '#contract/transaction.ts';
import { createTransaction } from '#contract/endpoints/transaction-writes.ts';
import { apiClient, type ApiClient } from '../../../lib/api-client.ts';
import { UncertainSendError, createOnce } from '../../../lib/create-once.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { transactionQueries } from './transaction-queries.ts';

/** A transaction's create, sent once (lib/create-once.ts): its externalId is looked up before any retry. */

export interface CreateInput {
  body: CreateTransactionRequest;
  /** Written reason for a risky choice, recorded by the console's audit log. */
  auditReason?: string | undefined;
}

function sendTransactionOnce(
  client: Pick<ApiClient, 'call'>,
  input: CreateInput,
  unsure: boolean,
): Promise<Transaction> {
  return createOnce(client, {
    externalId: input.body.externalId,
    unsure,
    send: (signal) =>
      client.call(
        createTransaction,
        { body: input.body },
        {
          signal,
          ...(input.auditReason
            ? { headers: { [AUDIT_REASON_HEADER]: encodeURIComponent(input.auditReason) } }
            : {}),
        },
      ),
  });
}

export function useCreateTransaction() {
  const queryClient = useQueryClient();
  // Survives re-renders: once an attempt went unanswered, every later one looks up first.
  const unsure = useRef(false);
  return useMutation({
    mutationFn: async (input: CreateInput) => {
      try {
        return await sendTransactionOnce(apiClient, input, unsure.current);
      } catch (error) {
        if (error instanceof UncertainSendError) unsure.current = true;
        throw error;
      }
    },
    onSuccess: (_transaction, input) => {
      void queryClient.invalidateQueries({ queryKey: transactionQueries.lists() });
      const vaultId = 'vaultId' in input.body ? input.body.vaultId : input.body.source.id;
      void queryClient.invalidateQueries({
        queryKey: referenceQueries.vaultBalances(vaultId).queryKey,
      });
    },
  });
}
