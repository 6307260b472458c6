import type {
  ApprovalCard,
  CardBalanceChange,
  CardCall,
  CardDestination,
  CardQuote,
  CardVault,
} from '#contract/approval-card.ts';
import { describeContractCall, readCallData } from '#contract/call-data.ts';
import { add, cmp, isDecimalString, neg } from '#contract/decimal.ts';
import type { FrozenRequirement } from '#contract/policies.ts';
import type { CreateTransactionRequest, Party, Transaction } from '#contract/transaction.ts';
import type { SwapCreateRequest } from '#contract/trades.ts';
import { draftRequirement, draftSwapRequirement } from '../../policies/guard.ts';
import { costOf } from '../cost.ts';
import { canonicalAmount, frozenOf, last4, orNull, ruleOf, vaultOf } from './parts.ts';
import type { ApprovableKind, CardContext } from '../core/kind.ts';

/**
 * A transaction's card, every category alike (transfers, contract calls,
 * stakes, ramps and FX…): made from the fields a create body and the created
 * item share, each name read afresh, so a draft's card (the initiator's
 * preview) and the created item's are one intent.
 */

const vaultIdOf = (tx: Transaction): string | undefined =>
  tx.source?.type === 'VAULT' && tx.source.id ? tx.source.id : tx.vaultId;

/** Where it goes, resolved: our vault, an approved contact (since when), an address, a bank by rail and last 4. */
async function destinationOf(card: CardContext, tx: Transaction): Promise<CardDestination | null> {
  const party: Party | undefined = tx.destination;
  if (!party?.type) return null;
  const chain = tx.blockChain ?? null;
  const base: CardDestination = {
    type: party.type,
    id: party.id ?? null,
    name: null,
    address: null,
    blockChain: chain,
    rail: null,
    last4: null,
    ours: false,
    approvedContact: false,
    approvedContactSince: null,
  };
  switch (party.type) {
    case 'VAULT': {
      const vault = party.id ? await orNull(card.backend.getVault(card.ctx, party.id)) : null;
      const wallet = vault?.wallets?.find((w) => w.blockchain === chain);
      return {
        ...base,
        name: vault?.vaultName ?? null,
        address: wallet?.address ?? null,
        ours: true,
      };
    }
    case 'CONTACT': {
      const contact = party.id ? await orNull(card.backend.getContact(card.ctx, party.id)) : null;
      const approved = contact?.status === 'APPROVED';
      return {
        ...base,
        name: contact?.name ?? null,
        address: contact?.address ?? null,
        blockChain: contact?.blockChain ?? chain,
        approvedContact: approved,
        approvedContactSince: approved && party.id ? await approvedSince(card, party.id) : null,
      };
    }
    case 'BANK_ACCOUNT':
    case 'EXTERNAL_BANK_ACCOUNT': {
      const account = party.id
        ? await orNull(card.backend.getBankAccount(card.ctx, party.id))
        : null;
      const shown = party.bankDetails;
      return {
        ...base,
        blockChain: null,
        name: account?.accountName ?? shown?.accountName ?? null,
        rail: account?.paymentMethod ?? shown?.paymentRail ?? party.paymentRail ?? null,
        last4: last4(account?.accountNumber ?? shown?.accountNumberMasked),
      };
    }
    default:
      // An address typed in, named by nothing of ours: the create body carries it as `address`
      // or as its `id`, the created item as `address`, so the address alone says where it goes.
      return { ...base, id: null, address: party.address ?? party.id ?? null };
  }
}

/** When a contact was approved: its change requests' first approval, where the backend keeps them. */
async function approvedSince(card: CardContext, contactId: string): Promise<string | null> {
  const history = await orNull(
    card.backend.changeRequestHistory?.(card.ctx, contactId) ?? Promise.resolve(null),
  );
  return history?.find((r) => r.status === 'APPROVED' && r.decidedAt)?.decidedAt ?? null;
}

/** What a contract call does, in words, and its decoded parts. */
function callOf(tx: Transaction): CardCall | null {
  if (tx.category !== 'CONTRACT_CALL') return null;
  const data = tx.data;
  const description = describeContractCall(data, tx.blockChain) ?? 'Contract call (no data)';
  const contract = typeof data?.['toAddress'] === 'string' ? data['toAddress'] : null;
  const callData = typeof data?.['callData'] === 'string' ? data['callData'] : null;
  const reading = callData ? readCallData(callData) : null;
  if (reading?.kind !== 'decoded')
    return { description, contract, function: null, spender: null, amount: null, unlimited: false };
  const { call } = reading;
  const arg = (...names: string[]) => call.args.find((a) => names.includes(a.name))?.value ?? null;
  return {
    description,
    contract,
    function: call.signature,
    spender: arg('spender', 'operator'),
    amount: arg('amount', 'addedValue', 'subtractedValue'),
    unlimited: call.unlimited,
  };
}

function quoteOf(tx: Transaction): CardQuote | null {
  // A swap's quote is the provider's answer it executes: its rate is the target per source unit.
  const trade = tx.tradeResponseData;
  if (trade?.quoteId)
    return {
      quoteId: trade.quoteId,
      provider: trade.sourceName ?? null,
      rate: trade.unitToAssetAmount ?? null,
      arrivesAmount: canonicalAmount(trade.finalToAmount),
      arrivesAsset: tx.toAsset ?? null,
      expiresAt: trade.quotesValidTill ?? null,
    };
  const quote = tx.quoteResponse;
  if (!quote) return null;
  return {
    quoteId: quote.quoteId,
    provider: quote.sourceName ?? quote.destination?.provider ?? quote.source?.provider ?? null,
    rate: quote.rate ?? null,
    arrivesAmount: canonicalAmount(quote.finalToAmount),
    arrivesAsset: quote.toAsset ?? null,
    expiresAt: quote.expiresAt ?? null,
  };
}

/**
 * Each vault of ours the item touches, per asset: before it (the balance
 * now) and after. The source pays what leaves (amount and fee, as the cost
 * adds them up); our own destination vault receives the amount, or what the
 * quote says arrives.
 */
async function balancesOf(
  card: CardContext,
  tx: Transaction,
  source: CardVault | null,
  leaving: ReadonlyArray<{ amount: string; asset: string; blockChain: string | null }>,
  destination: CardDestination | null,
  quote: CardQuote | null,
): Promise<CardBalanceChange[]> {
  const moves: Array<{
    vault: CardVault;
    asset: string;
    blockChain: string | null;
    change: string;
  }> = [];
  if (source)
    for (const f of leaving)
      if (isDecimalString(f.amount) && cmp(f.amount, '0') > 0)
        moves.push({
          vault: source,
          asset: f.asset,
          blockChain: f.blockChain,
          change: neg(f.amount),
        });
  if (destination?.ours && destination.id) {
    const arriving = quote
      ? {
          amount: quote.arrivesAmount,
          asset: quote.arrivesAsset,
          chain: tx.quoteResponse?.toChain ?? tx.toBlockChain,
        }
      : { amount: canonicalAmount(tx.amount), asset: tx.asset, chain: tx.blockChain };
    if (arriving.amount && arriving.asset && isDecimalString(arriving.amount))
      moves.push({
        vault: { id: destination.id, name: destination.name },
        asset: arriving.asset,
        blockChain: arriving.chain ?? null,
        change: arriving.amount,
      });
  }
  const balances = new Map<string, Record<string, Record<string, string>> | null>();
  for (const { vault } of moves)
    if (!balances.has(vault.id))
      balances.set(vault.id, await orNull(card.backend.getVaultBalances(card.ctx, vault.id)));
  return moves.map((m) => {
    const held = balances.get(m.vault.id);
    const before = held ? (held[m.asset]?.[m.blockChain ?? ''] ?? '0') : null;
    return {
      ...m,
      before: before === null ? null : canonicalAmount(before),
      after: before === null ? null : add(before, m.change),
    };
  });
}

/** The card of a transaction as answered (or a draft made from its create body). */
export async function transactionCard(
  card: CardContext,
  tx: Transaction,
  frozen: { requirement: FrozenRequirement | null; quorum: ApprovalCard['status']['quorum'] },
): Promise<ApprovalCard> {
  const vaultId = vaultIdOf(tx);
  const computedAt = card.clock.now().toISOString();
  const [source, destination, cost, rule] = await Promise.all([
    vaultId ? vaultOf(card, vaultId) : Promise.resolve(null),
    destinationOf(card, tx),
    costOf(card.backend, card.ctx, tx),
    ruleOf(card, frozen.requirement),
  ]);
  const quote = quoteOf(tx);
  const amount = canonicalAmount(tx.amount);
  // A call that sends nothing states no amount: its draft has none and its item says 0.
  const sends = amount !== null && !(isDecimalString(amount) && cmp(amount, '0') === 0);
  const fee = cost.fee;
  const price =
    sends && tx.asset && tx.blockChain && card.backend.usdValue
      ? await card.backend
          .usdValue(card.ctx, tx.asset, tx.blockChain, '1', vaultId)
          .catch(() => null)
      : null;
  return {
    intent: {
      kind: 'TRANSACTION',
      category: tx.category ?? 'UNKNOWN',
      source,
      destination,
      asset: sends ? (tx.asset ?? null) : null,
      blockChain: tx.blockChain ?? null,
      amount: sends ? amount : null,
      assets: null,
      feeCeiling: fee
        ? {
            tier: fee.tier,
            maxFee: canonicalAmount(fee.amount) ?? fee.amount,
            asset: fee.asset,
            blockChain: fee.blockChain,
          }
        : null,
      call: callOf(tx),
      quote,
      rule,
    },
    status: {
      entityId: tx.id ?? null,
      state: tx.status ?? null,
      createdAt: tx.createdAt ?? null,
      computedAt,
      amountUsd: sends ? (cost.amount?.usd ?? null) : null,
      priceUsd: price,
      feeCeilingUsd: fee?.usd ?? null,
      balances: await balancesOf(card, tx, source, cost.leaving, destination, quote),
      quorum: frozen.quorum,
    },
  };
}

export const transactionKind: ApprovableKind = {
  kind: 'TRANSACTION',
  async stateOf(card, entityId) {
    const tx = await card.backend.getTransaction(card.ctx, entityId);
    return { pending: tx.status === 'PENDING', subOrgId: tx.subOrgId ?? null };
  },
  async loadCard(card, entityId) {
    const tx = await orNull(card.backend.getTransaction(card.ctx, entityId));
    if (!tx) return null;
    return transactionCard(card, tx, await frozenOf(card, entityId, tx.subOrgId, false));
  },
};

/**
 * A create body as the transaction it would make: the fields the card reads,
 * named as the created item names them. Nothing is sent.
 */
export function draftTransaction(body: CreateTransactionRequest): Transaction {
  const common = {
    category: body.category,
    blockChain: body.blockChain,
    ...(body.amount !== undefined ? { amount: body.amount } : {}),
    ...(body.gasParams ? { gasParams: body.gasParams } : {}),
    transactionType: 'OUTGOING' as const,
  };
  if (body.category === 'CONTRACT_CALL')
    return {
      ...common,
      vaultId: body.vaultId,
      source: { type: 'VAULT', id: body.vaultId },
      ...(body.data ? { data: body.data as Record<string, unknown> } : {}),
    };
  return {
    ...common,
    asset: body.asset,
    source: { type: body.source.type, id: body.source.id },
    ...('destination' in body
      ? {
          destination: {
            type: body.destination.type,
            id: body.destination.id,
            ...(body.destination.address ? { address: body.destination.address } : {}),
          },
        }
      : {}),
    ...(body.category === 'DELEGATE_RESOURCE' || body.category === 'STAKE'
      ? body.resourceType
        ? { resourceType: body.resourceType }
        : {}
      : {}),
  };
}

/** The card a draft would have if the member sent it now: the rule it would freeze, no quorum yet. */
export async function previewTransactionCard(
  card: CardContext,
  body: CreateTransactionRequest,
): Promise<ApprovalCard> {
  const requirement = await draftRequirement(
    card.backend,
    { db: card.db, clock: card.clock },
    card.ctx,
    body,
  );
  return transactionCard(card, draftTransaction(body), { requirement, quorum: null });
}

/**
 * A swap's card before it is sent: made from the transaction its quote would
 * make (checked as the create checks it: an expired or used quote is refused
 * here too), with the rule its create would freeze.
 */
export async function previewSwapCard(
  card: CardContext,
  body: SwapCreateRequest,
): Promise<ApprovalCard> {
  const { requirement, made } = await draftSwapRequirement(
    card.backend,
    { db: card.db, clock: card.clock },
    card.ctx,
    body,
  );
  return transactionCard(card, made, { requirement, quorum: null });
}
