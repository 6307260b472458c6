import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { AUDIT_REASON_HEADER, ERROR_CODES } from '../../../../contract/common.ts';
import type { CreateTransactionRequest, Transaction } from '../../../../contract/transaction.ts';
import { createTransaction } from '../../../../contract/endpoints/transaction-writes.ts';
import { listTransactions } from '../../../../contract/endpoints/transactions.ts';
import { apiClient, type ApiClient } from '../../../lib/api-client.ts';
import { ApiError, NetworkError, isAbortError } from '../../../lib/api-errors.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { transactionQueries } from './transaction-queries.ts';

/**
 * Creating a transaction exactly once (README: "externalId is unique per
 * organization"). Every form carries an externalId from the moment it opens.
 * When an attempt ends without an answer — a timeout, a dropped connection —
 * the transaction may exist all the same, so before anything is sent again
 * the externalId is looked up with the list filter; a found transaction is
 * the answer. A second POST is made only when the lookup says there is none.
 */

/** A create gets this long to answer before the form treats it as unknown and looks it up. */
export const CREATE_TIMEOUT_MS = 30_000;

export interface CreateInput {
  body: CreateTransactionRequest;
  /** Written reason for a risky choice, recorded by the console's audit log. */
  auditReason?: string | undefined;
}

/** The attempt got no answer: the server may or may not have created it. */
export function isUncertain(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  if (isAbortError(error) || (error instanceof Error && error.name === 'TimeoutError')) return true;
  return error instanceof ApiError && [408, 502, 503, 504].includes(error.status);
}

export async function findByExternalId(
  client: Pick<ApiClient, 'call'>,
  externalId: string,
): Promise<Transaction | undefined> {
  const page = await client.call(listTransactions, { query: { externalId, limit: 1 } });
  return page.results.find((t) => t.externalId === externalId && t.id);
}

/**
 * One send. `unsure` says an earlier attempt with this externalId got no
 * answer: then the lookup comes first. A refusal naming the externalId as a
 * duplicate after such an attempt is that attempt's transaction.
 */
export async function sendTransactionOnce(
  client: Pick<ApiClient, 'call'>,
  input: CreateInput,
  unsure: boolean,
  timeoutMs = CREATE_TIMEOUT_MS,
): Promise<Transaction> {
  const externalId = input.body.externalId;
  if (unsure && externalId) {
    const found = await findByExternalId(client, externalId);
    if (found) return found;
  }
  try {
    return await client.call(
      createTransaction,
      { body: input.body },
      {
        signal: AbortSignal.timeout(timeoutMs),
        ...(input.auditReason
          ? { headers: { [AUDIT_REASON_HEADER]: encodeURIComponent(input.auditReason) } }
          : {}),
      },
    );
  } catch (error) {
    if (
      externalId &&
      unsure &&
      error instanceof ApiError &&
      error.code === ERROR_CODES.duplicateExternalId
    ) {
      const found = await findByExternalId(client, externalId);
      if (found) return found;
    }
    if (externalId && isUncertain(error)) {
      // The answer was lost, not necessarily the transaction: ask before anyone retries.
      const found = await findByExternalId(client, externalId).catch(() => undefined);
      if (found) return found;
      throw new UncertainSendError(error);
    }
    throw error;
  }
}

/** No answer, and the lookup could not confirm either way: the next send looks up first. */
export class UncertainSendError extends Error {
  override readonly name = 'UncertainSendError';
  constructor(cause: unknown) {
    super(
      'The console could not confirm whether the transaction was created: the connection dropped or timed out. Sending again checks first and never creates a second one.',
      { cause },
    );
  }
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
