import { randomUUID } from 'node:crypto';
import { ApiError } from '#contract/api-error.ts';
import { paths } from '#contract/paths.ts';
import { replacementRefusal } from '#contract/replacement.ts';
import {
  EstimatedFeeResponse,
  Transaction,
  TransactionListResponse,
} from '#contract/transaction.ts';
import {
  forgetTransactionIntent,
  recordCreated,
  recordTransactionIntent,
} from '../../../custody/upstream/creators.store.ts';
import { UpstreamFailure } from '../../../custody/upstream/upstream-client.ts';
import { staffId, type UpstreamDeps } from '../../../custody/upstream/upstream-deps.ts';
import type { TransactionsPort } from '../port.ts';

/**
 * Transactions through upstream. Every create carries an externalId, recorded
 * with its member before sending, so a lost answer can be looked up and the
 * creator is known to four-eyes (creators.store.ts).
 */
export function transactionsUpstream(deps: UpstreamDeps): TransactionsPort {
  const { db, clock, call, read, listPage, scopedList, unknownOutcome } = deps;

  async function recordCreator(member: string | undefined, created: Transaction) {
    if (!member || !created.id) return;
    await recordCreated(db, {
      entityType: 'TRANSACTION',
      entityId: created.id,
      staffId: member,
      externalId: created.externalId,
      at: clock.now(),
    });
  }

  return {
    listTransactions: (ctx, q) =>
      scopedList(ctx, TransactionListResponse, paths.transactions(), q, true),
    getTransaction: (ctx, id) => read(ctx, Transaction, paths.transaction(id)),
    async createTransaction(ctx, body) {
      // Every create carries an externalId, so a lost answer can always be looked up.
      const externalId = body.externalId ?? `console-${randomUUID()}`;
      const sent = { ...body, externalId };
      const member = staffId(ctx);
      if (member) await recordTransactionIntent(db, externalId, member, clock.now());
      let created: Transaction;
      try {
        created = await call(ctx, Transaction, {
          method: 'POST',
          path: paths.transactions(),
          body: sent,
          retry: false,
        });
      } catch (error) {
        if (!(error instanceof UpstreamFailure)) {
          // Refused outright (a 4xx): nothing was created under this externalId by this call.
          if (member && error instanceof ApiError) {
            await forgetTransactionIntent(db, externalId, member);
          }
          throw error;
        }
        created = await unknownOutcome(ctx, error, 'transaction', async () => {
          const page = await listPage(
            ctx,
            TransactionListResponse,
            paths.transactions(),
            { externalId },
            { limit: 1 },
          );
          return page.results[0];
        });
      }
      await recordCreator(member, { ...created, externalId });
      return created;
    },
    async replaceTransaction(ctx, body) {
      // The console's own rule, whatever upstream would answer: no replacement of a ramp (its
      // provider goes on with the original) nor of someone else's transaction.
      const original = await read(ctx, Transaction, paths.transaction(body.transactionId));
      const refusal = replacementRefusal(original);
      if (refusal) throw refusal;
      // Never retried: upstream refuses a second replacement (REPLACEMENT_EXISTS) anyway.
      const created = await call(ctx, Transaction, {
        method: 'POST',
        path: paths.replaceTransaction(),
        body,
        retry: false,
      });
      await recordCreator(staffId(ctx), created);
      return created;
    },
    // An estimate changes nothing upstream: safe to retry like a read.
    estimateFee: (ctx, body) =>
      call(ctx, EstimatedFeeResponse, {
        method: 'POST',
        path: paths.estimateFee(),
        body,
        retry: true,
      }),
  };
}
