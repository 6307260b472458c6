import { ERROR_CODES } from '#contract/common.ts';
import { listTransactions } from '#contract/endpoints/transaction-list.ts';
import type { Transaction } from '#contract/transaction-record.ts';
import type { ApiClient } from './api-client.ts';
import { ApiError, NetworkError, isAbortError } from './api-errors.ts';

/**
 * Creating a transaction exactly once (docs/api-rules.md: "externalId is unique per
 * organization"), whichever endpoint creates it (a transaction's create, a
 * ramp's intent). Every create form carries an externalId from the moment it
 * opens. When an attempt ends without an answer — a timeout, a dropped
 * connection — the transaction may exist all the same, so before anything is
 * sent again the externalId is looked up with the list filter; a found
 * transaction is the answer. A second POST is made only when the lookup says
 * there is none.
 */

/** A create gets this long to answer before the form treats it as unknown and looks it up. */
export const CREATE_TIMEOUT_MS = 30_000;

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
export async function createOnce(
  client: Pick<ApiClient, 'call'>,
  {
    externalId,
    unsure,
    send,
    timeoutMs = CREATE_TIMEOUT_MS,
  }: {
    externalId: string | undefined;
    unsure: boolean;
    /** The create itself, aborted by `signal` once `timeoutMs` have passed. */
    send: (signal: AbortSignal) => Promise<Transaction>;
    timeoutMs?: number;
  },
): Promise<Transaction> {
  if (unsure && externalId) {
    const found = await findByExternalId(client, externalId);
    if (found) return found;
  }
  try {
    return await send(AbortSignal.timeout(timeoutMs));
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
