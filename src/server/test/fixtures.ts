import { randomUUID } from 'node:crypto';
import type { InferInsertModel } from 'drizzle-orm';
import { CHAINS } from '#contract/chains.ts';
import type { Database } from '../db/client.ts';
import { recordOpeningBalances } from '../custody/sandbox/engine/movements.ts';
import { newWalletAddress } from '../custody/sandbox/wallet-keys.ts';
import {
  assets,
  bankAccounts,
  contacts,
  organizations,
  subOrgs,
  transactionStatusEvents,
  transactions,
  vaultBalances,
  vaults,
  wallets,
} from '../db/schema/sandbox.ts';

/**
 * Rows a test makes for itself, so what it asserts on is its own data and
 * not something another test (or the seed) happens to have left.
 * Defaults are valid and boring; pass what the test is about.
 */

type Insert<T extends Parameters<Database['insert']>[0]> = InferInsertModel<T>;

/**
 * The app stamps every row with its injected clock (clock.ts) and the tables
 * have no `now()` default; a fixture row is stamped with the real time unless
 * the test gives its own.
 */
const stamped = (at: Date = new Date()) => ({ createdAt: at, updatedAt: at });

export async function createOrg(db: Database, name = 'Test Org') {
  const [row] = await db
    .insert(organizations)
    .values({ id: randomUUID(), name, createdAt: new Date() })
    .returning();
  if (!row) throw new Error('createOrg: nothing inserted');
  return row;
}

export async function createSubOrg(db: Database, orgId: string, name = 'Test Sub-org') {
  const [row] = await db
    .insert(subOrgs)
    .values({ id: randomUUID(), orgId, name, createdAt: new Date() })
    .returning();
  if (!row) throw new Error('createSubOrg: nothing inserted');
  return row;
}

export async function createVault(
  db: Database,
  values: Partial<Insert<typeof vaults>> & { orgId: string },
  balances: Array<{ asset: string; chain: string; amount: string }> = [],
) {
  const [row] = await db
    .insert(vaults)
    .values({
      id: randomUUID(),
      vaultName: 'Test Vault',
      vaultType: 'DEFAULT',
      ...stamped(),
      ...values,
    })
    .returning();
  if (!row) throw new Error('createVault: nothing inserted');
  await db.insert(wallets).values(
    CHAINS.map((c) => {
      const id = randomUUID();
      return {
        id,
        vaultId: row.id,
        blockchain: c.value,
        // An EVM wallet's address is its key's, so it can make raw signatures.
        address: newWalletAddress(id, c.value, () => `addr-${c.value}-${row.id}`),
        createdAt: row.createdAt,
      };
    }),
  );
  if (balances.length > 0) {
    await db
      .insert(vaultBalances)
      .values(balances.map((b) => ({ vaultId: row.id, updatedAt: row.updatedAt, ...b })));
    // The ledger opens with them, as a seeded vault's does: a balance is the sum of its movements.
    await recordOpeningBalances(
      db,
      row.orgId,
      balances.map((b) => ({ vaultId: row.id, at: row.updatedAt, ...b })),
    );
  }
  return row;
}

export async function createTransaction(
  db: Database,
  values: Partial<Insert<typeof transactions>> & { orgId: string },
) {
  const [row] = await db
    .insert(transactions)
    .values({
      id: randomUUID(),
      status: 'COMPLETED',
      category: 'TRANSFER',
      subCategory: 'EXTERNAL_TRANSFER',
      transactionType: 'OUTGOING',
      blockChain: 'ETHEREUM',
      asset: 'ETH',
      amount: '1.5',
      ...stamped(),
      ...values,
    })
    .returning();
  if (!row) throw new Error('createTransaction: nothing inserted');
  await db
    .insert(transactionStatusEvents)
    .values({ transactionId: row.id, status: row.status, at: row.createdAt });
  return row;
}

export async function createBankAccount(
  db: Database,
  values: Partial<Insert<typeof bankAccounts>> & { orgId: string },
) {
  const [row] = await db
    .insert(bankAccounts)
    .values({
      id: randomUUID(),
      createdById: 'test-user',
      status: 'PENDING',
      paymentMethod: 'US_ACH',
      accountName: 'Test Holder',
      accountNumber: '123456789',
      routingNumber: '021000021',
      bankName: 'Test Bank',
      country: 'US',
      ...stamped(),
      ...values,
    })
    .returning();
  if (!row) throw new Error('createBankAccount: nothing inserted');
  return row;
}

export async function createContact(
  db: Database,
  values: Partial<Insert<typeof contacts>> & { orgId: string },
) {
  const [row] = await db
    .insert(contacts)
    .values({
      id: randomUUID(),
      name: 'Test Contact',
      blockChain: 'ETHEREUM',
      address: `0x${randomUUID().replace(/-/g, '')}`,
      status: 'APPROVED',
      assetList: ['ETH'],
      createdById: 'test-user',
      ...stamped(),
      ...values,
    })
    .returning();
  if (!row) throw new Error('createContact: nothing inserted');
  return row;
}

/** Distinct, ordered timestamps for rows whose order a test asserts: `minutesAgo(3)` is older than `minutesAgo(1)`. */
export function minutesAgo(minutes: number, from: Date = new Date()): Date {
  return new Date(from.getTime() - minutes * 60_000);
}

/** Ether on Ethereum, priced at $3,000: so that an allowed create reaches the engine and succeeds. */
export async function createEther(db: Database) {
  await db.insert(assets).values({
    symbol: 'ETH',
    blockChain: 'ETHEREUM',
    name: 'Ether',
    decimals: 18,
    isNative: true,
    usdPrice: '3000',
  });
}
