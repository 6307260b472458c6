import { and, eq, gt, isNull } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { cmp, isDecimalString, mul, neg, round } from '#contract/decimal.ts';
import type { TransactionCategory, TransactionSubCategory } from '#contract/enums.ts';
import type { DepositInstructions, RampIntent, RampQuote } from '#contract/ramp-record.ts';
import type { Operation, Party, Transaction } from '#contract/transaction.ts';
import type { Database } from '../../../db/client.ts';
import { rampQuotes, vaults } from '../../../db/schema/sandbox.ts';
import type { CustodyActor } from '../../../custody/backend.ts';
import type { TransactionRow } from '../../../custody/sandbox/mappers.ts';
import { reserveHolds } from '../../../custody/sandbox/engine/balances.ts';
import {
  insertPendingTransaction,
  insertWithDuplicateCheck,
} from '../../../custody/sandbox/engine/create.ts';
import type { Hold } from '../../../custody/sandbox/engine/plan.ts';
import { Problems } from '../../../custody/sandbox/engine/problems.ts';
import { CRYPTO_USD, FIAT_USD } from './ramp-pricing.ts';
import type { StoredRoute } from './ramp-quote.ts';
import { checkRampAccount, type RouteRequest } from './ramp-route.ts';
import { SANDBOX_DEPOSIT_ACCOUNTS } from '../../../custody/sandbox/settlement-accounts.ts';
import { providerParty } from './ramp-lifecycle.ts';
import type { RampPlan } from './ramp-plan.ts';

/**
 * Executing a quote (G2 `intent/create/`, G1 `POST …/transactions/` with
 * ON_RAMP or OFF_RAMP): a PENDING transaction with its change request, like
 * every create, made from the quote alone. The quote must be the caller's
 * (organization and sub-organization), unexpired and unused, and whatever
 * the body says of the route must be what was quoted; it is used in the
 * database transaction that inserts the ramp, so two executes of one quote
 * cannot both win. An off-ramp holds `finalFromAmount` on its vault from
 * here until it ends; an on-ramp holds nothing (nothing of ours leaves).
 */

export interface ExecuteRampInput {
  orgId: string;
  actor: CustodyActor | undefined;
  /** A member's sub-organizations (null: all); absent for API clients. */
  scopeSubOrgIds?: string[] | null | undefined;
  now: Date;
  quoteId: string | undefined;
  /** What the body says of the route (an intent, or a G1 body's category and parties). */
  sent?: RouteRequest | undefined;
  /** The quote request a G1 create carries (`onRampRequestData`): held to the quote as well. */
  requested?: RouteRequest | undefined;
  /** The quote's answer as a G1 create hands it back: which field, and what it says was promised. */
  echoed?: EchoedQuote | undefined;
  subOrgId?: string | undefined;
  externalId?: string | undefined;
  memo?: string | undefined;
  /** How far (percent) a re-quote's rate may move before an approver must accept it. */
  rateTolerancePercent?: string | undefined;
}

export interface EchoedQuote {
  /** Where it sits in the body (`onRampResponseData.` or `onRampResponseData.quotes.0.`). */
  prefix: string;
  quoteId?: string | undefined;
  finalToAmount?: string | undefined;
  finalFromAmount?: string | undefined;
}

function refuse(code: string, field: string, message: string): ApiError {
  return new ApiError(400, code, `${field}: ${message}`, [{ field, message }]);
}

/**
 * What executing the quote would make, checked as the execute checks it (the
 * quote the caller's, unexpired, unused, matching what the body says), and
 * nothing written: `executeRampQuote` inserts exactly these values, and the
 * approval policy's review judges them (capabilities/policies/guard.ts).
 */
async function planRampQuote(db: Database, input: ExecuteRampInput) {
  if (!input.quoteId)
    throw refuse(
      ERROR_CODES.quoteRequired,
      'quoteId',
      'is required: ramps and FX are executed from a quote (POST …/transactions/quote/)',
    );
  const quoteId = input.quoteId;
  const [stored] = await db
    .select()
    .from(rampQuotes)
    .where(and(eq(rampQuotes.orgId, input.orgId), eq(rampQuotes.id, quoteId)))
    .limit(1);
  if (!stored) throw refuse(ERROR_CODES.quoteNotFound, 'quoteId', `no quote "${quoteId}" here`);
  const staleness = unusable(stored, input.now);
  if (staleness) throw staleness;
  const outOfScope =
    (input.scopeSubOrgIds && !input.scopeSubOrgIds.includes(stored.subOrgId ?? '')) ||
    (input.subOrgId !== undefined && input.subOrgId !== (stored.subOrgId ?? undefined));
  if (outOfScope)
    throw refuse(
      ERROR_CODES.quoteOutOfScope,
      'quoteId',
      `quote "${quoteId}" was priced for ${stored.subOrgId ? `sub-organization ${stored.subOrgId}` : 'the organization itself'}, not where this request acts`,
    );
  let route = stored.route as unknown as StoredRoute;
  let quote = stored.quote;
  // An off-ramp quoted on its source alone pays the account this execute names, checked here.
  if (route.kind === 'OFF_RAMP' && !route.bankAccountId) {
    const named = await namedAccount(db, input, route, stored.subOrgId);
    route = {
      ...route,
      destination: named.party,
      bankAccountId: named.account.id,
      destinationId: named.account.id,
      fiatRail: named.rail,
    };
    quote = { ...quote, destination: named.party };
  }
  if (input.sent) checkMatches(route, input.sent);
  if (input.requested) checkMatches(route, input.requested);
  if (input.echoed) checkEchoed(quote, input.echoed);

  const kind = route.kind;
  const finalFrom = quote.finalFromAmount ?? '0';
  const finalTo = quote.finalToAmount ?? '0';
  const provider = quote.sourceName ?? 'Ramp provider';
  const offRamp = kind === 'OFF_RAMP';
  const fx = kind === 'FX';
  // An FX moves no digital asset: no chain, no vault.
  const chain = (offRamp ? route.fromChain : route.toChain) ?? '';
  const providerAt = providerParty(provider, chain);
  const vaultParty = offRamp ? route.source : route.destination;
  const bank = offRamp || fx ? route.destination : route.source;
  const holds: Hold[] = offRamp
    ? [{ vaultId: route.vaultId, asset: route.fromAsset, chain, amount: finalFrom }]
    : [];
  const plan: RampPlan = {
    legs: [],
    feePayer: offRamp ? vaultParty : providerAt,
    ...(offRamp ? { holds } : {}),
    ramp: {
      kind: route.kind,
      provider,
      completionSeconds: route.completionSeconds,
      ...(input.rateTolerancePercent ? { rateTolerancePercent: input.rateTolerancePercent } : {}),
      ...(input.memo?.toLowerCase().includes(SIMULATE_FAIL_TAG)
        ? { fail: `the provider ${provider} could not complete the trade (${SIMULATE_FAIL_TAG})` }
        : {}),
    },
  };
  const usd = FIAT_USD[route.toAsset] ?? CRYPTO_USD[route.toAsset] ?? '0';
  const values = {
    subOrgId: stored.subOrgId,
    vaultId: route.vaultId || null,
    ...CATEGORIES[kind],
    blockChain: chain,
    asset: offRamp ? route.fromAsset : route.toAsset,
    amount: offRamp ? finalFrom : finalTo,
    amountInUsd: round(mul(finalTo, usd), 2),
    externalId: input.externalId ?? null,
    memo: input.memo ?? null,
    source: route.source,
    destination: route.destination,
    fees: quote.fees ?? null,
    operations: initialOperations(route, provider, providerAt, finalFrom, finalTo),
    intent: recordedIntent(route),
    quoteResponse: quote,
    depositInstructions: offRamp ? null : depositInstructions(route, finalFrom, quoteId),
    bankAccountId: route.bankAccountId ?? bank.id ?? null,
    simulation: { ...plan },
  };
  return { quoteId, kind, holds, values };
}

/** The transaction executing the quote would make, as the custody API would answer it; nothing written. */
export async function previewRampQuote(
  db: Database,
  input: ExecuteRampInput,
): Promise<Transaction> {
  const { kind, values } = await planRampQuote(db, input);
  return {
    ...(values.subOrgId ? { subOrgId: values.subOrgId } : {}),
    ...(values.vaultId ? { vaultId: values.vaultId } : {}),
    status: 'PENDING',
    transactionType: kind === 'ON_RAMP' ? 'INCOMING' : 'OUTGOING',
    category: values.category,
    subCategory: values.subCategory,
    ...(values.blockChain ? { blockChain: values.blockChain } : {}),
    asset: values.asset,
    amount: values.amount,
    amountInUSD: values.amountInUsd,
    source: values.source,
    destination: values.destination,
  };
}

export async function executeRampQuote(
  db: Database,
  input: ExecuteRampInput,
): Promise<TransactionRow> {
  const { quoteId, kind, holds, values } = await planRampQuote(db, input);
  return insertWithDuplicateCheck(db, input.orgId, input.externalId, async (tx) => {
    const shortfall = holds.length > 0 ? await reserveHolds(tx, holds, input.now) : null;
    if (shortfall)
      throw refuse(
        ERROR_CODES.insufficientBalance,
        'quoteId',
        `the vault can spend ${shortfall.available} ${shortfall.hold.asset} on ${shortfall.hold.chain}; this quote sends ${shortfall.hold.amount}; nothing was held`,
      );
    const row = await insertPendingTransaction(tx, {
      orgId: input.orgId,
      actor: input.actor,
      now: input.now,
      values,
      transactionType: kind === 'ON_RAMP' ? 'INCOMING' : 'OUTGOING',
    });
    const claimed = await tx
      .update(rampQuotes)
      .set({ usedByTransactionId: row.id })
      .where(
        and(
          eq(rampQuotes.id, quoteId),
          isNull(rampQuotes.usedByTransactionId),
          gt(rampQuotes.expiresAt, input.now),
        ),
      )
      .returning({ id: rampQuotes.id });
    if (claimed.length === 0) {
      // Another execute won the race (or the quote expired meanwhile): this one makes nothing.
      const [now] = await tx.select().from(rampQuotes).where(eq(rampQuotes.id, quoteId));
      throw (
        (now && unusable(now, input.now)) ??
        refuse(ERROR_CODES.quoteAlreadyUsed, 'quoteId', 'was used')
      );
    }
    return row;
  });
}

/**
 * The category each kind is recorded as: a ramp as the SDKs' ON_RAMP and
 * OFF_RAMP; an FX, which no older SDK names, as the newest JS SDK's RAMP
 * (a conversion through a provider), traded and paid out to a bank
 * (TRADE_WITHDRAW).
 */
const CATEGORIES = {
  OFF_RAMP: { category: 'OFF_RAMP', subCategory: 'OFF_RAMP' },
  ON_RAMP: { category: 'ON_RAMP', subCategory: 'ON_RAMP' },
  FX: { category: 'RAMP', subCategory: 'TRADE_WITHDRAW' },
} as const satisfies Record<
  StoredRoute['kind'],
  { category: TransactionCategory; subCategory: TransactionSubCategory }
>;

/** A memo containing this makes the provider fail the trade (sandbox only), so clients can test it. */
export const SIMULATE_FAIL_TAG = '[simulate:ramp-fail]';

function unusable(
  quote: { id: string; expiresAt: Date; usedByTransactionId: string | null },
  now: Date,
): ApiError | null {
  if (quote.usedByTransactionId)
    return refuse(
      ERROR_CODES.quoteAlreadyUsed,
      'quoteId',
      `quote "${quote.id}" was already used by transaction ${quote.usedByTransactionId}; ask for a new quote`,
    );
  if (now.getTime() >= quote.expiresAt.getTime())
    return refuse(
      ERROR_CODES.quoteExpired,
      'quoteId',
      `quote "${quote.id}" expired at ${quote.expiresAt.toISOString()}; ask for a new quote`,
    );
  return null;
}

/**
 * The approved bank account an execute names for an off-ramp quoted without
 * one, with the rules the quote would have checked (ramp-route.ts's
 * checkRampAccount): approved, of the vault's sub-organization, the rail the
 * quote asked for (any, if it asked none) carrying the currency. A member's
 * scope is checked before (capabilities/ramps/scope.ts).
 */
async function namedAccount(
  db: Database,
  input: ExecuteRampInput,
  route: StoredRoute,
  subOrgId: string | null,
) {
  const p = input.sent?.prefix ?? 'intent.';
  const party = input.sent?.destination;
  if (!party)
    throw refuse(
      ERROR_CODES.validation,
      `${p}destination`,
      'is required: the approved bank account paid (the quote named none)',
    );
  const [vault] = await db
    .select({ vaultName: vaults.vaultName })
    .from(vaults)
    .where(eq(vaults.id, route.vaultId))
    .limit(1);
  const problems = new Problems();
  const field = `${p}destination`;
  const checked = await checkRampAccount(db, problems, {
    orgId: input.orgId,
    field,
    party,
    kind: 'OFF_RAMP',
    fiat: route.toAsset,
    askedRail: route.railAsked ? route.fiatRail : undefined,
    // At execute the account is what was named: a rail or currency it does not carry names it.
    railField: `${field}.id`,
    currencyField: `${field}.id`,
    vault: { vaultName: vault?.vaultName ?? route.vaultId, subOrgId },
  });
  problems.throwIfAny();
  if (!checked) throw new Error('namedAccount: no account was resolved');
  return checked;
}

/** The quote's answer a G1 create hands back must be the quote's: its id and what it promised. */
function checkEchoed(quote: RampQuote, echoed: EchoedQuote): void {
  const problems = new Problems();
  const p = echoed.prefix;
  if (echoed.quoteId !== undefined && echoed.quoteId !== quote.quoteId)
    problems.add(
      `${p}quoteId`,
      ERROR_CODES.quoteMismatch,
      `is ${echoed.quoteId}, but quoteId names ${quote.quoteId}`,
    );
  for (const side of ['finalToAmount', 'finalFromAmount'] as const) {
    const said = echoed[side];
    const quoted = quote[side];
    if (said === undefined) continue;
    if (!isDecimalString(said) || quoted === undefined || cmp(said, quoted) !== 0)
      problems.add(
        `${p}${side}`,
        ERROR_CODES.quoteMismatch,
        `is ${said}, the quote's is ${quoted ?? 'not given'}`,
      );
  }
  problems.throwIfAny();
}

/** Every field the body says of the route must be the quote's (ids, assets, chains, the amount asked). */
function checkMatches(route: StoredRoute, sent: RouteRequest): void {
  const problems = new Problems();
  const p = sent.prefix;
  const differs = (field: string, said: string | undefined, quoted: string | null | undefined) => {
    if (said === undefined) return;
    if (said === (quoted ?? undefined)) return;
    problems.add(
      `${p}${field}`,
      ERROR_CODES.quoteMismatch,
      `is ${said}, the quote's is ${quoted ?? 'not given'}`,
    );
  };
  if (sent.category && sent.category !== route.kind)
    problems.add(
      `${p}category`,
      ERROR_CODES.quoteMismatch,
      `is ${sent.category}, the quote is an ${route.kind}`,
    );
  differs('source.id', sent.source?.id, route.sourceId);
  differs('destination.id', sent.destination?.id, route.destinationId);
  differs('fromAsset', sent.fromAsset, route.fromAsset);
  differs('toAsset', sent.toAsset, route.toAsset);
  differs('fromChain', sent.fromChain, route.fromChain);
  differs('toChain', sent.toChain, route.toChain);
  for (const side of ['fromAmount', 'toAmount'] as const) {
    const said = sent[side];
    const quoted = route[side];
    if (said !== undefined && (quoted === undefined || cmp(said, quoted) !== 0))
      problems.add(
        `${p}${side}`,
        ERROR_CODES.quoteMismatch,
        `is ${said}, the quote was asked for ${quoted === undefined ? `the ${side === 'fromAmount' ? 'toAmount' : 'fromAmount'}` : quoted}`,
      );
  }
  problems.throwIfAny();
}

/** The intent as recorded on the transaction, in the G2 shape whichever shape asked. */
function recordedIntent(route: StoredRoute): RampIntent {
  const offRamp = route.kind === 'OFF_RAMP';
  const onRamp = route.kind === 'ON_RAMP';
  return {
    source: route.source,
    destination: route.destination,
    fromAsset: route.fromAsset,
    ...(route.fromAmount === undefined ? {} : { fromAmount: route.fromAmount }),
    ...(route.fromChain ? { fromChain: route.fromChain } : {}),
    fromPaymentRail: offRamp ? 'BLOCKCHAIN' : (route.depositRail ?? route.fiatRail),
    toAsset: route.toAsset,
    ...(route.toAmount === undefined ? {} : { toAmount: route.toAmount }),
    ...(route.toChain ? { toChain: route.toChain } : {}),
    toPaymentRail: onRamp ? 'BLOCKCHAIN' : route.fiatRail,
  };
}

/** The steps in order, each PENDING: the lifecycle moves them (ramp-lifecycle.ts). */
function initialOperations(
  route: StoredRoute,
  provider: string,
  providerAt: Party,
  finalFrom: string,
  finalTo: string,
): Operation[] {
  const change = (party: Party, asset: string, amount: string, chain: string | null) => ({
    party,
    asset,
    amount,
    ...(chain ? { chain } : {}),
  });
  const op = (
    sequence: number,
    type: Operation['type'],
    source: Party,
    destination: Party,
    changes: ReturnType<typeof change>[],
  ): Operation => ({
    sequence,
    type,
    status: 'PENDING',
    provider,
    source,
    destination,
    balanceChanges: { changes },
  });
  if (route.kind === 'OFF_RAMP')
    return [
      op(1, 'TRANSFER', route.source, providerAt, [
        change(route.source, route.fromAsset, neg(finalFrom), route.fromChain),
      ]),
      op(2, 'TRADE', providerAt, providerAt, []),
      op(3, 'WITHDRAW', providerAt, route.destination, [
        change(route.destination, route.toAsset, finalTo, null),
      ]),
    ];
  // An on-ramp's last step sends the crypto to the vault; an FX's pays the approved account.
  return [
    op(1, 'DEPOSIT', route.source, providerAt, [
      change(route.source, route.fromAsset, neg(finalFrom), null),
    ]),
    op(2, 'TRADE', providerAt, providerAt, []),
    op(3, route.kind === 'FX' ? 'WITHDRAW' : 'TRANSFER', providerAt, route.destination, [
      change(route.destination, route.toAsset, finalTo, route.toChain),
    ]),
  ];
}

/** Where the payer wires an on-ramp's or FX's money: the sandbox's own account for the currency. */
function depositInstructions(
  route: StoredRoute,
  finalFrom: string,
  quoteId: string,
): DepositInstructions {
  const account = SANDBOX_DEPOSIT_ACCOUNTS[route.fromAsset] ?? SANDBOX_DEPOSIT_ACCOUNTS['USD'];
  const rail = route.depositRail ?? route.fiatRail;
  return {
    type: 'BANK_ACCOUNT',
    paymentRail: rail,
    currency: route.fromAsset,
    amount: finalFrom,
    bankDetails: { ...account, paymentRail: rail, currency: route.fromAsset },
    reference: `RAMP-${quoteId.replace(/-/g, '').slice(0, 10).toUpperCase()}`,
  };
}
