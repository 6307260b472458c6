import { cachedRead } from '../../../db/read-cache.ts';
import { transactions } from '../../../db/schema/sandbox.ts';
import type { SandboxDeps } from '../../../custody/sandbox/sandbox-deps.ts';
import type { TransactionsPort } from '../port.ts';
import { stakedOf } from '../../../custody/sandbox/engine/unstake.ts';
import { cancelScheduled } from '../../../custody/sandbox/engine/cancel-scheduled.ts';
import { toWireTransaction } from '../../../custody/sandbox/mappers.ts';
import { noOrganization } from '../../../custody/sandbox/engine/problems.ts';
import { pacedPage, pacedTransaction } from '../../../custody/sandbox/pace.ts';
import { getTransaction, listTransactions, transactionStatuses } from './store.ts';

/** Transactions over the sandbox's tables: reads here, writes through the engine. */
export function transactionsSandbox({
  db,
  clock,
  timeScale,
  engine,
  orgIdFor,
  cachedList,
}: SandboxDeps): TransactionsPort {
  return {
    // The console's hottest reads, reused while nothing commits (db/read-cache.ts); the key holds
    // the organization and the whole query, the scope's sub-orgs included (wiring/scoped-backend.ts).
    // Whether one is slower than usual is judged after the cache: the clock moves, the rows do not.
    listTransactions: async (ctx, query) => {
      const page = await cachedList(ctx, 'transactions', query, [transactions], (orgId) =>
        listTransactions(db, orgId, query),
      );
      return pacedPage(page, clock.now(), timeScale);
    },
    getTransaction: async (ctx, id) => {
      const orgId = await orgIdFor(ctx);
      const tx = await cachedRead(`transaction:${orgId}:${id}`, () =>
        getTransaction(db, orgId, id),
      );
      return pacedTransaction(tx, clock.now(), timeScale);
    },
    transactionStatuses: async (ctx, ids) => transactionStatuses(db, await orgIdFor(ctx), ids),
    createTransaction: async (ctx, body) => engine.create(await orgIdFor(ctx), ctx.actor, body),
    replaceTransaction: async (ctx, body) => engine.replace(await orgIdFor(ctx), ctx.actor, body),
    estimateFee: async (ctx, body) => engine.estimateFee(await orgIdFor(ctx), body),
    // Read as the engine judges an unstake (engine/unstake.ts), so the form's check is the server's.
    stakedAmount: (_ctx, of) => stakedOf(db, of),
    async cancelScheduled(ctx, transactionId, by) {
      const orgId = await orgIdFor(ctx);
      if (!orgId) throw noOrganization();
      const row = await cancelScheduled(db, {
        orgId,
        actor: ctx.actor,
        transactionId,
        by,
        now: clock.now(),
      });
      return toWireTransaction(row);
    },
  };
}
