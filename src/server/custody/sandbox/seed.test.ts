import { asc, count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BankAccountCreateRequest } from '#contract/bank-account.ts';
import { CHAINS, chainInfo } from '#contract/chains.ts';
import { isDecimalString, isNegative, neg, sum } from '#contract/decimal.ts';
import {
  BANK_ACCOUNT_STATUSES,
  CONTACT_STATUSES,
  PAYMENT_METHODS,
  TRANSACTION_STATUSES,
  VAULT_TYPES,
} from '#contract/enums.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import {
  assets,
  bankAccounts,
  changeRequests,
  contacts,
  organizations,
  transactionStatusEvents,
  transactions,
  vaultBalances,
  vaults,
  wallets,
} from '../../db/schema/sandbox.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { seedSandbox, type SeedSummary } from './seed.ts';
import { SEEDED_CATEGORIES } from './seed/transaction-shapes.ts';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const DAY = 86_400_000;

let database: DatabaseHandle;
let summary: SeedSummary;
beforeAll(async () => {
  database = await createTestDatabase();
  summary = await seedSandbox(database.db, { now: NOW });
});
afterAll(() => database.close());

const db = () => database.db;

describe('seedSandbox', () => {
  // Seeding time is a figure for `npm run bench`, not an assertion on a shared machine.
  it('seeds an empty database once, and only once', async () => {
    expect(summary.seeded).toBe(true);
    const again = await seedSandbox(db(), { now: NOW });
    expect(again.seeded).toBe(false);
    const [orgs] = await db().select({ n: count() }).from(organizations);
    const [txs] = await db().select({ n: count() }).from(transactions);
    expect(orgs?.n).toBe(1);
    expect(txs?.n).toBe(summary.counts?.transactions);
  });

  it('gives ≥ 300 transactions covering every category × status within the last 60 days', async () => {
    const rows = await db().select().from(transactions);
    expect(rows.length).toBeGreaterThanOrEqual(300);
    const combos = new Set(rows.map((r) => `${r.category}/${r.status}`));
    // RAMP (the sandbox's FX) is made only from a live quote: never seeded.
    expect(rows.filter((r) => r.category === 'RAMP')).toHaveLength(0);
    for (const category of SEEDED_CATEGORIES) {
      for (const status of TRANSACTION_STATUSES)
        expect(combos, `${category}/${status}`).toContain(`${category}/${status}`);
    }
    for (const r of rows) {
      expect(r.createdAt.getTime()).toBeGreaterThanOrEqual(NOW.getTime() - 60 * DAY - 1);
      expect(r.updatedAt.getTime()).toBeLessThanOrEqual(NOW.getTime());
      expect(r.updatedAt.getTime()).toBeGreaterThanOrEqual(r.createdAt.getTime());
    }
    const externalIds = rows.map((r) => r.externalId).filter(Boolean);
    expect(new Set(externalIds).size).toBe(externalIds.length);
  });

  it('fills each status with what it implies', async () => {
    const rows = await db().select().from(transactions);
    for (const r of rows) {
      const label = `${r.id} ${r.category} ${r.status}`;
      if (r.amount !== null) expect(isDecimalString(r.amount), label).toBe(true);
      if (r.status === 'COMPLETED') {
        expect(r.txHash, label).toBeTruthy();
        expect(
          r.operations?.map((o) => o.sequence),
          label,
        ).toEqual(r.operations?.map((_, i) => i + 1));
        expect(r.operations?.length, label).toBeGreaterThan(0);
      } else {
        expect(r.operations, label).toBeNull();
      }
      if (r.status === 'FAILED') expect(r.error, label).toMatch(/\w/);
      else expect(r.error, label).toBeNull();
      if (['DRAFT', 'PENDING', 'APPROVED', 'SIGNED', 'DECLINED'].includes(r.status))
        expect(r.txHash, label).toBeNull();
      if (r.status === 'SUBMITTED' && chainInfo(r.blockChain)?.kind === 'EVM')
        expect(r.nonce, label).toEqual(expect.any(Number));
      if (chainInfo(r.blockChain)?.kind !== 'EVM') expect(r.nonce, label).toBeNull();
    }
  });

  it('records balance changes that net to minus the network fee, paid in the native asset', async () => {
    const completed = (await db().select().from(transactions)).filter(
      (r) => r.status === 'COMPLETED',
    );
    for (const r of completed) {
      const native = chainInfo(r.blockChain)?.nativeAsset ?? '';
      const changes = r.balanceChanges?.changes ?? [];
      const fee = r.fees?.amount ?? '';
      expect(r.fees?.asset, r.id).toBe(native);
      expect(
        changes.some((c) => c.asset === native && c.amount === neg(fee)),
        r.id,
      ).toBe(true);
      for (const asset of new Set(changes.map((c) => c.asset ?? ''))) {
        const net = sum(changes.filter((c) => c.asset === asset).map((c) => c.amount ?? '0'));
        expect(net, `${r.id} ${asset}`).toBe(asset === native ? neg(fee) : '0');
      }
      // The debited party of each on-chain movement is negative, the credited positive.
      for (const op of r.operations ?? []) {
        for (const c of op.balanceChanges?.changes ?? []) {
          if (c.party?.id === op.source?.id && c.party?.address === op.source?.address) {
            expect(isNegative(c.amount ?? '0'), r.id).toBe(true);
          }
        }
      }
    }
  });

  it('records a status event for each step up to the current status', async () => {
    const rows = await db().select().from(transactions);
    const events = await db()
      .select()
      .from(transactionStatusEvents)
      .orderBy(asc(transactionStatusEvents.at), asc(transactionStatusEvents.id));
    const byTx = new Map<string, typeof events>();
    for (const e of events) byTx.set(e.transactionId, [...(byTx.get(e.transactionId) ?? []), e]);
    for (const r of rows) {
      const timeline = byTx.get(r.id) ?? [];
      expect(timeline.at(-1)?.status, r.id).toBe(r.status);
      expect(timeline[0]?.at.getTime(), r.id).toBe(r.createdAt.getTime());
      expect(timeline.at(-1)?.at.getTime(), r.id).toBe(r.updatedAt.getTime());
      expect(['DRAFT', 'PENDING', 'WAITING_CONFIRMATION']).toContain(timeline[0]?.status);
      if (r.status === 'COMPLETED' && r.transactionType === 'OUTGOING') {
        expect(timeline.map((e) => e.status)).toEqual([
          'PENDING',
          'APPROVED',
          'SIGNED',
          'SUBMITTED',
          'WAITING_CONFIRMATION',
          'COMPLETED',
        ]);
      }
    }
  });

  it('names the approved bank account of every seeded ramp, as its page lists them', async () => {
    const rows = await db().select().from(transactions);
    const accounts = new Map((await db().select().from(bankAccounts)).map((a) => [a.id, a]));
    const ramps = rows.filter((r) => r.category === 'ON_RAMP' || r.category === 'OFF_RAMP');
    expect(ramps.length).toBeGreaterThan(0);
    for (const r of ramps) {
      const bank = r.category === 'OFF_RAMP' ? r.destination : r.source;
      expect(r.bankAccountId, `${r.category} ${r.id}`).toBe(bank?.id);
      expect(accounts.get(r.bankAccountId ?? '')?.status).toBe('APPROVED');
    }
    expect(rows.filter((r) => r.bankAccountId && !ramps.includes(r))).toHaveLength(0);
  });

  it('has bank accounts in every rail × status that pass the rail rules', async () => {
    const rows = await db().select().from(bankAccounts);
    const combos = new Set(rows.map((r) => `${r.paymentMethod}/${r.status}`));
    for (const rail of PAYMENT_METHODS) {
      for (const status of BANK_ACCOUNT_STATUSES) expect(combos).toContain(`${rail}/${status}`);
    }
    for (const r of rows) {
      const body = {
        paymentMethod: r.paymentMethod,
        accountName: r.accountName,
        accountNumber: r.accountNumber,
        bankName: r.bankName,
        country: r.country,
        ...(r.routingNumber ? { routingNumber: r.routingNumber } : {}),
        ...(r.streetLine ? { streetLine: r.streetLine } : {}),
        ...(r.city ? { city: r.city } : {}),
        ...(r.state ? { state: r.state } : {}),
        ...(r.postalCode ? { postalCode: r.postalCode } : {}),
      };
      const parsed = BankAccountCreateRequest.safeParse(body);
      expect(
        parsed.success,
        `${r.paymentMethod} ${r.accountName}: ${JSON.stringify(parsed.error?.issues)}`,
      ).toBe(true);
    }
  });

  it('has vaults of every type with a wallet on every chain and non-negative balances', async () => {
    const vaultRows = await db().select().from(vaults);
    expect(new Set(vaultRows.map((v) => v.vaultType))).toEqual(new Set(VAULT_TYPES));
    const walletRows = await db().select().from(wallets);
    for (const v of vaultRows) {
      expect(
        walletRows
          .filter((w) => w.vaultId === v.id)
          .map((w) => w.blockchain)
          .sort(),
      ).toEqual(CHAINS.map((c) => c.value).sort());
    }
    const balances = await db().select().from(vaultBalances);
    expect(balances.length).toBeGreaterThan(vaultRows.length);
    for (const b of balances) expect(isNegative(b.amount)).toBe(false);
  });

  it('has contacts in every status on several chains, and assets with decimals', async () => {
    const contactRows = await db().select().from(contacts);
    expect(new Set(contactRows.map((c) => c.status))).toEqual(new Set(CONTACT_STATUSES));
    expect(new Set(contactRows.map((c) => c.blockChain)).size).toBeGreaterThanOrEqual(5);
    const assetRows = await db().select().from(assets);
    for (const chain of CHAINS) {
      expect(
        assetRows.some(
          (a) => a.blockChain === chain.value && a.isNative && a.symbol === chain.nativeAsset,
        ),
        chain.value,
      ).toBe(true);
    }
    expect(assetRows.filter((a) => a.symbol === 'USDC').length).toBeGreaterThanOrEqual(3);
    expect(assetRows.some((a) => a.symbol === 'USDT' && a.blockChain === 'TRON')).toBe(true);
  });

  it('opens a change request for everything awaiting approval', async () => {
    const requests = await db().select().from(changeRequests);
    const pendingFor = new Set(
      requests.filter((r) => r.status === 'PENDING').map((r) => r.entityId),
    );
    const pendingTx = (await db().select().from(transactions)).filter(
      (r) => r.status === 'PENDING',
    );
    const pendingAccounts = (await db().select().from(bankAccounts)).filter(
      (r) => r.status === 'PENDING',
    );
    for (const entity of [...pendingTx, ...pendingAccounts])
      expect(pendingFor).toContain(entity.id);
    expect(new Set(requests.map((r) => r.approvalId)).size).toBe(requests.length);
  });
});
