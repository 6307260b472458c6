import { and, eq } from 'drizzle-orm';
import { sameAddress } from '#contract/addresses.ts';
import { CHAINS, chainInfo, type ChainInfo } from '#contract/chains.ts';
import { add, mul, round, scale } from '#contract/decimal.ts';
import type {
  FeeTier,
  ResourceType,
  TransactionCategory,
  TransactionSubCategory,
} from '#contract/enums.ts';
import type { CreateTransactionRequest, EstimateFeeRequest, Party } from '#contract/transaction.ts';
import { assets } from '../../../db/schema/sandbox.ts';
import { STAKING_TARGETS } from '../seed/chain-details.ts';
import type { Leg } from '../seed/movements.ts';
import { checkSentAddress, resolveDestination, resolveVault } from './parties.ts';
import {
  dataVariant,
  MAX_DATA_DEPTH,
  nestingDepth,
  takesVariant,
  VARIANT_SHAPES,
} from './contract-data.ts';
import { simulatedRevert, type SimulationPlan } from './plan.ts';
import { ENGINE_CODES, Problems } from './problems.ts';
import type { Executor } from './transitions.ts';

/**
 * The rules of endpoint 7 (and 8) that need the database: chain, asset and
 * precision, parties, and what each kind may do on which chain. The request's
 * shape was already checked by the contract's schema. Every broken rule is
 * reported at once, each naming its field (a 400); a valid request comes back
 * resolved into the columns of the new row.
 */

export interface ResolvedCreate {
  category: TransactionCategory;
  subCategory: TransactionSubCategory;
  blockChain: string;
  asset: string | null;
  amount: string | null;
  amountInUsd: string | null;
  vaultId: string;
  subOrgId: string | null;
  source: Party;
  destination: Party | null;
  feeTier: FeeTier;
  feePayerId: string | null;
  resourceType: ResourceType | null;
  contractData: Record<string, unknown> | null;
  externalId: string | null;
  memo: string | null;
  plan: SimulationPlan;
}

type Body = CreateTransactionRequest | EstimateFeeRequest;

function supportedChain(problems: Problems, blockChain: string): ChainInfo | undefined {
  const chain = chainInfo(blockChain);
  if (!chain)
    problems.add(
      'blockChain',
      ENGINE_CODES.unsupportedChain,
      `${blockChain} is not a chain the sandbox supports (${CHAINS.map((c) => c.value).join(', ')})`,
    );
  return chain;
}

/** The asset's USD price if it exists on the chain and the amount fits its decimals. */
async function checkAsset(
  db: Executor,
  problems: Problems,
  chain: ChainInfo,
  symbol: string,
  amount: string | undefined,
  amountField = 'amount',
): Promise<string | undefined> {
  const [asset] = await db
    .select()
    .from(assets)
    .where(and(eq(assets.symbol, symbol), eq(assets.blockChain, chain.value)))
    .limit(1);
  if (!asset) {
    problems.add(
      'asset',
      ENGINE_CODES.unknownAsset,
      `asset ${symbol} does not exist on ${chain.value}`,
    );
    return undefined;
  }
  // Trailing zeros carry no precision: "1.50" is fine for a 1-decimal asset.
  if (amount !== undefined && scale(add(amount, '0')) > asset.decimals)
    problems.add(
      amountField,
      ENGINE_CODES.amountPrecision,
      `${symbol} on ${chain.value} has ${asset.decimals} decimal places; ${amount} has more`,
    );
  return asset.usdPrice;
}

function usd(amount: string | undefined, price: string | undefined): string | null {
  return amount !== undefined && price !== undefined ? round(mul(amount, price), 2) : null;
}

export async function resolveCreate(
  db: Executor,
  orgId: string,
  body: Body,
): Promise<ResolvedCreate> {
  const problems = new Problems();
  const chain = supportedChain(problems, body.blockChain);
  if (!chain) problems.throwIfAny();
  const c = chain as ChainInfo;
  const native = c.nativeAsset;

  const sourceVaultId = body.category === 'CONTRACT_CALL' ? body.vaultId : body.source.id;
  const sourceField = body.category === 'CONTRACT_CALL' ? 'vaultId' : 'source.id';
  if (body.category !== 'CONTRACT_CALL' && body.source.type !== 'VAULT')
    problems.add(
      'source.type',
      ENGINE_CODES.sourceType,
      `source.type must be VAULT: the organization sends from its own vaults, not a ${body.source.type}`,
    );
  const source = problems.has('source')
    ? undefined
    : await resolveVault(db, problems, sourceField, orgId, sourceVaultId, c);

  if (body.category !== 'CONTRACT_CALL')
    checkSentAddress(problems, 'source', body.source, source?.party);

  const asset = body.category === 'CONTRACT_CALL' ? native : body.asset;
  const price = await checkAsset(db, problems, c, asset, body.amount);

  let destination: Party | null = null;
  let destinationIsVault = false;
  if (body.category === 'TRANSFER' || body.category === 'DELEGATE_RESOURCE') {
    const resolved = await resolveDestination(
      db,
      problems,
      orgId,
      body.destination,
      c,
      asset,
      source ? { subOrgId: source.vault.subOrgId } : undefined,
    );
    destination = resolved?.party ?? null;
    checkSentAddress(problems, 'destination', body.destination, resolved?.party);
    destinationIsVault = resolved?.vault !== undefined;
    if (resolved?.vault && resolved.vault.id === source?.vault.id)
      problems.add(
        'destination.id',
        ENGINE_CODES.sameParty,
        'destination must differ from source: a vault cannot send to itself',
      );
    // The same refusal when the source's own address is typed as an external one: the
    // transfer would pay its fee to move nothing, and reads to an approver as money leaving.
    const typed = resolved?.party.type === 'EXTERNAL_ADDRESS' ? resolved.party.address : undefined;
    if (typed && source && sameAddress(typed, source.wallet.address))
      problems.add(
        body.destination.address === undefined ? 'destination.id' : 'destination.address',
        ENGINE_CODES.sameParty,
        `destination must differ from source: ${typed} is the address of vault "${source.vault.vaultName}" itself, and a vault cannot send to itself`,
      );
  }

  let feePayer = source?.party;
  let feePayerId: string | null = null;
  if (body.category === 'TRANSFER' && 'feePayer' in body && body.feePayer) {
    if (!c.supportsFeePayer)
      problems.add(
        'feePayer',
        ENGINE_CODES.feePayerNotSupported,
        `${c.value} does not support a separate fee payer (sponsored fees: ${CHAINS.filter(
          (x) => x.supportsFeePayer,
        )
          .map((x) => x.value)
          .join(', ')})`,
      );
    else {
      const payer = await resolveVault(db, problems, 'feePayer.id', orgId, body.feePayer.id, c);
      feePayer = payer?.party;
      feePayerId = payer?.vault.id ?? null;
    }
  }

  const needsNative = (what: string) => {
    if (asset !== native)
      problems.add(
        'asset',
        ENGINE_CODES.nativeAssetRequired,
        `${what} on ${c.value} uses its native asset ${native}, not ${asset}`,
      );
  };
  if (body.category === 'STAKE') {
    if (!c.stake)
      problems.add(
        'blockChain',
        ENGINE_CODES.stakeNotSupported,
        `the sandbox stakes on ${CHAINS.filter((x) => x.stake)
          .map((x) => x.value)
          .join(', ')}, not ${c.value}`,
      );
    else needsNative('Staking');
  }
  if (body.category === 'STAKE') {
    // A delegation off TRON is refused as a whole below; this is for stakes.
    if (body.resourceType && !c.tronResources)
      problems.add(
        'resourceType',
        ENGINE_CODES.resourceTypeNotSupported,
        `resourceType (${body.resourceType}) is a TRON resource; ${c.value} has none`,
      );
  }
  if (body.category === 'DELEGATE_RESOURCE') {
    if (!c.tronResources)
      problems.add(
        'blockChain',
        ENGINE_CODES.delegateNotSupported,
        `resources can be delegated only on TRON, not ${c.value}`,
      );
    else needsNative('Delegating resources');
  }
  if (body.category === 'CONTRACT_CALL') {
    if (!c.contractCall)
      problems.add(
        'blockChain',
        ENGINE_CODES.contractCallNotSupported,
        `${c.value} does not run contract calls`,
      );
    else if (body.data && nestingDepth(body.data) > MAX_DATA_DEPTH)
      problems.add(
        'data',
        ENGINE_CODES.contractDataTooDeep,
        `data nests more than ${MAX_DATA_DEPTH} levels deep`,
      );
    else if (body.data && !takesVariant(c, dataVariant(body.data)))
      problems.add(
        'data',
        ENGINE_CODES.contractDataMismatch,
        `a contract call on ${c.value} takes ${VARIANT_SHAPES[c.contractCall]}, not ${VARIANT_SHAPES[dataVariant(body.data)]}`,
      );
  }

  problems.throwIfAny();
  // Every branch that leaves these unset added a problem above.
  const from = source as NonNullable<typeof source>;
  return {
    category: body.category,
    subCategory:
      body.category === 'STAKE'
        ? (body.subCategory ?? 'STAKE')
        : subCategoryFor(body.category, destinationIsVault),
    blockChain: c.value,
    asset: body.category === 'CONTRACT_CALL' ? null : asset,
    amount: body.amount ?? null,
    amountInUsd: usd(body.amount, price),
    vaultId: from.vault.id,
    subOrgId: from.vault.subOrgId,
    source: from.party,
    destination,
    feeTier: ('gasParams' in body ? body.gasParams?.feeTier : undefined) ?? 'HIGH',
    feePayerId,
    resourceType: 'resourceType' in body ? (body.resourceType ?? null) : null,
    contractData: body.category === 'CONTRACT_CALL' ? (body.data ?? null) : null,
    externalId: 'externalId' in body ? (body.externalId ?? null) : null,
    memo: 'memo' in body ? (body.memo ?? null) : null,
    plan: planFor(body, c, from.party, destination, feePayer ?? from.party),
  };
}

/** Every kind a create takes but a transfer is a sub-category of its own name. */
function subCategoryFor(category: Body['category'], toVault: boolean): TransactionSubCategory {
  if (category === 'TRANSFER') return toVault ? 'INTERNAL_TRANSFER' : 'EXTERNAL_TRANSFER';
  return category;
}

function planFor(
  body: Body,
  chain: ChainInfo,
  source: Party,
  destination: Party | null,
  feePayer: Party,
): SimulationPlan {
  const leg = (to: Party, asset: string, amount: string): Leg => ({
    type: 'TRANSFER',
    source,
    destination: to,
    asset,
    amount,
    chain: chain.value,
    onChain: true,
  });
  const legs: Leg[] = [];
  if (body.category === 'TRANSFER' && destination)
    legs.push(leg(destination, body.asset, body.amount));
  if (body.category === 'STAKE') {
    const pool: Party = {
      type: 'EXTERNAL_ADDRESS',
      name: STAKING_TARGETS[chain.value] ?? 'Staking',
      chain: chain.value,
    };
    // An unstake comes back from the pool to the vault, credited at completion.
    if (body.subCategory === 'UNSTAKE')
      legs.push({ ...leg(pool, body.asset, body.amount), source: pool, destination: source });
    else legs.push(leg(pool, body.asset, body.amount));
  }
  if (body.category === 'CONTRACT_CALL' && body.amount) {
    const data = (body.data ?? {}) as Record<string, unknown>;
    const target = [data.toAddress, data.canisterId].find((v) => typeof v === 'string');
    const contract: Party = {
      type: 'EXTERNAL_ADDRESS',
      name: 'Contract',
      ...(typeof target === 'string' ? { address: target } : {}),
      chain: chain.value,
    };
    legs.push(leg(contract, chain.nativeAsset, body.amount));
  }
  // A resource delegation lends staked bandwidth or energy: no balance moves.
  const revert = simulatedRevert({
    data:
      body.category === 'CONTRACT_CALL' ? (body.data as Record<string, unknown> | undefined) : null,
    memo: 'memo' in body ? body.memo : undefined,
  });
  return { legs, feePayer, ...(revert ? { revert } : {}) };
}
