import { operationIdOf } from '#contract/operations.ts';
import type { InferSelectModel } from 'drizzle-orm';
import type { BankAccount } from '#contract/bank-account.ts';
import { add } from '#contract/decimal.ts';
import { depositBank, paidBank } from '#contract/ramp-banks.ts';
import type { Contact, SubOrg, Vault } from '#contract/reference.ts';
import type { Party, Transaction } from '#contract/transaction.ts';
import type { RawSignature } from './engine/raw-signing.ts';
import type {
  bankAccounts,
  contacts,
  subOrgs,
  transactions,
  vaults,
  wallets,
} from '../../db/schema/sandbox.ts';

/**
 * Database rows → wire records. Timestamps become ISO 8601 UTC strings;
 * NUMERIC values become canonical decimal strings.
 */

export type TransactionRow = InferSelectModel<typeof transactions>;
export type BankAccountRow = InferSelectModel<typeof bankAccounts>;
export type VaultRow = InferSelectModel<typeof vaults>;
export type WalletRow = InferSelectModel<typeof wallets>;
export type ContactRow = InferSelectModel<typeof contacts>;
export type SubOrgRow = InferSelectModel<typeof subOrgs>;

/**
 * PostgreSQL hands NUMERIC back as written, scale included ("1.500", "0E-8"
 * is possible after arithmetic); the API answers the canonical form ("1.5").
 * Adding zero through the decimal module normalises without a float.
 */
export function canonicalDecimal(value: string): string {
  return add(value, '0');
}

/** Drops null and undefined members: in a transaction, an absent field is "not known yet". */
function present<T extends Record<string, unknown>>(
  record: T,
): { [K in keyof T]?: Exclude<T[K], null> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value !== null && value !== undefined) out[key] = value;
  }
  return out as { [K in keyof T]?: Exclude<T[K], null> };
}

export function toWireTransaction(row: TransactionRow): Transaction {
  return present({
    id: row.id,
    orgId: row.orgId,
    subOrgId: row.subOrgId,
    // The SDKs require a vaultId on every transaction; an FX (RAMP) involves none.
    vaultId: row.vaultId ?? (row.category === 'RAMP' ? '' : null),
    status: row.status,
    transactionType: row.transactionType,
    category: row.category,
    subCategory: row.subCategory,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    isDeleted: row.isDeleted,
    externalId: row.externalId,
    memo: row.memo,
    source: rampSource(row),
    destination: rampDestination(row),
    blockChain: row.blockChain,
    asset: row.asset,
    // The SDKs require an amount on every transaction; a contract call that
    // sends no native value sends 0 (the description: no asset on a contract call).
    amount:
      row.amount !== null
        ? canonicalDecimal(row.amount)
        : row.category === 'CONTRACT_CALL'
          ? '0'
          : null,
    amountInUSD: row.amountInUsd === null ? null : canonicalDecimal(row.amountInUsd),
    txHash: row.txHash,
    // Each operation named by its id (contract/operations.ts), as the SDKs' operationId.
    operations: row.operations?.map((op, i) => {
      const id = operationIdOf(row.id, op.sequence ?? i + 1);
      return { ...op, id, operationId: id };
    }),
    // The operation waiting for a vault signer's user action (engine/user-action.ts).
    operationId: waitingOperation(row.simulation),
    balanceChanges: row.balanceChanges,
    nonce: row.nonce,
    error: row.error,
    createdById: row.createdById,
    // A contract call's `data` as sent, so an approver can see what it calls.
    data: row.contractData,
    fees: row.fees,
    // The tier the fee was chosen with: the lifecycle's pace, and whether it is slow, follow it.
    gasParams: row.feeTier ? { feeTier: row.feeTier } : null,
    // Not in the description's Transaction table, but sent on create (7c, 7d); clients keep unknown fields.
    resourceType: row.resourceType,
    // A ramp's (capabilities/ramps); where to send the money only once four-eyes has passed.
    intent: row.intent,
    quoteResponse: row.quoteResponse,
    // Each time its quote was priced again, and the quote a person last accepted (ramp-requote.ts).
    ...rampQuoteHistory(row.simulation),
    // A raw signing's, from signing on (engine/raw-signing.ts).
    ...rawSignature(row.simulation),
    // A scheduled transfer's time (the JS SDK's executeAt).
    executeAt: scheduledAt(row.simulation),
    depositInstructions:
      row.status === 'PENDING' || row.status === 'DECLINED' ? null : row.depositInstructions,
    // A swap's (capabilities/ramps/sandbox/trade-*.ts): the target leg, the Python SDK's names, and its quote.
    ...(row.trade
      ? {
          toAsset: row.trade.toAsset,
          toBlockChain: row.trade.toChain,
          finalToAmount: row.trade.finalToAmount,
          tradeRequestData: row.trade.request,
          tradeResponseData: row.trade.response,
        }
      : {}),
  });
}

/**
 * An on-ramp's or FX's source with the account the payer wires to as
 * `bank` (what both SDKs' ramp examples read), its IBAN only once approved.
 * The party's own `bankDetails` stay as they were: the approval card and
 * the Convert page read them as the party's account, not the provider's.
 */
function rampSource(row: TransactionRow): Party | null {
  const instructions = row.depositInstructions;
  if (!row.source || !instructions) return row.source;
  const bank = depositBank(instructions, row.status !== 'PENDING' && row.status !== 'DECLINED');
  return { ...row.source, bank };
}

/** A ramp's customer account paid, also as `bank` (the Python SDK's name), masked as it is stored. */
function rampDestination(row: TransactionRow): Party | null {
  if (!row.destination?.bankDetails || !row.quoteResponse) return row.destination;
  const bank = paidBank(row.destination, row.quoteResponse.toAsset);
  return bank ? { ...row.destination, bank } : row.destination;
}

function scheduledAt(simulation: unknown): string | null {
  const at =
    simulation && typeof simulation === 'object'
      ? (simulation as { executeAt?: unknown }).executeAt
      : undefined;
  return typeof at === 'string' ? at : null;
}

function waitingOperation(simulation: unknown): string | null {
  const action =
    simulation && typeof simulation === 'object'
      ? (simulation as { userAction?: { operationId?: unknown; status?: unknown } }).userAction
      : undefined;
  return action?.status === 'PENDING' && typeof action.operationId === 'string'
    ? action.operationId
    : null;
}

/** A raw signing's signature as the SDKs read it: `txnSignature` (r ‖ s ‖ v on EVM) and, on EVM, its parts. */
function rawSignature(simulation: unknown): Pick<Transaction, 'txnSignature' | 'txnSignatureData'> {
  const signature =
    simulation && typeof simulation === 'object'
      ? (simulation as { signature?: Partial<RawSignature> }).signature
      : undefined;
  if (!signature?.txnSignature) return {};
  return {
    txnSignature: signature.txnSignature,
    ...(signature.txnSignatureData ? { txnSignatureData: signature.txnSignatureData } : {}),
  };
}

/** A ramp's re-quotes and accepted quote, read from its plan (capabilities/ramps/sandbox/ramp-plan.ts) where it has them. */
function rampQuoteHistory(simulation: unknown): Pick<Transaction, 'requotes' | 'acceptedQuote'> {
  const ramp =
    simulation && typeof simulation === 'object'
      ? (simulation as { ramp?: { requotes?: unknown; accepted?: unknown } }).ramp
      : undefined;
  if (!ramp || !Array.isArray(ramp.requotes) || ramp.requotes.length === 0) return {};
  return {
    requotes: ramp.requotes as NonNullable<Transaction['requotes']>,
    ...(ramp.accepted ? { acceptedQuote: ramp.accepted as Transaction['acceptedQuote'] } : {}),
  };
}

/**
 * Bank accounts carry their full numbers: this is the API. Masking is the
 * SPA's job (and the logger's: see logger.ts redaction).
 */
export function toWireBankAccount(row: BankAccountRow): BankAccount {
  return {
    id: row.id,
    orgId: row.orgId,
    subOrgId: row.subOrgId,
    orgEntityId: row.orgEntityId,
    createdById: row.createdById,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    isDeleted: row.isDeleted,
    status: row.status,
    accountNumber: row.accountNumber,
    accountName: row.accountName,
    routingNumber: row.routingNumber,
    clientBankAccountId: row.clientBankAccountId,
    paymentMethod: row.paymentMethod,
    bankName: row.bankName,
    streetLine: row.streetLine,
    city: row.city,
    state: row.state,
    postalCode: row.postalCode,
    country: row.country,
  };
}

export function toWireVault(row: VaultRow, vaultWallets: readonly WalletRow[]): Vault {
  return {
    id: row.id,
    orgId: row.orgId,
    subOrgId: row.subOrgId,
    vaultName: row.vaultName,
    vaultType: row.vaultType,
    wallets: vaultWallets.map((w) => ({ id: w.id, blockchain: w.blockchain, address: w.address })),
    walletsGenerated: vaultWallets.length > 0,
    signers: row.signers,
    viewers: row.viewers,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    isDeleted: row.isDeleted,
  };
}

export function toWireContact(row: ContactRow): Contact {
  return {
    id: row.id,
    orgId: row.orgId,
    subOrgId: row.subOrgId,
    name: row.name,
    blockChain: row.blockChain,
    address: row.address,
    status: row.status,
    assetList: row.assetList,
    isSmartContractAddress: row.isSmartContractAddress,
    isSanctioned: row.isSanctioned,
    tags: row.tags,
    ...(row.externalId ? { externalId: row.externalId } : {}),
    createdById: row.createdById,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    isDeleted: row.isDeleted,
  };
}

export function toWireSubOrg(row: SubOrgRow): SubOrg {
  return { id: row.id, orgId: row.orgId, name: row.name, createdAt: row.createdAt.toISOString() };
}

/**
 * A vault as a transaction names it (source, destination, fee payer): with
 * its wallet's address on `chain` when it has one there. The engine and the
 * seed write parties alike.
 */
export function vaultParty(
  vault: Pick<VaultRow, 'id' | 'vaultName'> & { subOrgId?: string | null },
  wallet: Pick<WalletRow, 'address'> | undefined,
  chain: string,
): Party {
  return {
    type: 'VAULT',
    id: vault.id,
    name: vault.vaultName,
    ...(vault.subOrgId ? { subOrgId: vault.subOrgId } : {}),
    ...(wallet ? { address: wallet.address } : {}),
    chain,
  };
}

/** A contact as a transaction names it. */
export function contactParty(
  contact: Pick<ContactRow, 'id' | 'name' | 'address' | 'blockChain'> & {
    subOrgId?: string | null;
  },
): Party {
  return {
    type: 'CONTACT',
    id: contact.id,
    name: contact.name,
    ...(contact.subOrgId ? { subOrgId: contact.subOrgId } : {}),
    address: contact.address,
    chain: contact.blockChain,
  };
}
