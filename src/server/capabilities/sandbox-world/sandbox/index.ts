import { randomInt, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { chainInfo } from '#contract/chains.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { add, cmp, mul, neg, round, scale } from '#contract/decimal.ts';
import { SANDBOX_DEPOSIT_MAX } from '#contract/sandbox-world.ts';
import type { BalanceChange, Operation, Party } from '#contract/transaction.ts';
import { moveBalances } from '../../../custody/sandbox/engine/balances.ts';
import { newTxHash } from '../../../custody/sandbox/engine/chain-artifacts.ts';
import { transition } from '../../../custody/sandbox/engine/transitions.ts';
import { noOrganization } from '../../../custody/sandbox/engine/problems.ts';
import { fakeAddress, SeedRandom } from '../../../custody/sandbox/seed/random.ts';
import type { SandboxDeps } from '../../../custody/sandbox/sandbox-deps.ts';
import {
  assets,
  subOrgs,
  transactionStatusEvents,
  transactions,
} from '../../../db/schema/sandbox.ts';
import type { ReferencePort } from '../../reference/port.ts';
import type { TransactionsPort } from '../../transactions/port.ts';
import type { SandboxWorldPort } from '../port.ts';

/** A surge lasts at most a day: a tool for a story or a demo, not a market of its own. */
const SURGE_MAX_MS = 24 * 3_600_000;

type WorldDeps = Pick<SandboxDeps, 'db' | 'clock' | 'orgIdFor' | 'feeSurges'> & {
  /** The vault is read as every capability reads another's: through its port. */
  reference: Pick<ReferencePort, 'getVault'>;
  transactions: Pick<TransactionsPort, 'getTransaction'>;
};

function invalid(field: string, message: string): ApiError {
  return new ApiError(400, ERROR_CODES.validation, message, [{ field, message }]);
}

export function sandboxWorldSandbox({
  db,
  clock,
  orgIdFor,
  feeSurges,
  reference,
  transactions: reads,
}: WorldDeps): SandboxWorldPort {
  return {
    sandboxWorld: {
      async createSubOrg(ctx, body) {
        const orgId = await orgIdFor(ctx);
        if (!orgId) throw noOrganization();
        const [row] = await db
          .insert(subOrgs)
          .values({ id: randomUUID(), orgId, name: body.name, createdAt: clock.now() })
          .returning();
        if (!row) throw new Error('sandbox sub-organization: nothing inserted');
        return { id: row.id, orgId: row.orgId, name: row.name };
      },

      async deposit(ctx, vaultId, body) {
        const orgId = await orgIdFor(ctx);
        if (!orgId) throw noOrganization();
        const vault = await reference.getVault(ctx, vaultId);
        const chain = chainInfo(body.chain);
        if (!chain)
          throw invalid('chain', `chain ${body.chain} is not a chain the sandbox supports`);
        if (!vault.wallets?.some((w) => w.blockchain === chain.value))
          throw invalid(
            'chain',
            `the vault has no wallet on ${chain.value}: choose a chain it has a wallet on`,
          );
        const [asset] = await db
          .select()
          .from(assets)
          .where(and(eq(assets.symbol, body.asset), eq(assets.blockChain, chain.value)))
          .limit(1);
        if (!asset) throw invalid('asset', `asset ${body.asset} does not exist on ${chain.value}`);
        // Trailing zeros carry no precision: "1.50" is fine for a 1-decimal asset.
        if (scale(add(body.amount, '0')) > asset.decimals)
          throw invalid(
            'amount',
            `${asset.symbol} on ${chain.value} has ${asset.decimals} decimal places; ${body.amount} has more`,
          );
        if (cmp(body.amount, SANDBOX_DEPOSIT_MAX) > 0)
          throw invalid('amount', `amount must be at most ${SANDBOX_DEPOSIT_MAX} in one deposit`);

        const now = clock.now();
        const id = randomUUID();
        const sender: Party = {
          type: 'EXTERNAL_ADDRESS',
          address: fakeAddress(new SeedRandom(randomInt(2 ** 31)), chain.kind),
          chain: chain.value,
          name: 'Sandbox deposit',
        };
        const destination: Party = {
          type: 'VAULT',
          id: vaultId,
          ...(vault.vaultName ? { name: vault.vaultName } : {}),
          ...(vault.subOrgId ? { subOrgId: vault.subOrgId } : {}),
        };
        const changes: BalanceChange[] = [
          { party: sender, asset: asset.symbol, amount: neg(body.amount), chain: chain.value },
          { party: destination, asset: asset.symbol, amount: body.amount, chain: chain.value },
        ];
        const operation: Operation = {
          sequence: 1,
          type: 'TRANSFER',
          status: 'COMPLETED',
          source: sender,
          destination,
          balanceChanges: { changes },
        };
        await db.transaction(async (tx) => {
          await tx.insert(transactions).values({
            id,
            orgId,
            subOrgId: vault.subOrgId ?? null,
            vaultId,
            // Seen on the chain, then confirmed: the timeline and the webhooks show both.
            status: 'WAITING_CONFIRMATION',
            category: asset.isNative ? 'TRANSFER' : 'TOKEN_TRANSFER',
            subCategory: 'INCOMING_TRANSFER',
            transactionType: 'INCOMING',
            blockChain: chain.value,
            asset: asset.symbol,
            amount: body.amount,
            amountInUsd: round(mul(body.amount, asset.usdPrice), 2),
            source: sender,
            destination,
            operations: [operation],
            balanceChanges: { changes },
            txHash: newTxHash(chain.value),
            createdAt: now,
            updatedAt: now,
          });
          await tx
            .insert(transactionStatusEvents)
            .values({ transactionId: id, status: 'WAITING_CONFIRMATION', at: now });
          await transition(tx, {
            transactionId: id,
            from: 'WAITING_CONFIRMATION',
            to: 'COMPLETED',
            at: now,
            nextStepAt: null,
            operationsBefore: [],
          });
          // Credited as every completed transfer credits its vaults: the ledger still adds up.
          await moveBalances(tx, now, {
            orgId,
            changes,
            movement: {
              transactionId: id,
              reference: null,
              memo: null,
              source: sender,
              destination,
            },
          });
        });
        return reads.getTransaction(ctx, id);
      },

      async surgeFees(ctx, subOrgId, body) {
        const orgId = await orgIdFor(ctx);
        if (!orgId) throw noOrganization();
        const [subOrg] = await db
          .select({ id: subOrgs.id })
          .from(subOrgs)
          .where(and(eq(subOrgs.id, subOrgId), eq(subOrgs.orgId, orgId)))
          .limit(1);
        if (!subOrg)
          throw new ApiError(
            404,
            ERROR_CODES.notFound,
            `No sub-organization with id "${subOrgId}"`,
          );
        const chain = chainInfo(body.chain);
        if (!chain)
          throw invalid('chain', `chain ${body.chain} is not a chain the sandbox supports`);
        const now = clock.now();
        const until = new Date(body.until);
        if (until.getTime() <= now.getTime())
          throw invalid('until', 'until must be after now: a surge that ended changes nothing');
        if (until.getTime() - now.getTime() > SURGE_MAX_MS)
          throw invalid('until', 'until must be at most 24 hours from now');
        feeSurges.set(orgId, { subOrgId, chain: chain.value, factor: body.factor, until });
        return {
          subOrgId,
          chain: chain.value,
          factor: body.factor,
          until: until.toISOString(),
        };
      },
    },
  };
}
