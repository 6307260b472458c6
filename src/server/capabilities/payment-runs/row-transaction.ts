import type { RampCreateRequest } from '#contract/ramps.ts';
import type { CreateTransactionRequest } from '#contract/transaction.ts';
import type { CustodyActor, CustodyContext } from '../../custody/backend.ts';

/**
 * A run's row as the custody transaction that pays it, and the mark the
 * policy guard knows the run's executor by.
 *
 * The guard (policies/guard.ts) lets a row's transaction through on the
 * run's approval, without asking for it again, only when its caller's context
 * is one `rowContext` made: an object held in a module-private WeakMap, which
 * no request can name or copy (an API client's or member's context is built
 * per request from its own credentials, custody/context.ts). It then checks
 * the database too: the run is executing, and the body is this row's as
 * approved. Any other create naming a row's externalId is refused, so nobody
 * can make a row's transaction ahead of the executor for it to adopt.
 */

export interface RunRowRef {
  runId: string;
  index: number;
}

const marked = new WeakMap<CustodyContext, RunRowRef>();

/** The context the executor creates a row's transaction in, as the run's initiator. */
export function rowContext(actor: CustodyActor, row: RunRowRef): CustodyContext {
  const ctx: CustodyContext = { actor, requestId: `payment-run:${row.runId}:${row.index}` };
  marked.set(ctx, { runId: row.runId, index: row.index });
  return ctx;
}

/** The row a context was made for by `rowContext`; undefined for every other caller. */
export function rowOfContext(ctx: CustodyContext): RunRowRef | undefined {
  return marked.get(ctx);
}

/** Whether an externalId has a row's form: reserved for the executor. */
export function isRowExternalId(externalId: string): boolean {
  return /^run-.+-row-\d+(-\d+)?$/.test(externalId);
}

interface PayableRow {
  kind: string;
  sourceVaultId: string;
  contactId: string | null;
  address: string | null;
  bankAccountId: string | null;
  asset: string;
  blockChain: string;
  amount: string;
  memo: string | null;
  externalId: string;
}

/**
 * The create body of a crypto row's transaction; null for a fiat row (an
 * off-ramp needs a quote of its own, which the executor does not take).
 */
export function rowTransactionBody(row: PayableRow): CreateTransactionRequest | null {
  if (row.kind !== 'CRYPTO') return null;
  const destination =
    row.contactId !== null
      ? { type: 'CONTACT' as const, id: row.contactId }
      : { type: 'EXTERNAL_ADDRESS' as const, id: row.address ?? '' };
  return {
    category: 'TRANSFER',
    source: { type: 'VAULT', id: row.sourceVaultId },
    destination,
    asset: row.asset,
    blockChain: row.blockChain,
    amount: row.amount,
    externalId: row.externalId,
    ...(row.memo !== null ? { memo: row.memo } : {}),
  };
}

/**
 * The create body of a fiat row's off-ramp, executing `quoteId`: the row's amount of its asset
 * leaving its vault for its bank account. The quote's request rides along (`onRampRequestData`,
 * as the Python SDK sends it), so the custody API holds the quote to the row's own amount,
 * asset, chain and parties (QUOTE_MISMATCH otherwise) and the guard can read them.
 */
export function rowRampBody(
  row: PayableRow,
  quote: { quoteId: string; currency: string; paymentMethod: string },
): RampCreateRequest | null {
  if (row.kind !== 'FIAT' || row.bankAccountId === null) return null;
  const source = { type: 'VAULT' as const, id: row.sourceVaultId };
  const destination = { type: 'BANK_ACCOUNT' as const, id: row.bankAccountId };
  return {
    category: 'OFF_RAMP',
    source,
    destination,
    quoteId: quote.quoteId,
    onRampRequestData: {
      category: 'OFF_RAMP',
      source,
      destination,
      fromAsset: row.asset,
      fromChain: row.blockChain,
      fromAmount: row.amount,
      toAsset: quote.currency,
      paymentMethod: quote.paymentMethod as 'US_ACH',
    },
    externalId: row.externalId,
    ...(row.memo !== null ? { memo: row.memo } : {}),
  };
}

/** Whether a ramp's create body is the fiat row's off-ramp: its parties, amount and externalId. */
export function isRowRampBody(row: PayableRow, body: RampCreateRequest): boolean {
  const asked = body.onRampRequestData;
  return (
    row.kind === 'FIAT' &&
    body.category === 'OFF_RAMP' &&
    body.externalId === row.externalId &&
    body.source.type === 'VAULT' &&
    body.source.id === row.sourceVaultId &&
    body.destination.type === 'BANK_ACCOUNT' &&
    body.destination.id === row.bankAccountId &&
    (body.memo ?? null) === row.memo &&
    asked?.category === 'OFF_RAMP' &&
    asked.fromAsset === row.asset &&
    asked.fromChain === row.blockChain &&
    asked.fromAmount === row.amount &&
    asked.toAmount === undefined &&
    asked.source?.id === row.sourceVaultId &&
    asked.destination?.id === row.bankAccountId
  );
}
