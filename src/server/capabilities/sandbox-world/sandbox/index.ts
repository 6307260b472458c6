import { randomInt, randomUUID } from 'node:crypto';
import { and, asc, eq, gte, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { ApiError } from '#contract/api-error.ts';
import { chainInfo } from '#contract/chains.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { add, cmp, mul, neg, round, scale } from '#contract/decimal.ts';
import { SANDBOX_DEPOSIT_MAX } from '#contract/sandbox-world.ts';
import type { BalanceChange, Operation, Party } from '#contract/transaction.ts';
import { moveBalances } from '../../../custody/sandbox/engine/balances.ts';
import {
  epochBoundaryFrom,
  payStakingRewards,
  STAKING_REWARDS,
} from '../../../custody/sandbox/engine/staking-rewards.ts';
import { newTxHash } from '../../../custody/sandbox/engine/chain-artifacts.ts';
import { transition } from '../../../custody/sandbox/engine/transitions.ts';
import { noOrganization } from '../../../custody/sandbox/engine/problems.ts';
import { fakeAddress, SeedRandom } from '../../../custody/sandbox/seed/random.ts';
import type { SandboxDeps } from '../../../custody/sandbox/sandbox-deps.ts';
import {
  assets,
  ledgerMovements,
  stakingPositions,
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

      async passStakingEpochs(ctx, vaultId, body) {
        const orgId = await orgIdFor(ctx);
        if (!orgId) throw noOrganization();
        await reference.getVault(ctx, vaultId);
        const chain = chainInfo(body.chain)?.value ?? body.chain;
        const terms = STAKING_REWARDS[chain];
        if (!terms)
          throw invalid(
            'chain',
            `the sandbox pays staking rewards on ${Object.keys(STAKING_REWARDS).join(', ')}, not ${chain}`,
          );
        const moved = await db.transaction(async (tx) => {
          const [position] = await tx
            .select()
            .from(stakingPositions)
            .where(
              and(
                eq(stakingPositions.vaultId, vaultId),
                eq(stakingPositions.chain, chain),
                isNotNull(stakingPositions.nextAt),
              ),
            )
            .limit(1)
            .for('update');
          if (!position)
            throw new ApiError(
              409,
              ERROR_CODES.conflict,
              `The vault has no stake earning on ${chain}: stake first, and let it complete`,
            );
          // A position that was paid stands on the epochs' grid: moved back, it would be paid twice.
          if (position.paidUntil.getTime() % terms.epochMs === 0)
            throw new ApiError(
              409,
              ERROR_CODES.conflict,
              `The vault's stake on ${chain} has earned already: only a stake that has earned nothing yet is moved into the past`,
            );
          const from = position.paidUntil;
          // Back by whole epochs, so that `epochs` of them have ended since it began to earn.
          const lastEnded = Math.floor(clock.now().getTime() / terms.epochMs) * terms.epochMs;
          const shiftMs =
            epochBoundaryFrom(from.getTime(), terms.epochMs) -
            (lastEnded - body.epochs * terms.epochMs);
          const back = (at: AnyPgColumn) => sql`${at} - ${`${shiftMs} milliseconds`}::interval`;
          // The position's stakes and unstakes, made or ended since it opened: all of their times.
          const moving = (
            await tx
              .select({ id: transactions.id })
              .from(transactions)
              .where(
                and(
                  eq(transactions.vaultId, vaultId),
                  eq(transactions.category, 'STAKE'),
                  eq(transactions.blockChain, chain),
                  or(gte(transactions.createdAt, from), gte(transactions.updatedAt, from)),
                ),
              )
          ).map((r) => r.id);
          if (moving.length > 0) {
            await tx
              .update(transactions)
              .set({
                createdAt: back(transactions.createdAt),
                updatedAt: back(transactions.updatedAt),
              })
              .where(inArray(transactions.id, moving));
            await tx
              .update(transactionStatusEvents)
              .set({ at: back(transactionStatusEvents.at) })
              .where(inArray(transactionStatusEvents.transactionId, moving));
          }
          const paidUntil = new Date(from.getTime() - shiftMs);
          await tx
            .update(stakingPositions)
            .set({
              paidUntil,
              nextAt: new Date(
                epochBoundaryFrom(paidUntil.getTime(), terms.epochMs) + terms.epochMs,
              ),
            })
            .where(
              and(
                eq(stakingPositions.vaultId, vaultId),
                eq(stakingPositions.chain, chain),
                eq(stakingPositions.asset, position.asset),
              ),
            );
          return { asset: position.asset, paidUntil };
        });
        // Paid as the simulator's pass pays them: every position due, this one among them.
        await payStakingRewards(db, clock.now());
        const rewards = await db
          .select({ at: ledgerMovements.at, amount: ledgerMovements.amount })
          .from(ledgerMovements)
          .where(
            and(
              eq(ledgerMovements.vaultId, vaultId),
              eq(ledgerMovements.chain, chain),
              eq(ledgerMovements.asset, moved.asset),
              eq(ledgerMovements.kind, 'REWARD'),
              gte(ledgerMovements.at, moved.paidUntil),
            ),
          )
          .orderBy(asc(ledgerMovements.at));
        return {
          vaultId,
          chain,
          asset: moved.asset,
          rewards: rewards.map((r) => ({ at: r.at.toISOString(), amount: add(r.amount, '0') })),
        };
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
        const steady = body.steady ?? false;
        feeSurges.set(orgId, { subOrgId, chain: chain.value, factor: body.factor, steady, until });
        return {
          subOrgId,
          chain: chain.value,
          factor: body.factor,
          until: until.toISOString(),
          steady,
        };
      },
    },
  };
}
