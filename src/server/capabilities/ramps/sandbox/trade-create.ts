import { and, eq, gt, isNull } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { add, cmp, isDecimalString } from '#contract/decimal.ts';
import type { SwapCreateRequest, TradeRecord } from '#contract/trades.ts';
import type { Operation, Party, Transaction } from '#contract/transaction.ts';
import type { Database } from '../../../db/client.ts';
import { tradeQuotes, vaults } from '../../../db/schema/sandbox.ts';
import type { CustodyActor } from '../../../custody/backend.ts';
import type { TransactionRow } from '../../../custody/sandbox/mappers.ts';
import { reserveHolds } from '../../../custody/sandbox/engine/balances.ts';
import {
  insertPendingTransaction,
  insertWithDuplicateCheck,
} from '../../../custody/sandbox/engine/create.ts';
import type { Hold } from '../../../custody/sandbox/engine/plan.ts';
import { Problems } from '../../../custody/sandbox/engine/problems.ts';
import { swapChanges, type SwapPlan } from './trade-lifecycle.ts';

/**
 * POST …/transactions/ with category SWAP: a PENDING transaction executing
 * one stored trade quote, made from the quote alone. The quote must be the
 * caller's, unexpired and unused; the request data and the answer handed
 * back must be the quote's, field by field (a changed promise or fee is
 * refused, naming it); the vault must be the quoted one. From here until it
 * ends the vault holds the amount and the fee of the source asset; the quote
 * is used in the database transaction that inserts the swap, so two creates
 * of one quote cannot both win.
 */

export interface ExecuteTradeInput {
  orgId: string;
  actor: CustodyActor | undefined;
  /** A member's sub-organizations (null: all); absent for API clients. */
  scopeSubOrgIds?: string[] | null | undefined;
  now: Date;
  body: SwapCreateRequest;
}

function refuse(code: string, field: string, message: string): ApiError {
  return new ApiError(400, code, `${field}: ${message}`, [{ field, message }]);
}

const QUOTE_FIELD = 'tradeResponseData.quoteId';

/** The quote, checked as the create checks it, and the row the create would insert; nothing written. */
async function planTrade(db: Database, input: ExecuteTradeInput) {
  const { body } = input;
  const quoteId = body.tradeResponseData.quoteId;
  const [stored] = await db
    .select()
    .from(tradeQuotes)
    .where(and(eq(tradeQuotes.orgId, input.orgId), eq(tradeQuotes.id, quoteId)))
    .limit(1);
  if (!stored)
    throw refuse(
      ERROR_CODES.quoteNotFound,
      QUOTE_FIELD,
      `no trade quote "${quoteId}" here (GET …/transactions/trade_quote/ answers them)`,
    );
  const staleness = unusable(stored, input.now);
  if (staleness) throw staleness;
  if (input.scopeSubOrgIds && !input.scopeSubOrgIds.includes(stored.subOrgId ?? ''))
    throw refuse(
      ERROR_CODES.quoteOutOfScope,
      QUOTE_FIELD,
      `quote "${quoteId}" was priced for a vault outside the sub-organizations you act in`,
    );
  const trade = stored.trade;
  checkMatches(stored.vaultId, trade, body);

  const [vault] = await db
    .select({ vaultName: vaults.vaultName })
    .from(vaults)
    .where(eq(vaults.id, stored.vaultId))
    .limit(1);
  const party = (chain: string): Party => ({
    type: 'VAULT',
    id: stored.vaultId,
    ...(vault ? { name: vault.vaultName } : {}),
    chain,
  });
  const source = party(trade.fromChain);
  const destination = party(trade.toChain);
  const debit = add(trade.fromAmount, trade.fee);
  const holds: Hold[] = [
    { vaultId: stored.vaultId, asset: trade.fromAsset, chain: trade.fromChain, amount: debit },
  ];
  const plan: SwapPlan = {
    legs: [],
    feePayer: source,
    holds,
    swap: { provider: trade.provider, completionSeconds: trade.completionSeconds },
  };
  const operation: Operation = {
    sequence: 1,
    type: 'TRADE',
    status: 'PENDING',
    provider: trade.provider,
    source,
    destination,
    balanceChanges: { changes: swapChanges(source, destination, trade) },
  };
  const values = {
    subOrgId: stored.subOrgId,
    vaultId: stored.vaultId,
    category: 'SWAP' as const,
    subCategory: 'MARKET_TRADE' as const,
    blockChain: trade.fromChain,
    asset: trade.fromAsset,
    amount: trade.fromAmount,
    // Valued as the quote valued what is sold: what approval policies judge (policies/guard.ts).
    amountInUsd: trade.request.fromAmountUSD ?? null,
    externalId: body.externalId ?? null,
    memo: body.memo ?? null,
    source,
    destination,
    fees: {
      amount: trade.fee,
      asset: trade.fromAsset,
      ...(trade.response.feeInUSD ? { amountInFiat: trade.response.feeInUSD } : {}),
    },
    operations: [operation],
    trade,
    simulation: { ...plan },
  };
  return { quoteId, holds, values };
}

/**
 * The swap `executeTrade` would make from this body, checked as it checks it
 * and not made (nothing held, the quote not used): the transaction the
 * initiator's review card and approval rule are computed from.
 */
export async function previewTrade(db: Database, input: ExecuteTradeInput): Promise<Transaction> {
  const { values } = await planTrade(db, input);
  const { trade } = values;
  return {
    ...(values.subOrgId ? { subOrgId: values.subOrgId } : {}),
    vaultId: values.vaultId,
    status: 'PENDING',
    transactionType: 'OUTGOING',
    category: values.category,
    subCategory: values.subCategory,
    blockChain: values.blockChain,
    asset: values.asset,
    amount: values.amount,
    ...(values.amountInUsd ? { amountInUSD: values.amountInUsd } : {}),
    source: values.source,
    destination: values.destination,
    fees: values.fees,
    toAsset: trade.toAsset,
    toBlockChain: trade.toChain,
    finalToAmount: trade.finalToAmount,
    tradeRequestData: trade.request,
    tradeResponseData: trade.response,
  };
}

export async function executeTrade(
  db: Database,
  input: ExecuteTradeInput,
): Promise<TransactionRow> {
  const { quoteId, holds, values } = await planTrade(db, input);
  return insertWithDuplicateCheck(db, input.orgId, input.body.externalId, async (tx) => {
    const shortfall = await reserveHolds(tx, holds, input.now);
    if (shortfall)
      throw refuse(
        ERROR_CODES.insufficientBalance,
        QUOTE_FIELD,
        `the vault can spend ${shortfall.available} ${shortfall.hold.asset} on ${shortfall.hold.chain}; this trade needs ${shortfall.hold.amount} with its fee; nothing was held`,
      );
    const row = await insertPendingTransaction(tx, {
      orgId: input.orgId,
      actor: input.actor,
      now: input.now,
      values,
    });
    const claimed = await tx
      .update(tradeQuotes)
      .set({ usedByTransactionId: row.id })
      .where(
        and(
          eq(tradeQuotes.id, quoteId),
          isNull(tradeQuotes.usedByTransactionId),
          gt(tradeQuotes.expiresAt, input.now),
        ),
      )
      .returning({ id: tradeQuotes.id });
    if (claimed.length === 0) {
      // Another create won the race (or the quote expired meanwhile): this one makes nothing.
      const [now] = await tx.select().from(tradeQuotes).where(eq(tradeQuotes.id, quoteId));
      throw (
        (now && unusable(now, input.now)) ??
        refuse(ERROR_CODES.quoteAlreadyUsed, QUOTE_FIELD, 'was used')
      );
    }
    return row;
  });
}

function unusable(
  quote: { id: string; expiresAt: Date; usedByTransactionId: string | null },
  now: Date,
): ApiError | null {
  if (quote.usedByTransactionId)
    return refuse(
      ERROR_CODES.quoteAlreadyUsed,
      QUOTE_FIELD,
      `quote "${quote.id}" was already used by transaction ${quote.usedByTransactionId}; ask for a new quote`,
    );
  if (now.getTime() >= quote.expiresAt.getTime())
    return refuse(
      ERROR_CODES.quoteExpired,
      QUOTE_FIELD,
      `quote "${quote.id}" expired at ${quote.expiresAt.toISOString()}; ask for a new quote`,
    );
  return null;
}

/** Equal as the client would read them: decimals by value, anything else as written. */
function same(said: unknown, quoted: unknown): boolean {
  if (typeof said === 'string' && typeof quoted === 'string')
    return isDecimalString(said) && isDecimalString(quoted)
      ? cmp(said, quoted) === 0
      : said === quoted;
  if (typeof said === 'number' || typeof quoted === 'number')
    return String(said) === String(quoted);
  return JSON.stringify(said) === JSON.stringify(quoted);
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every field handed back must be the quote's: the vault, the chain, the request, the answer. */
function checkMatches(vaultId: string, trade: TradeRecord, body: SwapCreateRequest): void {
  const problems = new Problems();
  const mismatch = (field: string, said: unknown, quoted: unknown) =>
    problems.add(
      field,
      ERROR_CODES.quoteMismatch,
      `is ${JSON.stringify(said)}, the quote's is ${quoted === undefined ? 'not given' : JSON.stringify(quoted)}`,
    );
  if (body.vaultId !== vaultId) mismatch('vaultId', body.vaultId, vaultId);
  if (body.blockChain !== undefined && body.blockChain !== trade.fromChain)
    mismatch('blockChain', body.blockChain, trade.fromChain);
  const compare = (prefix: string, said: object, quoted: object) => {
    const saidFields = said as Record<string, unknown>;
    const quotedFields = quoted as Record<string, unknown>;
    for (const [key, value] of Object.entries(saidFields)) {
      if (value === undefined) continue;
      const expected = quotedFields[key];
      // Nested answers (fees, the provider's own dict) field by field: stored JSON keeps no key order.
      if (isRecord(value) && isRecord(expected)) {
        compare(`${prefix}${key}.`, value, expected);
        continue;
      }
      if (!same(value, expected)) mismatch(`${prefix}${key}`, value, expected);
    }
  };
  compare('tradeRequestData.', body.tradeRequestData, trade.request);
  compare('tradeResponseData.', body.tradeResponseData, trade.response);
  problems.throwIfAny();
}
