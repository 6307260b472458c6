import type { InferInsertModel } from 'drizzle-orm';
import { chainInfo } from '#contract/chains.ts';
import { TRANSACTION_STATUSES, type FeeTier, type TransactionStatus } from '#contract/enums.ts';
import type { transactionStatusEvents, transactions } from '../../../db/schema/sandbox.ts';
import { estimateFees, feeForTier } from '../fee-model.ts';
import { inFlightState } from './in-flight.ts';
import { statusPath, timeline, type LifecycleVariant, type TimedStatus } from './lifecycle.ts';
import { feeOnly, settle, usdValue, type FeeCharge } from './movements.ts';
import { fakeTxHash, type SeedRandom } from './random.ts';
import { nativeAsset } from './reference-data.ts';
import {
  SEEDED_CATEGORIES,
  shapeFor,
  type SeededCategory,
  type ShapeContext,
  type TransactionShape,
} from './transaction-shapes.ts';

/**
 * A few hundred historical transactions of every category and every status
 * over the last 60 days, each with the status events that led to it.
 */

export type TransactionSeedRow = InferInsertModel<typeof transactions> & {
  id: string;
  status: TransactionStatus;
  createdAt: Date;
};
export type StatusEventSeedRow = InferInsertModel<typeof transactionStatusEvents>;

const CATEGORY_WEIGHTS: ReadonlyArray<readonly [SeededCategory, number]> = [
  ['TRANSFER', 30],
  ['TOKEN_TRANSFER', 20],
  ['SWAP', 8],
  ['TOKEN_APPROVAL', 4],
  ['CONTRACT_CALL', 8],
  ['STAKE', 8],
  ['REVOKE_TOKEN_ALLOWANCE', 3],
  ['ON_RAMP', 6],
  ['OFF_RAMP', 6],
  ['DELEGATE_RESOURCE', 5],
];

const STATUS_WEIGHTS: ReadonlyArray<readonly [TransactionStatus, number]> = [
  ['COMPLETED', 70],
  ['FAILED', 8],
  ['DECLINED', 4],
  ['PENDING', 5],
  ['DRAFT', 2],
  ['APPROVED', 2],
  ['SIGNED', 2],
  ['SUBMITTED', 4],
  ['WAITING_CONFIRMATION', 3],
];

const MEMOS = [
  'Monthly rebalance to exchange',
  'Vendor invoice INV-2041',
  'Payroll batch',
  'Market maker top-up',
  'Treasury sweep',
  'Customer withdrawal batch',
  'Quarterly staking rotation',
  'Liquidity provisioning',
];

const REVERTS: Record<string, readonly string[]> = {
  EVM: [
    'Execution reverted: ERC20: transfer amount exceeds allowance',
    'Execution reverted: out of gas',
  ],
  SOLANA: ['Transaction simulation failed: custom program error 0x1'],
  TRON: ['Contract validate error: account resource insufficient'],
  UTXO: ['Transaction dropped from mempool: fee below minimum relay fee'],
  ICP: ['Canister rejected the call: insufficient cycles'],
};

/** Every category × every status once, then weighted draws for the rest. */
function plan(rng: SeedRandom, count: number): Array<[SeededCategory, TransactionStatus]> {
  const out: Array<[SeededCategory, TransactionStatus]> = [];
  for (const category of SEEDED_CATEGORIES) {
    for (const status of TRANSACTION_STATUSES) out.push([category, status]);
  }
  while (out.length < count)
    out.push([rng.weighted(CATEGORY_WEIGHTS), rng.weighted(STATUS_WEIGHTS)]);
  return out;
}

function variantFor(
  rng: SeedRandom,
  category: SeededCategory,
  status: TransactionStatus,
): LifecycleVariant {
  const canArrive = category === 'TRANSFER' || category === 'TOKEN_TRANSFER';
  if (canArrive && (status === 'COMPLETED' || status === 'WAITING_CONFIRMATION') && rng.chance(0.3))
    return 'incoming';
  if (status === 'FAILED') return rng.chance(0.5) ? 'insufficient' : 'reverted';
  return 'outgoing';
}

export interface TransactionSeed {
  transactions: TransactionSeedRow[];
  events: StatusEventSeedRow[];
  /** The fee each transaction was charged and who paid it, by id: the ledger books it as live ones are. */
  fees: Map<string, FeeCharge>;
}

export function buildTransactions(ctx: ShapeContext, now: Date, count: number): TransactionSeed {
  const { rng, ref } = ctx;
  const rows: TransactionSeedRow[] = [];
  const events: StatusEventSeedRow[] = [];
  const fees = new Map<string, FeeCharge>();

  plan(rng, count).forEach(([category, status], index) => {
    const variant = variantFor(rng, category, status);
    const shape = shapeFor(ctx, category, variant === 'incoming');
    const times = timeline(rng, now, statusPath(status, variant), variant);
    const { row, fee } = assemble(rng, ctx, shape, status, variant, times, index, now);
    rows.push(row);
    fees.set(row.id, fee);
    for (const t of times) events.push({ transactionId: row.id, status: t.status, at: t.at });
  });

  assignNonces(
    rows,
    ref.vaults.map((v) => v.id),
  );
  return { transactions: rows, events, fees };
}

function assemble(
  rng: SeedRandom,
  ctx: ShapeContext,
  shape: TransactionShape,
  status: TransactionStatus,
  variant: LifecycleVariant,
  times: readonly TimedStatus[],
  index: number,
  now: Date,
): { row: TransactionSeedRow; fee: FeeCharge } {
  const path = times.map((t) => t.status);
  const createdAt = times[0]?.at ?? now;
  const native = nativeAsset(shape.chain);
  const incoming = variant === 'incoming';
  const tier: FeeTier | null = incoming
    ? null
    : rng.weighted<FeeTier>([
        ['HIGH', 5],
        ['MEDIUM', 3],
        ['LOW', 2],
      ]);
  // As the engine does: the fee charged is the chosen tier's estimate when signing.
  const signedAt = times.find((t) => t.status === 'SIGNED')?.at ?? createdAt;
  const estimate = estimateFees({
    blockChain: shape.chain,
    asset: shape.asset?.symbol ?? native.symbol,
    amount: shape.amount ?? '0',
    now: signedAt,
  });
  const feeData = feeForTier(estimate, tier ?? 'MEDIUM');
  const fee: FeeCharge = {
    payer: shape.feePayer,
    asset: native.symbol,
    amount: feeData.expectedFeeInAsset,
    chain: shape.chain,
  };
  const signed = path.includes('SIGNED') || incoming;
  const broadcast = path.includes('SUBMITTED') || incoming;
  const kind = chainInfo(shape.chain)?.kind ?? 'EVM';

  let operations = null;
  let balanceChanges = null;
  if (status === 'COMPLETED') {
    const settled = settle(shape.legs, fee, {
      source: shape.source,
      ...(shape.destination ? { destination: shape.destination } : {}),
    });
    operations = settled.operations;
    balanceChanges = { changes: settled.changes };
  } else if (status === 'FAILED' && variant === 'reverted') {
    // The chain charged the fee even though nothing else moved.
    balanceChanges = { changes: feeOnly(fee) };
  }

  let error: string | null = null;
  if (status === 'FAILED') {
    error =
      variant === 'insufficient'
        ? `Insufficient balance: ${shape.vault.vaultName} cannot cover ${shape.amount ?? '0'} ${shape.asset?.symbol ?? native.symbol} plus the network fee on ${shape.chain}`
        : rng.pick(REVERTS[kind] ?? ['Execution reverted']);
  }

  const row: TransactionSeedRow = {
    id: rng.uuid(),
    orgId: ctx.ref.org.id,
    subOrgId: shape.vault.subOrgId ?? null,
    vaultId: shape.vault.id,
    status,
    category: shape.category,
    subCategory: shape.subCategory,
    transactionType: shape.transactionType,
    blockChain: shape.chain,
    asset: shape.asset?.symbol ?? null,
    amount: shape.amount,
    amountInUsd: shape.amount && shape.asset ? usdValue(shape.amount, shape.asset.usdPrice) : null,
    externalId:
      !incoming && rng.chance(0.4)
        ? `nw-${shape.category.toLowerCase().replace(/_/g, '-')}-${String(index + 1).padStart(4, '0')}`
        : null,
    memo: !incoming && rng.chance(0.5) ? rng.pick(MEMOS) : null,
    source: shape.source,
    destination: shape.destination,
    operations,
    balanceChanges,
    fees: signed
      ? { amount: fee.amount, asset: fee.asset, amountInFiat: feeData.expectedFeeInUSD }
      : null,
    feeTier: tier,
    feePayerId: shape.feePayerVaultId,
    resourceType: shape.resourceType,
    contractData: shape.contractData,
    bankAccountId: shape.bankAccountId,
    ...inFlightState(times.at(-1)?.at ?? createdAt, now, status, shape.legs, fee),
    txHash: broadcast ? fakeTxHash(rng, kind) : null,
    nonce: null,
    error,
    createdById: incoming ? null : rng.pick(ctx.ref.creatorIds),
    createdAt,
    updatedAt: times.at(-1)?.at ?? createdAt,
  };
  return { row, fee };
}

/**
 * EVM nonces count each sending vault's broadcasts on a chain, in time order.
 * Only transactions that reached the chain have one.
 */
function assignNonces(rows: TransactionSeedRow[], vaultIds: readonly string[]): void {
  const sent = rows
    .filter(
      (r) =>
        r.txHash && r.transactionType === 'OUTGOING' && chainInfo(r.blockChain)?.kind === 'EVM',
    )
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const next = new Map<string, number>();
  for (const row of sent) {
    const key = `${row.vaultId ?? ''}:${row.blockChain}`;
    // Each vault starts from a different, plausible history length.
    const nonce = next.get(key) ?? 40 + vaultIds.indexOf(row.vaultId ?? '') * 17;
    row.nonce = nonce;
    next.set(key, nonce + 1);
  }
}
