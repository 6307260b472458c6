import { sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  BANK_ACCOUNT_STATUSES,
  CHANGE_REQUEST_ENTITY_TYPES,
  CHANGE_REQUEST_STATUSES,
  CONTACT_STATUSES,
  CREATOR_TYPES,
  FEE_TIERS,
  PAYMENT_METHODS,
  RESOURCE_TYPES,
  TRANSACTION_CATEGORIES,
  TRANSACTION_STATUSES,
  TRANSACTION_SUB_CATEGORIES,
  TRANSACTION_TYPES,
  VAULT_TYPES,
} from '#contract/enums.ts';
import { API_USER_SCOPES } from '#contract/api-users.ts';
import { LEDGER_MOVEMENT_KINDS } from '#contract/ledger.ts';
import type { VaultMember } from '#contract/reference.ts';
import type { DepositInstructions, RampIntent, RampQuote } from '#contract/ramp-record.ts';
import { RAMP_KINDS } from '#contract/ramp-record.ts';
import type { TradeRecord } from '#contract/trades.ts';
import type { BalanceChanges, Operation, Party, TransactionFees } from '#contract/transaction.ts';
import {
  SIGNATURE_ENCODINGS,
  WEBHOOK_DELIVERY_STATES,
  WEBHOOK_DELIVERY_EVENTS,
  type WebhookEventType,
} from '#contract/webhooks.ts';
import { oneOf } from './one-of.ts';

/** A change to an existing entity that a change request asks to approve. */
export interface ProposedChange {
  assetList: string[];
}

/**
 * The embedded sandbox's own tables: the custody service the API describes.
 * They live in the `sandbox` PostgreSQL schema so that upstream mode simply has
 * none of them (its migrations are a separate track, `db/migrations/sandbox`, run by `db/client.ts`).
 *
 * A column whose values come from a list of the contract is typed by that
 * list (`text('x', { enum: LIST })`) and checked by the database against it
 * (`oneOf`): no value is narrowed by hand on its way out.
 *
 * Amounts are NUMERIC (exact decimals, read back as strings), never floats.
 * Timestamps are timestamptz with millisecond precision: keyset cursors carry
 * a JS Date (milliseconds), so stored values must not have more digits than a
 * cursor can hold, or paging would skip or repeat rows.
 *
 * Regenerate migrations after editing:
 *   npx drizzle-kit generate --config src/server/db/drizzle-sandbox.config.ts
 */
export const sandbox = pgSchema('sandbox');

// No `now()` defaults: every row is stamped from the server's one clock (clock.ts), so an insert
// that forgets its time fails to compile (or, raw SQL, NOT NULL) instead of taking the database's.
const createdAt = () => timestamp('created_at', { withTimezone: true, precision: 3 }).notNull();
const updatedAt = () => timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull();
const amount = (name: string) => numeric(name);

export const organizations = sandbox.table('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /**
   * Approval policy: may an API user approve a change request it created
   * itself? The provider SDK's create-and-approve helpers expect yes. Staff
   * never approve their own (four-eyes), whatever this says.
   */
  apiUserSelfApproval: boolean('api_user_self_approval').notNull().default(true),
  /** The organization's legal entity: the `orgEntityId` of the bank accounts it creates. */
  entityId: text('entity_id')
    .notNull()
    .$defaultFn(() => `ent_${randomBytes(6).toString('hex')}`),
  createdAt: createdAt(),
});

export const subOrgs = sandbox.table(
  'sub_orgs',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sub_orgs_org_created_idx').on(t.orgId, t.createdAt, t.id)],
);

export const vaults = sandbox.table(
  'vaults',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    subOrgId: text('sub_org_id').references(() => subOrgs.id),
    vaultName: text('vault_name').notNull(),
    vaultType: text('vault_type', { enum: VAULT_TYPES }).notNull(),
    /** Who signs for the vault and who may only see it (the SDKs' `signers` and `viewers`). */
    signers: jsonb('signers').$type<VaultMember[]>().notNull().default([]),
    viewers: jsonb('viewers').$type<VaultMember[]>().notNull().default([]),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('vaults_org_created_idx').on(t.orgId, t.createdAt, t.id),
    oneOf('vaults', t.vaultType, VAULT_TYPES),
  ],
);

export const wallets = sandbox.table(
  'wallets',
  {
    id: text('id').primaryKey(),
    vaultId: text('vault_id')
      .notNull()
      .references(() => vaults.id),
    blockchain: text('blockchain').notNull(),
    address: text('address').notNull(),
    createdAt: createdAt(),
  },
  // One wallet per chain per vault: the engine finds "the vault's address on X".
  (t) => [uniqueIndex('wallets_vault_chain_uq').on(t.vaultId, t.blockchain)],
);

export const vaultBalances = sandbox.table(
  'vault_balances',
  {
    vaultId: text('vault_id')
      .notNull()
      .references(() => vaults.id),
    asset: text('asset').notNull(),
    chain: text('chain').notNull(),
    amount: amount('amount').notNull().default('0'),
    /**
     * Reserved at signing by transactions not yet completed (amount + fee),
     * so concurrent spends from one vault can never overdraw it.
     */
    held: amount('held').notNull().default('0'),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.vaultId, t.asset, t.chain] }),
    // The last line of defence for "balances never go negative".
    check('vault_balances_non_negative', sql`amount >= 0`),
    check('vault_balances_held_within_amount', sql`held >= 0 AND held <= amount`),
  ],
);

/**
 * The ledger: one append-only row per change to a vault's balance, written
 * by `moveBalances` (custody/sandbox/engine/balances.ts) in the database
 * transaction that changes the balance, so a vault's balance is always the
 * sum of its movements. `balanceAfter` is the balance row's amount right
 * after this movement (rows of one balance are written under its row lock,
 * so their ids follow the order the balance changed in). `usdPrice` is the
 * asset's price when it moved; `counterparty` the other side (null for a
 * fee or an adjustment); `reference` the transaction's externalId.
 */
export const ledgerMovements = sandbox.table(
  'ledger_movements',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orgId: text('org_id').notNull(),
    vaultId: text('vault_id')
      .notNull()
      .references(() => vaults.id),
    asset: text('asset').notNull(),
    chain: text('chain').notNull(),
    kind: text('kind', { enum: LEDGER_MOVEMENT_KINDS }).notNull(),
    amount: amount('amount').notNull(),
    balanceAfter: amount('balance_after').notNull(),
    usdPrice: amount('usd_price').notNull(),
    transactionId: text('transaction_id'),
    counterparty: jsonb('counterparty').$type<Party>(),
    reference: text('reference'),
    memo: text('memo'),
    /** When it is booked: when it happened, or the start of the next open period for a late one. */
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
    /** When it happened, for a movement booked later because that time's period was closed; else null. */
    valueAt: timestamp('value_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('ledger_movements_vault_at_idx').on(t.vaultId, t.at, t.id),
    index('ledger_movements_org_at_idx').on(t.orgId, t.at, t.id),
    oneOf('ledger_movements', t.kind, LEDGER_MOVEMENT_KINDS),
  ],
);

/**
 * The ledger's daily summary: per vault, asset, chain and UTC day, the
 * non-fee amounts, the fees (positive), the closing balance at the day's
 * end, and the price of its last movement. Written by the same statement
 * sequence, in the same database transaction, as the movements it sums
 * (custody/sandbox/engine/movements.ts), so statements and history read a
 * day's row instead of its movements.
 */
export const ledgerDays = sandbox.table(
  'ledger_days',
  {
    orgId: text('org_id').notNull(),
    vaultId: text('vault_id')
      .notNull()
      .references(() => vaults.id),
    asset: text('asset').notNull(),
    chain: text('chain').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    amounts: amount('amounts').notNull(),
    fees: amount('fees').notNull(),
    closing: amount('closing').notNull(),
    lastPrice: amount('last_price').notNull(),
    lastAt: timestamp('last_at', { withTimezone: true, precision: 3 }).notNull(),
    movements: integer('movements').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.vaultId, t.asset, t.chain, t.day] }),
    index('ledger_days_org_day_idx').on(t.orgId, t.day),
  ],
);

/**
 * A vault's staking position on a chain, for the rewards the sandbox pays
 * (custody/sandbox/engine/staking-rewards.ts): opened when a stake completes,
 * `paidUntil` the end of the last epoch paid (or when rewards start),
 * `carry` what was earned and not yet paid (below the smallest unit) times
 * 365 days in milliseconds, kept exact,
 * `nextAt` when the next epoch ends (null once nothing is staked).
 */
export const stakingPositions = sandbox.table(
  'staking_positions',
  {
    vaultId: text('vault_id')
      .notNull()
      .references(() => vaults.id),
    chain: text('chain').notNull(),
    asset: text('asset').notNull(),
    orgId: text('org_id').notNull(),
    paidUntil: timestamp('paid_until', { withTimezone: true, precision: 3 }).notNull(),
    carry: amount('carry').notNull().default('0'),
    nextAt: timestamp('next_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    primaryKey({ columns: [t.vaultId, t.chain, t.asset] }),
    index('staking_positions_next_at_idx')
      .on(t.nextAt)
      .where(sql`next_at is not null`),
  ],
);

export const assets = sandbox.table(
  'assets',
  {
    symbol: text('symbol').notNull(),
    blockChain: text('block_chain').notNull(),
    name: text('name').notNull(),
    decimals: integer('decimals').notNull(),
    isNative: boolean('is_native').notNull().default(false),
    /** Sandbox price for amountInUSD and fee estimates. */
    usdPrice: amount('usd_price').notNull().default('0'),
  },
  (t) => [primaryKey({ columns: [t.symbol, t.blockChain] })],
);

export const contacts = sandbox.table(
  'contacts',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    subOrgId: text('sub_org_id').references(() => subOrgs.id),
    name: text('name').notNull(),
    blockChain: text('block_chain').notNull(),
    address: text('address').notNull(),
    status: text('status', { enum: CONTACT_STATUSES }).notNull(),
    assetList: jsonb('asset_list').$type<string[]>().notNull().default([]),
    isSmartContractAddress: boolean('is_smart_contract_address').notNull().default(false),
    isSanctioned: boolean('is_sanctioned').notNull().default(false),
    /** Free labels a client gives the contact (the SDKs' `tags`). */
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    /** The client's reference, unique per organization when given (as a transaction's). */
    externalId: text('external_id'),
    createdById: text('created_by_id').notNull(),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('contacts_org_created_idx').on(t.orgId, t.createdAt, t.id),
    uniqueIndex('contacts_org_external_id_uq')
      .on(t.orgId, t.externalId)
      .where(sql`external_id IS NOT NULL`),
    oneOf('contacts', t.status, CONTACT_STATUSES),
  ],
);

export const transactions = sandbox.table(
  'transactions',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    subOrgId: text('sub_org_id').references(() => subOrgs.id),
    vaultId: text('vault_id').references(() => vaults.id),
    status: text('status', { enum: TRANSACTION_STATUSES }).notNull(),
    category: text('category', { enum: TRANSACTION_CATEGORIES }).notNull(),
    subCategory: text('sub_category', { enum: TRANSACTION_SUB_CATEGORIES }),
    transactionType: text('transaction_type', { enum: TRANSACTION_TYPES }).notNull(),
    blockChain: text('block_chain').notNull(),
    asset: text('asset'),
    amount: amount('amount'),
    amountInUsd: amount('amount_in_usd'),
    externalId: text('external_id'),
    memo: text('memo'),
    source: jsonb('source').$type<Party>(),
    destination: jsonb('destination').$type<Party>(),
    operations: jsonb('operations').$type<Operation[]>(),
    balanceChanges: jsonb('balance_changes').$type<BalanceChanges>(),
    fees: jsonb('fees').$type<TransactionFees>(),
    feeTier: text('fee_tier', { enum: FEE_TIERS }),
    /** Vault paying the network fee when not the source (chains with sponsored fees). */
    feePayerId: text('fee_payer_id'),
    /** On STAKE and DELEGATE_RESOURCE (TRON). */
    resourceType: text('resource_type', { enum: RESOURCE_TYPES }),
    /** A contract call's chain-specific `data` payload (7b). */
    contractData: jsonb('contract_data').$type<Record<string, unknown>>(),
    /** Set on a replacement: the SUBMITTED transaction it replaces (same nonce, higher fee). */
    replacesTransactionId: text('replaces_transaction_id'),
    txHash: text('tx_hash'),
    nonce: integer('nonce'),
    error: text('error'),
    createdById: text('created_by_id'),
    /** Who created it, for the approval policy. */
    createdByType: text('created_by_type', { enum: CREATOR_TYPES }),
    /** When the lifecycle simulator should next move this transaction; null when it waits or is terminal. */
    nextStepAt: timestamp('next_step_at', { withTimezone: true, precision: 3 }),
    /** The sandbox's outcome for this transaction, fixed at creation (e.g. a simulated revert). */
    simulation: jsonb('simulation').$type<Record<string, unknown>>(),
    // A ramp or FX (capabilities/ramps): what was asked, the quote executed, where the payer
    // sends the money (answered once approved), and the bank account it pays or is funded from.
    intent: jsonb('intent').$type<RampIntent>(),
    quoteResponse: jsonb('quote_response').$type<RampQuote>(),
    depositInstructions: jsonb('deposit_instructions').$type<DepositInstructions>(),
    bankAccountId: text('bank_account_id'),
    /** A swap (capabilities/ramps/sandbox/trade-*.ts): the quote request and the provider's answer it executes. */
    trade: jsonb('trade').$type<TradeRecord>(),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('transactions_next_step_idx')
      .on(t.nextStepAt)
      .where(sql`next_step_at IS NOT NULL`),
    // Keyset paging reads these backwards (created_at DESC, id DESC; id breaks
    // ties). Plain ascending columns on purpose: drizzle's .desc() writes
    // DESC NULLS LAST, which no longer matches a plain ORDER BY … DESC.
    index('transactions_org_created_idx').on(t.orgId, t.createdAt, t.id),
    index('transactions_org_status_created_idx').on(t.orgId, t.status, t.createdAt, t.id),
    index('transactions_org_category_created_idx').on(t.orgId, t.category, t.createdAt, t.id),
    index('transactions_org_vault_created_idx').on(t.orgId, t.vaultId, t.createdAt, t.id),
    index('transactions_org_asset_created_idx').on(t.orgId, t.asset, t.createdAt, t.id),
    // externalId is unique per organization when given.
    uniqueIndex('transactions_org_external_id_uq')
      .on(t.orgId, t.externalId)
      .where(sql`external_id IS NOT NULL`),
    index('transactions_tx_hash_idx').on(t.txHash),
    index('transactions_replaces_idx').on(t.replacesTransactionId),
    // A bank account's ramps, newest first (GET /api/console/bank_accounts/{id}/ramps/).
    index('transactions_org_bank_account_created_idx')
      .on(t.orgId, t.bankAccountId, t.createdAt, t.id)
      .where(sql`bank_account_id IS NOT NULL`),
    oneOf('transactions', t.status, TRANSACTION_STATUSES),
    oneOf('transactions', t.category, TRANSACTION_CATEGORIES),
    oneOf('transactions', t.subCategory, TRANSACTION_SUB_CATEGORIES),
    oneOf('transactions', t.transactionType, TRANSACTION_TYPES),
    oneOf('transactions', t.feeTier, FEE_TIERS),
    oneOf('transactions', t.resourceType, RESOURCE_TYPES),
    oneOf('transactions', t.createdByType, CREATOR_TYPES),
  ],
);

/** Every status a transaction has held, with when: the console's timeline. */
export const transactionStatusEvents = sandbox.table(
  'transaction_status_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transactionId: text('transaction_id')
      .notNull()
      .references(() => transactions.id),
    status: text('status', { enum: TRANSACTION_STATUSES }).notNull(),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    index('transaction_status_events_tx_idx').on(t.transactionId, t.at, t.id),
    oneOf('transaction_status_events', t.status, TRANSACTION_STATUSES),
  ],
);

export const bankAccounts = sandbox.table(
  'bank_accounts',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    subOrgId: text('sub_org_id').references(() => subOrgs.id),
    orgEntityId: text('org_entity_id'),
    createdById: text('created_by_id').notNull(),
    status: text('status', { enum: BANK_ACCOUNT_STATUSES }).notNull(),
    paymentMethod: text('payment_method', { enum: PAYMENT_METHODS }).notNull(),
    accountNumber: text('account_number').notNull(),
    accountName: text('account_name').notNull(),
    routingNumber: text('routing_number'),
    clientBankAccountId: text('client_bank_account_id'),
    bankName: text('bank_name').notNull(),
    streetLine: text('street_line'),
    city: text('city'),
    state: text('state'),
    postalCode: text('postal_code'),
    country: text('country').notNull(),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('bank_accounts_org_created_idx').on(t.orgId, t.createdAt, t.id),
    // A status filter (the approvals inbox: PENDING) read newest first, as transactions are.
    // No index here or on transactions may serve `org, status` in another order (a partial
    // index of PENDING rows by sub-org, say): PGlite never analyzes, and its planner then took
    // such a small index and sorted every waiting row instead of reading one page.
    index('bank_accounts_org_status_created_idx').on(t.orgId, t.status, t.createdAt, t.id),
    oneOf('bank_accounts', t.status, BANK_ACCOUNT_STATUSES),
    oneOf('bank_accounts', t.paymentMethod, PAYMENT_METHODS),
  ],
);

/**
 * A ramp or FX quote (capabilities/ramps): priced for one organization and
 * sub-organization, used once (`usedByTransactionId`, set in the database
 * transaction that creates the ramp), only before `expiresAt`.
 */
export const rampQuotes = sandbox.table(
  'ramp_quotes',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    subOrgId: text('sub_org_id').references(() => subOrgs.id),
    kind: text('kind', { enum: RAMP_KINDS }).notNull(),
    /** The route as priced: parties resolved, assets, chains, rails, the side the amount was given on. */
    route: jsonb('route').$type<Record<string, unknown>>().notNull(),
    /** The quote as answered. */
    quote: jsonb('quote').$type<RampQuote>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    usedByTransactionId: text('used_by_transaction_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('ramp_quotes_expires_idx').on(t.expiresAt),
    oneOf('ramp_quotes', t.kind, RAMP_KINDS),
  ],
);

/**
 * A trade (swap) quote (capabilities/ramps/sandbox/trade-quote.ts): one provider's answer for one
 * vault, executed by at most one create before it expires.
 */
export const tradeQuotes = sandbox.table(
  'trade_quotes',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    subOrgId: text('sub_org_id').references(() => subOrgs.id),
    vaultId: text('vault_id')
      .notNull()
      .references(() => vaults.id),
    /** The request as priced, the answer as given, and what executing it moves. */
    trade: jsonb('trade').$type<TradeRecord>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    usedByTransactionId: text('used_by_transaction_id'),
    createdAt: createdAt(),
  },
  (t) => [index('trade_quotes_expires_idx').on(t.expiresAt)],
);

/** Approval of a bank account, transaction, contact or vault. */
export const changeRequests = sandbox.table(
  'change_requests',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    entityType: text('entity_type', { enum: CHANGE_REQUEST_ENTITY_TYPES }).notNull(),
    entityId: text('entity_id').notNull(),
    status: text('status', { enum: CHANGE_REQUEST_STATUSES }).notNull(),
    /** What the API calls approvalId; distinct from the change request's own id. */
    approvalId: text('approval_id').notNull().unique(),
    approvalMessage: text('approval_message').notNull(),
    createdById: text('created_by_id').notNull(),
    createdByType: text('created_by_type', { enum: CREATOR_TYPES }).notNull().default('API_USER'),
    decidedById: text('decided_by_id'),
    /** API_USER or STAFF (nobody decides anonymously); null on decisions seeded before it was kept. */
    decidedByType: text('decided_by_type', { enum: CREATOR_TYPES }),
    reason: text('reason'),
    /**
     * What the request changes on an entity that already exists (an approved
     * contact's new asset list); null when it approves the entity itself.
     * Applied only when approved: until then the entity keeps what was approved.
     */
    proposedChange: jsonb('proposed_change').$type<ProposedChange>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    decidedAt: timestamp('decided_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('change_requests_entity_idx').on(t.entityId, t.createdAt),
    // The approvals inbox's contacts: the waiting requests of one kind, newest first.
    index('change_requests_org_type_status_created_idx').on(
      t.orgId,
      t.entityType,
      t.status,
      t.createdAt,
      t.entityId,
    ),
    oneOf('change_requests', t.entityType, CHANGE_REQUEST_ENTITY_TYPES),
    oneOf('change_requests', t.status, CHANGE_REQUEST_STATUSES),
    oneOf('change_requests', t.createdByType, CREATOR_TYPES),
    oneOf('change_requests', t.decidedByType, CREATOR_TYPES),
  ],
);

/** What a change-request event says happened (contract/live-events.ts: approval.proposed, approval.decided). */
export const CHANGE_REQUEST_EVENT_KINDS = ['PROPOSED', 'DECIDED'] as const;
const CHANGE_REQUEST_EVENT_ENTITIES = ['BANK_ACCOUNT', 'CONTACT'] as const;

/**
 * Every change request about a bank account or a contact opened or decided,
 * in order: written in the same database transaction as the change itself
 * (`custody/sandbox/change-request-events.ts`), so the console's event
 * stream (capabilities/live/) tails it as it tails the status log, and a
 * trigger NOTIFYs `custody_live` at commit (migration 0015). Transactions'
 * change requests are told by `transaction_status_events`.
 */
export const changeRequestEvents = sandbox.table(
  'change_request_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    kind: text('kind', { enum: CHANGE_REQUEST_EVENT_KINDS }).notNull(),
    entityType: text('entity_type', { enum: CHANGE_REQUEST_EVENT_ENTITIES }).notNull(),
    entityId: text('entity_id').notNull(),
    subOrgId: text('sub_org_id'),
    /** PENDING when proposed; APPROVED or REJECTED when decided. */
    status: text('status', { enum: CHANGE_REQUEST_STATUSES }).notNull(),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    oneOf('change_request_events', t.kind, CHANGE_REQUEST_EVENT_KINDS),
    oneOf('change_request_events', t.entityType, CHANGE_REQUEST_EVENT_ENTITIES),
    oneOf('change_request_events', t.status, CHANGE_REQUEST_STATUSES),
  ],
);

export const apiUsers = sandbox.table(
  'api_users',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    apiKey: text('api_key').notNull().unique(),
    /** SPKI DER hex of the user's P-256 key; verifies request tokens and approvals. */
    publicKey: text('public_key').notNull(),
    /**
     * The sub-organizations the user is held to, as a member's scope is
     * (console.staff's sub_org_ids); null acts in the whole organization.
     */
    subOrgIds: jsonb('sub_org_ids').$type<string[] | null>(),
    /** The networks (CIDRs) its requests may come from; null: anywhere. */
    allowedCidrs: jsonb('allowed_cidrs').$type<string[] | null>(),
    /** After this its key is refused (401); null: never. */
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }),
    /** When a request of its last passed every check. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, precision: 3 }),
    /** What it may do (contract/api-users.ts); users made before scopes could do everything. */
    scope: text('scope', { enum: API_USER_SCOPES }).notNull().default('create_and_approve'),
    /** The console member who made it; null when the CLI or the seed did. */
    createdBy: text('created_by'),
    /** When its key pair was last replaced; the old one is refused from then on. */
    rotatedAt: timestamp('rotated_at', { withTimezone: true, precision: 3 }),
    /** When an admin revoked it: its key is refused (401), the row kept for the audit log. */
    revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
  },
  (t) => [oneOf('api_users', t.scope, API_USER_SCOPES)],
);

/**
 * Request-token ids already used: a `jti` is accepted once within its token's
 * lifetime, per API user. Each user picks its own jtis, so one user's jti
 * must never refuse another's token (the key is the pair, not the jti).
 */
export const usedTokenIds = sandbox.table(
  'used_token_ids',
  {
    apiUserId: text('api_user_id').notNull(),
    jti: text('jti').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.apiUserId, t.jti] }),
    index('used_token_ids_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Webhook endpoints: where the sandbox posts an organization's
 * status changes, as the provider does. The verification key signs every
 * delivery, so it is kept; the API shows it once, at registration.
 */
export const webhookEndpoints = sandbox.table(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    url: text('url').notNull(),
    description: text('description'),
    events: text('events').array().$type<WebhookEventType[]>().notNull(),
    signatureEncoding: text('signature_encoding', { enum: SIGNATURE_ENCODINGS }).notNull(),
    verificationKey: text('verification_key').notNull(),
    enabled: boolean('enabled').notNull(),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('webhook_endpoints_org_idx').on(t.orgId, t.createdAt),
    oneOf('webhook_endpoints', t.signatureEncoding, SIGNATURE_ENCODINGS),
  ],
);

/**
 * The outbox: one row per status change of a transaction or of one of its
 * operations, written in the database transaction that makes the change
 * (engine/transitions.ts), and only while the organization has an endpoint
 * that wants it. `data` is the webhook's `data` as it was at that moment, so
 * a delivery (or a resend) days later still says what happened then.
 */
export const webhookEvents = sandbox.table(
  'webhook_events',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    /** The webhook's eventId: stable across retries and resends, for de-duplication. */
    eventId: text('event_id').notNull().unique(),
    orgId: text('org_id').notNull(),
    /** A status change's type, or a test event's (sent on request, never queued by a change). */
    event: text('event', { enum: WEBHOOK_DELIVERY_EVENTS }).notNull(),
    /** The changed transaction; null on a test event, which reports none. */
    transactionId: text('transaction_id'),
    status: text('status').notNull(),
    operationSequence: integer('operation_sequence'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [oneOf('webhook_events', t.event, WEBHOOK_DELIVERY_EVENTS)],
);

/**
 * One event's delivery to one endpoint: queued with the event, claimed by a
 * dispatcher (its `next_attempt_at` pushed past the attempt: a lease, so
 * another server skips it and a crashed one's claim runs out), and its log.
 */
export const webhookDeliveries = sandbox.table(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id),
    eventSeq: bigint('event_seq', { mode: 'number' })
      .notNull()
      .references(() => webhookEvents.seq),
    /**
     * The event's transaction: deliveries of one transaction to one endpoint
     * go in order. Null on a test event, which waits for nothing.
     */
    transactionId: text('transaction_id'),
    state: text('state', { enum: WEBHOOK_DELIVERY_STATES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** Due (PENDING), or the claim's end while an attempt is under way; null once settled. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 3 }),
    /** Retries stop here: a day after the event (or after a resend). */
    giveUpAt: timestamp('give_up_at', { withTimezone: true, precision: 3 }).notNull(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true, precision: 3 }),
    lastStatusCode: integer('last_status_code'),
    lastLatencyMs: integer('last_latency_ms'),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, precision: 3 }),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`state = 'PENDING'`),
    index('webhook_deliveries_order_idx').on(t.endpointId, t.transactionId, t.id),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    oneOf('webhook_deliveries', t.state, WEBHOOK_DELIVERY_STATES),
  ],
);
