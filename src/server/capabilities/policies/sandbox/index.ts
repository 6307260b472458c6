import { and, eq, gte, ne, notInArray, sql } from 'drizzle-orm';
import { add, mul, round } from '#contract/decimal.ts';
import { assets, transactions } from '../../../db/schema/sandbox.ts';
import type { SandboxDeps } from '../../../custody/sandbox/sandbox-deps.ts';
import { tokenByContract } from '../../../custody/sandbox/seed/reference-data.ts';
import { valueContractCall } from '../call-value.ts';
import type { PoliciesPort } from '../port.ts';

/**
 * Prices from the sandbox's asset table; token contracts from its catalogue;
 * outflow summed from its transactions, a contract call valued by what it
 * moves. A transaction in the window without a value leaves the outflow
 * unknown (null), so a cap matches (README, "Rules fail closed").
 */
export function policiesSandbox({ db, orgIdFor }: SandboxDeps): PoliciesPort {
  async function usdValue(asset: string, blockChain: string, amount: string) {
    const [row] = await db
      .select({ usdPrice: assets.usdPrice })
      .from(assets)
      .where(and(eq(assets.symbol, asset), eq(assets.blockChain, blockChain)));
    if (!row || !/[1-9]/.test(row.usdPrice)) return null;
    return round(mul(amount, row.usdPrice), 6);
  }

  async function tokenAt(blockChain: string, contract: string) {
    const known = tokenByContract(blockChain, contract);
    if (!known) return null;
    const [row] = await db
      .select({ decimals: assets.decimals })
      .from(assets)
      .where(and(eq(assets.symbol, known.symbol), eq(assets.blockChain, blockChain)));
    return row ? { asset: known.symbol, decimals: row.decimals } : null;
  }

  return {
    usdValue: (_ctx, asset, blockChain, amount) => usdValue(asset, blockChain, amount),
    tokenAt: (_ctx, blockChain, contract) => tokenAt(blockChain, contract),
    async vaultOutflowUsd(ctx, vaultId, since) {
      const orgId = await orgIdFor(ctx);
      if (!orgId) return null;
      const inWindow = and(
        eq(transactions.orgId, orgId),
        eq(transactions.vaultId, vaultId),
        eq(transactions.transactionType, 'OUTGOING'),
        notInArray(transactions.status, ['DECLINED', 'FAILED']),
        gte(transactions.createdAt, since),
      );
      const [row] = await db
        .select({
          total: sql<string | null>`sum(${transactions.amountInUsd})::text`,
          unvalued: sql<number>`count(*) filter (where ${transactions.amountInUsd} is null)::int`,
        })
        .from(transactions)
        .where(and(inWindow, ne(transactions.category, 'CONTRACT_CALL')));
      if (!row || row.unvalued > 0) return null;
      // A contract call's recorded value is its native amount's only: valued by what it moves.
      const calls = await db
        .select({
          blockChain: transactions.blockChain,
          amount: transactions.amount,
          amountInUsd: transactions.amountInUsd,
          data: transactions.contractData,
        })
        .from(transactions)
        .where(and(inWindow, eq(transactions.category, 'CONTRACT_CALL')));
      let total = row.total ?? '0';
      for (const call of calls) {
        const native = call.amount === null || !/[1-9]/.test(call.amount) ? '0' : call.amountInUsd;
        const value = await valueContractCall(native, call.data, {
          token: (contract) => tokenAt(call.blockChain, contract),
          usd: (asset, amount) => usdValue(asset, call.blockChain, amount),
        });
        if (value === null) return null;
        total = add(total, value);
      }
      return total;
    },
  };
}
