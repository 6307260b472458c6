import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { ERROR_CODES } from '#contract/common.ts';
import { cmp, mul, round, sub } from '#contract/decimal.ts';
import type { RampQuote, RampQuoteResponse } from '#contract/ramp-record.ts';
import type { Database } from '../../../db/client.ts';
import { rampQuotes, vaultBalances } from '../../../db/schema/sandbox.ts';
import { Problems } from '../../../custody/sandbox/engine/problems.ts';
import {
  CRYPTO_USD,
  FIAT_USD,
  limitsFor,
  price,
  PROVIDERS,
  QUOTE_LIFETIME_MS,
  referenceRate,
  type Priced,
} from './ramp-pricing.ts';
import { resolveRoute, type ResolvedRoute, type RouteRequest } from './ramp-route.ts';
import type { Executor } from '../../../custody/sandbox/engine/transitions.ts';

/**
 * POST …/transactions/quote/: every provider's price for the route, best
 * first, each stored as a quote that one create may execute before it
 * expires. Refused (400, naming the field) when the amount is outside the
 * pair's limits or, for an off-ramp, more than the vault can spend now.
 */

/** What is kept with a quote to execute it: the route as resolved (its rows by id), the amount as asked. */
export type StoredRoute = Omit<ResolvedRoute, 'subOrgId' | 'vault' | 'bankAccount'> & {
  /** The vault paying or credited; `''` for an FX, which has none. */
  vaultId: string;
  bankAccountId: string | null;
  fee: string;
  completionSeconds: number;
};

export async function quoteRamp(
  db: Database,
  orgId: string,
  request: RouteRequest,
  now: Date,
): Promise<RampQuoteResponse> {
  const route = await resolveRoute(db, orgId, request);
  const reference = referenceRate(route.fromAsset, route.toAsset, now);
  const pair = { fromAsset: route.fromAsset, toAsset: route.toAsset, reference };
  const priced = PROVIDERS.map((provider) => price(provider, pair, route)).filter(
    (q): q is Priced => q !== null,
  );
  // Best first: the most arriving for a given amount out; the least out for a given amount in.
  priced.sort((a, b) =>
    route.fromAmount !== undefined
      ? cmp(b.finalToAmount, a.finalToAmount)
      : cmp(a.finalFromAmount, b.finalFromAmount),
  );
  await checkLimits(db, request.prefix, route, priced);
  const expiresAt = new Date(now.getTime() + QUOTE_LIFETIME_MS);
  const limits = limitsFor(route.kind, route.fromAsset, route.toAsset);
  const fromUsd = FIAT_USD[route.fromAsset] ?? CRYPTO_USD[route.fromAsset] ?? '0';
  const quotes: RampQuote[] = [];
  const rows: Array<typeof rampQuotes.$inferInsert> = [];
  for (const q of priced) {
    const quote: RampQuote = {
      quoteId: randomUUID(),
      ...(route.subOrgId ? { subOrgId: route.subOrgId } : {}),
      kind: route.kind,
      rate: q.rate,
      fees: {
        amount: q.fee,
        asset: route.fromAsset,
        amountInFiat: round(mul(q.fee, fromUsd), 2),
      },
      fromAsset: route.fromAsset,
      ...(route.fromChain ? { fromChain: route.fromChain } : {}),
      toAsset: route.toAsset,
      ...(route.toChain ? { toChain: route.toChain } : {}),
      finalFromAmount: q.finalFromAmount,
      finalToAmount: q.finalToAmount,
      sourceName: q.provider.name,
      expiresAt: expiresAt.toISOString(),
      estCompletionTimeInSec: q.provider.completionSeconds,
      minFromAmount: limits.min,
      maxFromAmount: limits.max,
      source: route.source,
      destination: route.destination,
      // G3's two sides: what goes in, what comes out, and the vault on the digital asset's.
      input: {
        asset: route.fromAsset,
        amount: q.finalFromAmount,
        ...(route.kind === 'OFF_RAMP' && route.vault ? { vaultId: route.vault.id } : {}),
      },
      output: {
        asset: route.toAsset,
        amount: q.finalToAmount,
        ...(route.kind === 'ON_RAMP' && route.vault ? { vaultId: route.vault.id } : {}),
      },
      // The older JS and Python types carry the provider's own answer here; the sandbox has none.
      quoteResponseDict: {},
    };
    quotes.push(quote);
    const { subOrgId: _subOrgId, vault, bankAccount, ...resolved } = route;
    const stored: StoredRoute = {
      ...resolved,
      vaultId: vault?.id ?? '',
      bankAccountId: bankAccount?.id ?? null,
      fee: q.fee,
      completionSeconds: q.provider.completionSeconds,
    };
    rows.push({
      id: quote.quoteId,
      orgId,
      subOrgId: route.subOrgId,
      kind: route.kind,
      route: { ...stored },
      quote,
      expiresAt,
      createdAt: now,
    });
  }
  await db.insert(rampQuotes).values(rows);
  const [best] = quotes;
  return {
    quotes,
    ...(best
      ? {
          quoteId: best.quoteId,
          finalToAmount: best.finalToAmount,
          finalFromAmount: best.finalFromAmount,
          fees: best.fees,
          sourceName: best.sourceName,
          rate: best.rate,
          quoteResponseDict: {},
        }
      : {}),
  };
}

/**
 * The pair's limits on what leaves the source, and an off-ramp's vault's
 * free balance (amount less what is held) against the cheapest quote.
 */
async function checkLimits(
  db: Executor,
  p: string,
  route: ResolvedRoute,
  priced: Priced[],
): Promise<void> {
  const problems = new Problems();
  const field = `${p}${route.fromAmount !== undefined ? 'fromAmount' : 'toAmount'}`;
  const limits = limitsFor(route.kind, route.fromAsset, route.toAsset);
  const leaving = priced.map((q) => q.finalFromAmount).sort(cmp);
  const least = leaving[0];
  const most = leaving[leaving.length - 1];
  const pair = `${route.fromAsset} → ${route.toAsset}`;
  if (!least || cmp(least, limits.min) < 0)
    problems.add(
      field,
      ERROR_CODES.amountBelowMinimum,
      `${pair} takes at least ${limits.min} ${route.fromAsset} (and at most ${limits.max})${least ? `; this would send ${least}` : ''}`,
    );
  else if (most && cmp(most, limits.max) > 0)
    problems.add(
      field,
      ERROR_CODES.amountAboveMaximum,
      `${pair} takes at most ${limits.max} ${route.fromAsset} (and at least ${limits.min}); this would send ${most}`,
    );
  problems.throwIfAny();
  if (route.kind !== 'OFF_RAMP' || !route.vault || !route.fromChain || !least) return;
  const free = await freeBalance(db, route.vault.id, route.fromAsset, route.fromChain);
  if (cmp(free, least) < 0)
    problems.add(
      field,
      ERROR_CODES.insufficientBalance,
      `vault "${route.vault.vaultName}" can spend ${free} ${route.fromAsset} on ${route.fromChain}; the cheapest quote needs ${least}`,
    );
  problems.throwIfAny();
}

/** What a vault can still spend of an asset on a chain: its amount less what is held. */
export async function freeBalance(
  db: Executor,
  vaultId: string,
  asset: string,
  chain: string,
): Promise<string> {
  const [row] = await db
    .select({ amount: vaultBalances.amount, held: vaultBalances.held })
    .from(vaultBalances)
    .where(
      and(
        eq(vaultBalances.vaultId, vaultId),
        eq(vaultBalances.asset, asset),
        eq(vaultBalances.chain, chain),
      ),
    );
  return row ? sub(row.amount, row.held) : '0';
}
