import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { add, cmp, div, mul, neg, round, sub } from '#contract/decimal.ts';
import type { RampQuote, RampRequote } from '#contract/ramp-record.ts';
import type { Operation } from '#contract/transaction.ts';
import type { Database } from '../../../db/client.ts';
import { rampQuotes, transactions } from '../../../db/schema/sandbox.ts';
import type { TransactionRow } from '../../../custody/sandbox/mappers.ts';
import {
  CRYPTO_USD,
  FIAT_USD,
  price,
  PROVIDERS,
  QUOTE_LIFETIME_MS,
  referenceRate,
} from './ramp-pricing.ts';
import { readRampPlan, type AcceptedQuote, type RampPlan } from './ramp-plan.ts';
import type { Executor } from '../../../custody/sandbox/engine/transitions.ts';

/**
 * A ramp whose quote expired is priced again before it can execute: at a
 * decision (before the decision counts) and as the lifecycle starts it after
 * the final approval. What leaves stays what was approved (its
 * `finalFromAmount`, so holds and deposit instructions stand); what arrives
 * moves with the rate. The new rate is judged against the quote a person
 * last accepted: within the tolerance it is taken silently (recorded in
 * `requotes`); beyond it an approver must see and accept the new quote by
 * naming it, and after the final approval it is not executed at all.
 */

/** The console's default tolerance, in percent, when none is configured (RAMP_RATE_TOLERANCE_PERCENT). */
export const DEFAULT_RATE_TOLERANCE_PERCENT = '0.5';

/** How far `next` moved from `previous`, as a fraction of `previous` (never negative). */
export function rateMove(previous: string, next: string): string {
  if (cmp(previous, '0') === 0) return cmp(next, '0') === 0 ? '0' : '1';
  const difference = sub(next, previous);
  // Canonical ("0.005", not "0.0050000000"), as every decimal the sandbox answers.
  return add(div(cmp(difference, '0') < 0 ? neg(difference) : difference, previous, 10), '0');
}

/** Did the rate move by more than `tolerancePercent` percent? Exactly the tolerance is within it. */
export function beyondTolerance(previous: string, next: string, tolerancePercent: string): boolean {
  return cmp(rateMove(previous, next), div(tolerancePercent, '100', 10)) > 0;
}

/** The quote a person last accepted: the plan's, or the initiator's own until a re-quote. */
export function acceptedQuoteOf(plan: RampPlan, quote: RampQuote): AcceptedQuote {
  return (
    plan.ramp.accepted ?? {
      quoteId: quote.quoteId,
      rate: quote.rate ?? '0',
      finalToAmount: quote.finalToAmount,
    }
  );
}

export interface Requoted {
  row: TransactionRow;
  requote: RampRequote;
}

/**
 * Prices the ramp's quote again if it has expired at `now`, inside the
 * database transaction that locked its row, and records it; null when the
 * quote still holds (or the row is not a ramp the sandbox priced).
 */
export async function requoteIfExpired(
  tx: Executor,
  row: TransactionRow,
  now: Date,
  when: RampRequote['when'],
): Promise<Requoted | null> {
  const plan = readRampPlan(row.simulation);
  const quote = row.quoteResponse;
  if (!plan || !quote?.expiresAt || Date.parse(quote.expiresAt) > now.getTime()) return null;
  const provider = PROVIDERS.find((p) => p.name === quote.sourceName);
  const { fromAsset, toAsset, finalFromAmount } = quote;
  if (!provider || !fromAsset || !toAsset || !finalFromAmount) return null;
  const reference = referenceRate(fromAsset, toAsset, now);
  const priced = price(
    provider,
    { fromAsset, toAsset, reference },
    { fromAmount: finalFromAmount },
  );
  if (!priced) return null;

  const accepted = acceptedQuoteOf(plan, quote);
  const tolerancePercent = plan.ramp.rateTolerancePercent ?? DEFAULT_RATE_TOLERANCE_PERCENT;
  const fromUsd = FIAT_USD[fromAsset] ?? CRYPTO_USD[fromAsset] ?? '0';
  const next: RampQuote = {
    ...quote,
    quoteId: randomUUID(),
    rate: priced.rate,
    fees: {
      ...quote.fees,
      amount: priced.fee,
      asset: fromAsset,
      amountInFiat: round(mul(priced.fee, fromUsd), 2),
    },
    finalToAmount: priced.finalToAmount,
    expiresAt: new Date(now.getTime() + QUOTE_LIFETIME_MS).toISOString(),
    ...(quote.output ? { output: { ...quote.output, amount: priced.finalToAmount } } : {}),
  };
  const requote: RampRequote = {
    at: now.toISOString(),
    when,
    previousQuoteId: quote.quoteId,
    quoteId: next.quoteId,
    previousRate: quote.rate ?? '0',
    rate: priced.rate,
    ...(quote.finalToAmount ? { previousFinalToAmount: quote.finalToAmount } : {}),
    finalToAmount: priced.finalToAmount,
    toAsset,
    acceptedRate: accepted.rate,
    tolerancePercent,
    beyondTolerance: beyondTolerance(accepted.rate, priced.rate, tolerancePercent),
  };

  // The new quote is stored as every quote is, already used by this ramp: never executed again.
  const [original] = await tx
    .select()
    .from(rampQuotes)
    .where(eq(rampQuotes.id, quote.quoteId))
    .limit(1);
  if (original)
    await tx.insert(rampQuotes).values({
      id: next.quoteId,
      orgId: original.orgId,
      subOrgId: original.subOrgId,
      kind: original.kind,
      route: original.route,
      quote: next,
      expiresAt: new Date(next.expiresAt ?? now.toISOString()),
      usedByTransactionId: row.id,
      createdAt: now,
    });

  const offRamp = plan.ramp.kind === 'OFF_RAMP';
  const toUsd = FIAT_USD[toAsset] ?? CRYPTO_USD[toAsset] ?? '0';
  const simulation: RampPlan = {
    ...plan,
    ramp: { ...plan.ramp, accepted, requotes: [...(plan.ramp.requotes ?? []), requote] },
  };
  const [updated] = await tx
    .update(transactions)
    .set({
      quoteResponse: next,
      fees: next.fees ?? null,
      // An off-ramp's amount is what leaves, which stays; otherwise it is what arrives.
      ...(offRamp ? {} : { amount: priced.finalToAmount }),
      amountInUsd: round(mul(priced.finalToAmount, toUsd), 2),
      operations: arriving(row.operations, priced.finalToAmount),
      simulation: { ...simulation },
      updatedAt: now,
    })
    .where(and(eq(transactions.id, row.id), eq(transactions.status, row.status)))
    .returning();
  if (!updated) throw new Error('requoteIfExpired: the locked row changed');
  return { row: updated, requote };
}

/** The last step's credit (what arrives) at the new amount; the other steps stand. */
function arriving(operations: Operation[] | null, finalTo: string): Operation[] | null {
  if (!operations) return operations;
  const last = Math.max(...operations.map((op) => op.sequence ?? 0));
  return operations.map((op) =>
    op.sequence === last && op.balanceChanges
      ? {
          ...op,
          balanceChanges: {
            ...op.balanceChanges,
            changes: (op.balanceChanges.changes ?? []).map((c) => ({
              ...c,
              amount: add(finalTo, '0'),
            })),
          },
        }
      : op,
  );
}

/** Where a ramp's quote stands for an approval: the current one, and the one a person accepted. */
export interface RampQuoteStanding {
  quoteId: string;
  accepted: AcceptedQuote;
  /** The current quote's rate is beyond the tolerance of the accepted one's. */
  needsAcceptance: boolean;
  rate: string;
  tolerancePercent: string;
}

function standingOf(row: TransactionRow): RampQuoteStanding | null {
  const plan = readRampPlan(row.simulation);
  const quote = row.quoteResponse;
  if (!plan || !quote) return null;
  const accepted = acceptedQuoteOf(plan, quote);
  const tolerancePercent = plan.ramp.rateTolerancePercent ?? DEFAULT_RATE_TOLERANCE_PERCENT;
  const rate = quote.rate ?? '0';
  return {
    quoteId: quote.quoteId,
    accepted,
    needsAcceptance:
      accepted.quoteId !== quote.quoteId && beyondTolerance(accepted.rate, rate, tolerancePercent),
    rate,
    tolerancePercent,
  };
}

/**
 * Whether an approval naming `named` (or none: the accepted quote) may count
 * on the ramp's quote as it stands: it names the current quote, or the
 * accepted one while the current rate is within the tolerance of it. Otherwise
 * a 409 naming the current quote, so the approver reads it before deciding.
 */
export function quoteBindingRefusal(
  standing: RampQuoteStanding,
  named: string | undefined,
): ApiError | null {
  const quoteId = named ?? standing.accepted.quoteId;
  if (quoteId === standing.quoteId) return null;
  if (quoteId === standing.accepted.quoteId && !standing.needsAcceptance) return null;
  const moved = `rate ${standing.accepted.rate} → ${standing.rate}, beyond the ${standing.tolerancePercent}% tolerance`;
  const message =
    quoteId === standing.accepted.quoteId
      ? `The quote was priced again (${moved}): quote "${standing.quoteId}" must be seen and accepted by naming it in the approval`
      : `quote "${quoteId}" is not this ramp's current quote; the current one is "${standing.quoteId}" (rate ${standing.rate}): read it and approve again`;
  return new ApiError(409, ERROR_CODES.quoteChanged, message, [
    { field: 'quoteId', message: `the current quote is "${standing.quoteId}"` },
  ]);
}

/**
 * At an approval of a PENDING ramp: prices its quote again if it expired
 * (kept, whatever the decision), then holds the decision to the quote it
 * names (`quoteBindingRefusal`). Null for anything that is not a PENDING ramp
 * the sandbox priced. The caller has checked the member's scope.
 */
export async function bindRampApproval(
  db: Database,
  input: { orgId: string; transactionId: string; quoteId: string | undefined; now: Date },
): Promise<{ refusal: ApiError | null; requote: RampRequote | null } | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(transactions)
      .where(and(eq(transactions.orgId, input.orgId), eq(transactions.id, input.transactionId)))
      .for('update');
    if (!row || row.status !== 'PENDING' || !readRampPlan(row.simulation)) return null;
    const requoted = await requoteIfExpired(tx, row, input.now, 'APPROVAL');
    const standing = standingOf(requoted?.row ?? row);
    if (!standing) return null;
    return {
      refusal: quoteBindingRefusal(standing, input.quoteId),
      requote: requoted?.requote ?? null,
    };
  });
}

/**
 * After an approval that named the ramp's current quote counted: that quote
 * is the one a person accepted, and later re-quotes are judged against it.
 * Nothing when it is no longer the current quote.
 */
export async function acceptRampQuote(
  db: Database,
  input: { orgId: string; transactionId: string; quoteId: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(transactions)
      .where(and(eq(transactions.orgId, input.orgId), eq(transactions.id, input.transactionId)))
      .for('update');
    const plan = row ? readRampPlan(row.simulation) : null;
    const quote = row?.quoteResponse;
    if (!row || !plan || quote?.quoteId !== input.quoteId) return;
    if (acceptedQuoteOf(plan, quote).quoteId === input.quoteId) return;
    const accepted: AcceptedQuote = {
      quoteId: quote.quoteId,
      rate: quote.rate ?? '0',
      finalToAmount: quote.finalToAmount,
    };
    await tx
      .update(transactions)
      .set({ simulation: { ...plan, ramp: { ...plan.ramp, accepted } } })
      .where(eq(transactions.id, row.id));
  });
}

/**
 * Sandbox only: the PENDING ramp's quote expires at `at`, or keeps its own
 * expiry when that comes first (a quote is never lengthened), so what an
 * approval does with an expired quote can be tried without waiting out its
 * minute. Its stored quote row expires with it. Null when the transaction
 * is not a PENDING ramp the sandbox priced.
 */
export async function expireRampQuote(
  db: Database,
  input: { orgId: string; transactionId: string; at: Date },
): Promise<TransactionRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(transactions)
      .where(and(eq(transactions.orgId, input.orgId), eq(transactions.id, input.transactionId)))
      .for('update');
    const quote = row?.quoteResponse;
    if (!row || row.status !== 'PENDING' || !readRampPlan(row.simulation) || !quote?.expiresAt)
      return null;
    const expiresAt = new Date(Math.min(Date.parse(quote.expiresAt), input.at.getTime()));
    const [updated] = await tx
      .update(transactions)
      .set({ quoteResponse: { ...quote, expiresAt: expiresAt.toISOString() } })
      .where(eq(transactions.id, row.id))
      .returning();
    await tx.update(rampQuotes).set({ expiresAt }).where(eq(rampQuotes.id, quote.quoteId));
    return updated ?? null;
  });
}
