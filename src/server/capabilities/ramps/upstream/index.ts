import { randomUUID } from 'node:crypto';
import { ApiError } from '#contract/api-error.ts';
import type { Page, PageRequest } from '#contract/common.ts';
import { pathOf } from '#contract/endpoint.ts';
import {
  createTransactionFromIntent,
  markDepositDone,
  quoteRamp,
  quoteRampV2,
} from '#contract/endpoints/ramp-writes.ts';
import { createTransaction } from '#contract/endpoints/transaction-writes.ts';
import { RampQuoteResponse, V2QuoteResponse } from '#contract/ramps.ts';
import { Transaction, type TransactionFilters } from '#contract/transaction.ts';
import type { CustodyContext } from '../../../custody/call-context.ts';
import {
  forgetTransactionIntent,
  recordCreated,
  recordTransactionIntent,
} from '../../../custody/upstream/creators.store.ts';
import { UpstreamFailure } from '../../../custody/upstream/upstream-client.ts';
import { staffId, type UpstreamDeps } from '../../../custody/upstream/upstream-deps.ts';
import type { RampsPort } from '../port.ts';

/** What the ramps' upstream part needs of the upstream composite (upstream-deps.ts), and the transactions' list. */
export type RampsUpstreamDeps = Pick<UpstreamDeps, 'db' | 'clock' | 'call' | 'unknownOutcome'> & {
  listTransactions(
    ctx: CustodyContext,
    query: PageRequest & TransactionFilters,
  ): Promise<Page<Transaction>>;
};

/** The categories a bank account's conversions are recorded as: ramps, and FX (RAMP). */
const RAMP_CATEGORIES_LISTED: readonly string[] = ['ON_RAMP', 'OFF_RAMP', 'RAMP'];

/** A POST of an endpoint without path parameters, the body as the caller sent it. */
const post = (endpoint: Parameters<typeof pathOf>[0], body: unknown) =>
  ({ method: 'POST', path: pathOf(endpoint), body }) as const;

/** Upstream pages read for one page of a bank account's ramps before answering with what was found. */
const MAX_UPSTREAM_PAGES = 10;

/**
 * Ramps and FX forwarded to the custody API, each call signed like every
 * other (upstream-client.ts), in the shape the caller sent. Executes are
 * never retried blindly: each carries an externalId (the caller's, or
 * `console-<uuid>`), the member is recorded as its creator before it is
 * sent (four-eyes, as for transfers), and a lost answer is looked up by it.
 */
export function rampsUpstream(deps: RampsUpstreamDeps): RampsPort {
  const { db, clock } = deps;

  async function execute<B extends { externalId?: string | undefined }>(
    ctx: CustodyContext,
    path: string,
    body: B,
  ): Promise<Transaction> {
    const externalId = body.externalId ?? `console-${randomUUID()}`;
    const member = staffId(ctx);
    if (member) await recordTransactionIntent(db, externalId, member, clock.now());
    let created: Transaction;
    try {
      created = await deps.call(ctx, Transaction, {
        method: 'POST',
        path,
        body: { ...body, externalId },
        retry: false,
      });
    } catch (error) {
      if (!(error instanceof UpstreamFailure)) {
        // Refused outright (a 4xx): nothing was created under this externalId by this call.
        if (member && error instanceof ApiError)
          await forgetTransactionIntent(db, externalId, member);
        throw error;
      }
      created = await deps.unknownOutcome(ctx, error, 'ramp', () =>
        deps.listTransactions(ctx, { externalId, limit: 1 }).then((page) => page.results[0]),
      );
    }
    if (member && created.id)
      await recordCreated(db, {
        entityType: 'TRANSACTION',
        entityId: created.id,
        staffId: member,
        externalId,
        at: clock.now(),
      });
    return created;
  }

  return {
    // A price changes nothing upstream: safe to retry like a read.
    quoteRamp: (ctx, body) =>
      deps.call(ctx, RampQuoteResponse, { ...post(quoteRamp, body), retry: true }),
    quoteRampV2: (ctx, body) =>
      deps.call(ctx, V2QuoteResponse, { ...post(quoteRampV2, body), retry: true }),
    createTransactionFromIntent: (ctx, body) =>
      execute(ctx, pathOf(createTransactionFromIntent), body),
    createRampTransaction: (ctx, body) => execute(ctx, pathOf(createTransaction), body),
    // Never retried: marking twice is refused upstream as it is here.
    markDepositDone: (ctx, body) =>
      deps.call(ctx, Transaction, { ...post(markDepositDone, body), retry: false }),
    /**
     * The custody API lists no ramps by bank account: its transactions are
     * read a page at a time and the ramps naming the account kept, ending on
     * an upstream page boundary so the next cursor is upstream's own.
     */
    async listBankAccountRamps(ctx, bankAccountId, query) {
      const results: Transaction[] = [];
      let cursor = query.cursor;
      for (let call = 0; call < MAX_UPSTREAM_PAGES; call += 1) {
        const page = await deps.listTransactions(ctx, {
          limit: query.limit - results.length,
          cursor,
          ...(query.subOrgId ? { subOrgId: query.subOrgId } : {}),
        });
        results.push(
          ...page.results.filter(
            (t) =>
              RAMP_CATEGORIES_LISTED.includes(t.category ?? '') &&
              (t.source?.id === bankAccountId || t.destination?.id === bankAccountId) &&
              (!query.subOrgIds || (!!t.subOrgId && query.subOrgIds.includes(t.subOrgId))),
          ),
        );
        cursor = page.nextCursor ?? undefined;
        if (!page.hasNext || !cursor) return { results, nextCursor: null, hasNext: false };
        if (results.length >= query.limit) break;
      }
      return { results, nextCursor: cursor ?? null, hasNext: true };
    },
  };
}
