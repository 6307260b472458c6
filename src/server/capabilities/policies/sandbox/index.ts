import { and, eq, gte, isNotNull, notInArray, sql } from 'drizzle-orm';
import { mul, round } from '#contract/decimal.ts';
import { assets, transactions } from '../../../db/schema/sandbox.ts';
import type { SandboxDeps } from '../../../custody/sandbox/sandbox-deps.ts';
import type { PoliciesPort } from '../port.ts';

/** Prices from the sandbox's asset table; outflow summed from its transactions. */
export function policiesSandbox({ db, orgIdFor }: SandboxDeps): PoliciesPort {
  return {
    async usdValue(_ctx, asset, blockChain, amount) {
      const [row] = await db
        .select({ usdPrice: assets.usdPrice })
        .from(assets)
        .where(and(eq(assets.symbol, asset), eq(assets.blockChain, blockChain)));
      if (!row || !/[1-9]/.test(row.usdPrice)) return null;
      return round(mul(amount, row.usdPrice), 6);
    },
    async vaultOutflowUsd(ctx, vaultId, since) {
      const orgId = await orgIdFor(ctx);
      if (!orgId) return null;
      const [row] = await db
        .select({ total: sql<string | null>`sum(${transactions.amountInUsd})::text` })
        .from(transactions)
        .where(
          and(
            eq(transactions.orgId, orgId),
            eq(transactions.vaultId, vaultId),
            eq(transactions.transactionType, 'OUTGOING'),
            notInArray(transactions.status, ['DECLINED', 'FAILED']),
            isNotNull(transactions.amountInUsd),
            gte(transactions.createdAt, since),
          ),
        );
      return row?.total ?? '0';
    },
  };
}
