import { randomInt, randomUUID } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { CHAINS, chainInfo, chainLabel } from '#contract/chains.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { mul, round } from '#contract/decimal.ts';
import type { Clock } from '../../../clock.ts';
import type { CustodyContext } from '../../../custody/call-context.ts';
import { noOrganization } from '../../../custody/sandbox/engine/problems.ts';
import { canonicalDecimal } from '../../../custody/sandbox/mappers.ts';
import { fakeAddress, SeedRandom } from '../../../custody/sandbox/seed/random.ts';
import { newWalletAddress } from '../../../custody/sandbox/wallet-keys.ts';
import { contractOf } from '../../../custody/sandbox/seed/reference-data.ts';
import type { Database } from '../../../db/client.ts';
import {
  apiUsers,
  assets,
  subOrgs,
  vaultBalances,
  vaults,
  wallets,
} from '../../../db/schema/sandbox.ts';
import { creatorOf, openChangeRequest } from '../../../custody/sandbox/change-request.ts';
import type { ReferencePort } from '../../reference/port.ts';
import type { VaultsPort } from '../port.ts';

/** What vaults need of the sandbox composite (a subset of its SandboxDeps). */
interface VaultsSandboxDeps {
  db: Database;
  clock: Clock;
  orgIdFor(ctx: CustodyContext): Promise<string | null>;
  /** Vaults are read through reference data's port, as every capability reads another's. */
  reference: Pick<ReferencePort, 'getVault' | 'getVaultBalances'>;
}

function invalid(field: string, message: string): ApiError {
  return new ApiError(400, ERROR_CODES.validation, message, [{ field, message }]);
}

export function vaultsSandbox({ db, clock, orgIdFor, reference }: VaultsSandboxDeps): VaultsPort {
  return {
    /**
     * Each balance row with the asset's reference price (assets.usd_price, the
     * table fees and amountInUSD are valued from) and balance × price to the
     * cent, through the decimal module.
     */
    async getDetailedBalances(ctx, vaultId) {
      await reference.getVault(ctx, vaultId);
      const rows = await db
        .select({ balance: vaultBalances, asset: assets })
        .from(vaultBalances)
        .leftJoin(
          assets,
          and(eq(assets.symbol, vaultBalances.asset), eq(assets.blockChain, vaultBalances.chain)),
        )
        .where(eq(vaultBalances.vaultId, vaultId))
        .orderBy(asc(vaultBalances.asset), asc(vaultBalances.chain));
      return rows.map(({ balance, asset }) => {
        const amount = canonicalDecimal(balance.amount);
        const price = asset ? canonicalDecimal(asset.usdPrice) : null;
        return {
          symbol: balance.asset,
          balance: amount,
          name: asset?.name ?? null,
          chain: balance.chain,
          tokenAddress: contractOf(balance.asset, balance.chain),
          price,
          balanceInUSD: price === null ? null : round(mul(amount, price), 2),
        };
      });
    },
    // The sandbox's balances move with every completed transaction: nothing to re-read.
    updateBalances: (ctx, vaultId) => reference.getVaultBalances(ctx, vaultId),
    /**
     * An address for every asset the vault can hold: each asset the sandbox
     * lists on a chain the vault has a wallet on (a chain's tokens share its
     * wallet's address), or only `currency`'s, matched whatever its case.
     * A currency the sandbox does not list, or one on no chain the vault has
     * a wallet on, is refused naming `currency` rather than answered empty.
     */
    async getDepositAddress(ctx, query) {
      const vault = await reference.getVault(ctx, query.vaultId);
      const listed = await db
        .select({ symbol: assets.symbol, chain: assets.blockChain })
        .from(assets)
        .orderBy(asc(assets.symbol), asc(assets.blockChain));
      const wanted = query.currency?.toUpperCase();
      const held = wanted ? listed.filter((a) => a.symbol.toUpperCase() === wanted) : listed;
      if (query.currency && held.length === 0)
        throw invalid(
          'currency',
          `currency "${query.currency}" is not an asset here; the sandbox lists ${[...new Set(listed.map((a) => a.symbol))].join(', ')}`,
        );
      const walletOn = new Map(
        (vault.wallets ?? []).filter((w) => w.blockchain).map((w) => [w.blockchain, w]),
      );
      const addresses = held.flatMap((asset) => {
        const wallet = walletOn.get(asset.chain);
        if (!wallet) return [];
        return [
          {
            id: wallet.id ?? null,
            address: wallet.address ?? null,
            chain: asset.chain,
            chainName: chainLabel(asset.chain),
            label: `${vault.vaultName ?? 'Vault'} on ${chainLabel(asset.chain)}`,
            asset: asset.symbol,
          },
        ];
      });
      if (query.currency && addresses.length === 0)
        throw invalid(
          'currency',
          `vault "${vault.vaultName ?? query.vaultId}" has no wallet on a chain of ${held[0]?.symbol ?? query.currency} (${held.map((a) => a.chain).join(', ')})`,
        );
      return { addresses };
    },
    async createVault(ctx, body) {
      const orgId = await orgIdFor(ctx);
      if (!orgId) throw noOrganization();
      const chains = body.chains ?? CHAINS.map((c) => c.value);
      const unknown = chains.filter((c) => !chainInfo(c));
      if (unknown.length > 0) {
        throw invalid(
          'chains',
          `chains names ${unknown.join(', ')}, not a chain the sandbox supports`,
        );
      }
      const now = clock.now();
      const creator = creatorOf(ctx.actor);
      // Wallet addresses of the sandbox's own making: an EVM wallet's from its key (wallet-keys.ts),
      // elsewhere the shape of the chain's, from no key.
      const rng = new SeedRandom(randomInt(2 ** 31));
      const id = await db.transaction(async (tx) => {
        if (body.subOrgId) {
          const [subOrg] = await tx
            .select({ id: subOrgs.id })
            .from(subOrgs)
            .where(and(eq(subOrgs.id, body.subOrgId), eq(subOrgs.orgId, orgId)))
            .limit(1);
          if (!subOrg) {
            throw invalid(
              'subOrgId',
              `subOrgId "${body.subOrgId}" is not a sub-organization of this organization`,
            );
          }
        }
        // vaultSigners: API users of this organization, who act on its operations (engine/user-action.ts).
        const signerIds = body.vaultSigners ?? [];
        const signers =
          signerIds.length === 0
            ? []
            : await tx
                .select({ id: apiUsers.id, name: apiUsers.name })
                .from(apiUsers)
                .where(and(eq(apiUsers.orgId, orgId), inArray(apiUsers.id, signerIds)));
        const strangers = signerIds.filter((id) => !signers.some((s) => s.id === id));
        if (strangers.length > 0)
          throw invalid(
            'vaultSigners',
            `vaultSigners names ${strangers.join(', ')}, not an API user of this organization`,
          );
        const vaultId = randomUUID();
        await tx.insert(vaults).values({
          id: vaultId,
          orgId,
          subOrgId: body.subOrgId ?? null,
          vaultName: body.vaultName,
          vaultType: 'DEFAULT',
          signers: signers.map((s) => ({ id: s.id, firstName: s.name, type: 'API_USER' })),
          createdAt: now,
          updatedAt: now,
        });
        if (chains.length > 0) {
          await tx.insert(wallets).values(
            chains.map((chain) => {
              const walletId = randomUUID();
              return {
                id: walletId,
                vaultId,
                blockchain: chain,
                address: newWalletAddress(walletId, chain, () =>
                  fakeAddress(rng, chainInfo(chain)?.kind ?? 'EVM'),
                ),
                createdAt: now,
              };
            }),
          );
        }
        await openChangeRequest(tx, {
          orgId,
          entityType: 'VAULT',
          entityId: vaultId,
          creator,
          now,
        });
        return vaultId;
      });
      return reference.getVault(ctx, id);
    },
  };
}
