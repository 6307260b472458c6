import { and, eq, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { add, cmp } from '#contract/decimal.ts';
import { isTerminalStatus } from '#contract/enums.ts';
import type { Transaction } from '#contract/transaction.ts';
import type { CustodyBackend } from '../../../custody/backend.ts';
import { runDueSteps } from '../../../custody/sandbox/engine/simulator.ts';
import type { Database } from '../../../db/client.ts';
import { bankAccounts, contacts, vaultBalances } from '../../../db/schema/sandbox.ts';
import { appTestWith } from '../../../test/app-test.ts';
import { createEngineFixture } from '../../../test/engine-test-app.ts';
import { createBankAccount, createContact, createVault } from '../../../test/fixtures.ts';
import { approvedRun, executorOver } from '../../../test/payment-runs.ts';
import { TestClock } from '../../../test/test-clock.ts';
import { createSandboxBackend } from '../../../wiring/sandbox-backend.ts';
import { loadRun } from '../../payment-runs/store.ts';

/**
 * The issue's promise, as a property: random approved runs (sizes, amounts,
 * some rows refused at the custody side, some failing on chain), executed
 * while the server is killed again and again at random points (before or
 * after a create reaches the custody side, after a row's approval is sent,
 * always before the console records it) and started again on the same
 * database. Every row ends with exactly one transaction or one recorded
 * refusal, no row is paid twice, and per asset the vaults' balances plus the
 * fees and what was paid out equal what they held before.
 */

// The assets and reference data the engine needs; each run makes its own vaults and contacts.
const runTest = appTestWith({}, (t) => createEngineFixture(t.db, t.orgId));

const HOUR = 60 * 60 * 1000;
const AMOUNTS = ['0.5', '1.25', '2', '3.75'];
/** A fiat row's amounts: an off-ramp takes at least 10. */
const FIAT_AMOUNTS = ['10', '12.5', '20'];

/**
 * How a row ends: paid, refused at its create (its contact declined), or failed on chain (its
 * vault emptied); a fiat row paid by its off-ramp, or refused at execution (its bank account
 * declined after the run's approval).
 */
type Fate = 'pay' | 'refuse' | 'fail' | 'fiat' | 'fiatRefuse';
const isFiat = (fate: Fate | undefined) => fate === 'fiat' || fate === 'fiatRefuse';

/**
 * Where a life of the server ends: at its n-th write to the custody side (a
 * create or a row's approval), just before it or just after it. Every life
 * writes at least twice while rows wait, so the first kill always lands.
 */
interface Kill {
  nth: number;
  after: boolean;
}

const scenario = fc.record({
  rows: fc.array(
    fc.record({
      amount: fc.constantFrom(...AMOUNTS),
      fate: fc.oneof(
        { weight: 6, arbitrary: fc.constant<Fate>('pay') },
        { weight: 1, arbitrary: fc.constant<Fate>('refuse') },
        { weight: 1, arbitrary: fc.constant<Fate>('fail') },
        { weight: 2, arbitrary: fc.constant<Fate>('fiat') },
        { weight: 1, arbitrary: fc.constant<Fate>('fiatRefuse') },
      ),
      fiatAmount: fc.constantFrom(...FIAT_AMOUNTS),
    }),
    { minLength: 2, maxLength: 5 },
  ),
  rowsPerPass: fc.integer({ min: 1, max: 3 }),
  kills: fc.array(fc.record({ nth: fc.integer({ min: 1, max: 2 }), after: fc.boolean() }), {
    minLength: 1,
    maxLength: 5,
  }),
});

class Killed extends Error {}

/**
 * The sandbox as one life of the server sees it: at its kill it stops, and
 * from then on every call fails as a dead process's would (nothing reaches
 * the custody side, nothing is recorded).
 */
function mortal(
  sandbox: CustodyBackend,
  kill: Kill | undefined,
): CustodyBackend & { dead(): boolean } {
  let dead = false;
  let writes = 0;
  async function at<T>(call: string, act: () => Promise<T>): Promise<T> {
    if (dead) throw new Killed('the server is down');
    writes += 1;
    const now = kill?.nth === writes;
    if (now && !kill.after) {
      dead = true;
      throw new Killed(`killed before ${call} (write ${writes})`);
    }
    const answer = await act();
    if (now) {
      dead = true;
      throw new Killed(`killed after ${call} (write ${writes})`);
    }
    return answer;
  }
  return {
    ...sandbox,
    dead: () => dead,
    createTransaction: (ctx, body) => at('create', () => sandbox.createTransaction(ctx, body)),
    createRampTransaction: (ctx, body) =>
      at('create', () => sandbox.createRampTransaction(ctx, body)),
    quoteRamp: (ctx, body) =>
      dead ? Promise.reject(new Killed('down')) : sandbox.quoteRamp(ctx, body),
    getBankAccount: (ctx, id) =>
      dead ? Promise.reject(new Killed('down')) : sandbox.getBankAccount(ctx, id),
    decideApproval: (ctx, id, body) => at('approve', () => sandbox.decideApproval(ctx, id, body)),
    listTransactions: (ctx, q) =>
      dead ? Promise.reject(new Killed('down')) : sandbox.listTransactions(ctx, q),
    getTransaction: (ctx, id) =>
      dead ? Promise.reject(new Killed('down')) : sandbox.getTransaction(ctx, id),
    transactionStatuses: (ctx, ids) =>
      dead || !sandbox.transactionStatuses
        ? Promise.reject(new Killed('down'))
        : sandbox.transactionStatuses(ctx, ids),
  };
}

describe('payment runs under crashes (property)', () => {
  // One random run a seed (about 10 s each on a busy machine; the first also starts the app):
  // each test well within the timeout.
  for (const seed of [44, 4_404, 44_044])
    runTest(
      `every row ends once: one transaction or one refusal, never paid twice, balances conserved (seed ${seed})`,
      async ({ t, initiator, approver }) => {
        let runNumber = 0;
        await fc.assert(
          fc.asyncProperty(scenario, async ({ rows, rowsPerPass, kills }) => {
            runNumber += 1;
            // Each run pays from vaults of its own, so runs share the database without sharing money.
            const main = await createVault(
              t.db,
              { orgId: t.orgId, vaultName: `Prop ${runNumber}` },
              [
                { asset: 'ETH', chain: 'ETHEREUM', amount: '5' },
                { asset: 'USDC', chain: 'ETHEREUM', amount: '200' },
              ],
            );
            const doomed = await createVault(
              t.db,
              { orgId: t.orgId, vaultName: `Prop ${runNumber} doomed` },
              [
                { asset: 'ETH', chain: 'ETHEREUM', amount: '5' },
                { asset: 'USDC', chain: 'ETHEREUM', amount: '100' },
              ],
            );
            const payee = await createContact(t.db, {
              orgId: t.orgId,
              name: `Prop payee ${runNumber}`,
              assetList: [],
            });
            const dropped = await createContact(t.db, {
              orgId: t.orgId,
              name: `Prop dropped ${runNumber}`,
              assetList: [],
            });
            const bank = await createBankAccount(t.db, { orgId: t.orgId, status: 'APPROVED' });
            const closing = await createBankAccount(t.db, { orgId: t.orgId, status: 'APPROVED' });
            const runId = await approvedRun(
              initiator,
              approver,
              `Property run ${seed}/${runNumber}`,
              rows.map((r, i) =>
                isFiat(r.fate)
                  ? {
                      kind: 'FIAT',
                      sourceVaultId: main.id,
                      bankAccountId: r.fate === 'fiat' ? bank.id : closing.id,
                      asset: 'USDC',
                      blockChain: 'ETHEREUM',
                      amount: r.fiatAmount,
                      reference: `PROP-${seed}-${runNumber}-${i + 1}`,
                    }
                  : {
                      kind: 'CRYPTO',
                      sourceVaultId: r.fate === 'fail' ? doomed.id : main.id,
                      contactId: r.fate === 'refuse' ? dropped.id : payee.id,
                      asset: 'USDC',
                      blockChain: 'ETHEREUM',
                      amount: r.amount,
                      reference: `PROP-${seed}-${runNumber}-${i + 1}`,
                    },
              ),
            );
            // After the approval: one contact declined (its rows' creates are refused), one vault
            // emptied of USDC (its rows' transactions fail at signing).
            await t.db
              .update(bankAccounts)
              .set({ status: 'DECLINED' })
              .where(eq(bankAccounts.id, closing.id));
            await t.db
              .update(contacts)
              .set({ status: 'DECLINED' })
              .where(eq(contacts.id, dropped.id));
            await t.db
              .update(vaultBalances)
              .set({ amount: '0' })
              .where(and(eq(vaultBalances.vaultId, doomed.id), eq(vaultBalances.asset, 'USDC')));
            const vaultIds = [main.id, doomed.id];
            const before = await totals(t.db, vaultIds);

            const clock = new TestClock(new Date());
            const sandbox = createSandboxBackend({ db: t.db, orgId: t.orgId, clock });
            let lives = 0;
            let killed = 0;
            for (; lives < 40; lives += 1) {
              const life = mortal(sandbox, kills[lives]);
              const executor = executorOver(t, clock, life, rowsPerPass);
              // One life: passes until it is killed or has nothing more to do.
              for (let pass = 0; pass < 3 && !life.dead(); pass += 1) await executor.pass();
              if (life.dead()) killed += 1;
              const status = (await loadRun(t.db, runId))?.run.status;
              if (status === 'COMPLETED' || status === 'PARTIALLY_FAILED') break;
              clock.advance(HOUR);
              await runDueSteps(t.db, clock, { timeScale: 1 });
            }

            // The server really was killed mid-run (a kill whose call never came is no kill).
            expect(killed).toBeGreaterThan(0);
            const stored = await loadRun(t.db, runId);
            const paysAll = rows.every((r) => r.fate === 'pay' || r.fate === 'fiat');
            expect(stored?.run.status).toBe(paysAll ? 'COMPLETED' : 'PARTIALLY_FAILED');
            const ours: Transaction[] = [];
            for (const [i, row] of (stored?.rows ?? []).entries()) {
              const fate = rows[i]?.fate;
              const found = (
                await sandbox.listTransactions({}, { externalId: row.externalId, limit: 10 })
              ).results;
              if (fate === 'refuse' || fate === 'fiatRefuse') {
                expect(row.status, `row ${row.index}`).toBe('REFUSED');
                expect(row.failure).toBeTruthy();
                expect(found).toEqual([]);
                continue;
              }
              expect(
                found.map((x) => x.id),
                `row ${row.index}`,
              ).toEqual([row.transactionId]);
              const tx = found[0];
              if (!tx) continue;
              ours.push(tx);
              expect(isTerminalStatus(tx.status)).toBe(true);
              const paid = fate === 'pay' || fate === 'fiat';
              expect(row.status).toBe(paid ? 'COMPLETED' : 'FAILED');
              expect(tx.status).toBe(paid ? 'COMPLETED' : 'FAILED');
              if (fate === 'fiat') expect(tx.category).toBe('OFF_RAMP');
            }
            // Nothing else left the run's vaults: no row paid twice under another id.
            const fromVaults = (
              await sandbox.listTransactions({}, { vaultId: main.id, limit: 100 })
            ).results.concat(
              (await sandbox.listTransactions({}, { vaultId: doomed.id, limit: 100 })).results,
            );
            expect(fromVaults.map((x) => x.id).sort()).toEqual(ours.map((x) => x.id).sort());

            // Per asset: the vaults now, plus fees, plus what was paid out, equal the vaults before.
            const after = await totals(t.db, vaultIds);
            const spent = new Map<string, string>();
            const count = (asset: string, amount: string) =>
              spent.set(asset, add(spent.get(asset) ?? '0', amount));
            for (const tx of ours) {
              if (tx.category === 'OFF_RAMP') {
                // What an off-ramp takes is its row's amount, the provider's fee inside it.
                const row = stored?.rows.find((r) => r.transactionId === tx.id);
                if (tx.status === 'COMPLETED') count('USDC', row?.amount ?? '0');
                continue;
              }
              const landed = tx.status === 'COMPLETED' || (tx.status === 'FAILED' && tx.txHash);
              if (tx.status === 'COMPLETED') count(tx.asset ?? '', tx.amount ?? '0');
              if (landed && tx.fees?.amount) count(tx.fees.asset ?? 'ETH', tx.fees.amount);
            }
            for (const asset of new Set([...before.keys(), ...after.keys()]))
              expect(
                cmp(
                  add(after.get(asset) ?? '0', spent.get(asset) ?? '0'),
                  before.get(asset) ?? '0',
                ),
                `${asset}: before ${before.get(asset)}, after ${after.get(asset)}, spent ${spent.get(asset)}`,
              ).toBe(0);
          }),
          { numRuns: 1, seed, endOnFailure: true },
        );
      },
    );

  /** Per asset, what the vaults hold (nothing is held mid-flight once every row has ended). */
  async function totals(db: Database, vaultIds: string[]): Promise<Map<string, string>> {
    const rows = await db
      .select()
      .from(vaultBalances)
      .where(inArray(vaultBalances.vaultId, vaultIds));
    const out = new Map<string, string>();
    for (const b of rows) out.set(b.asset, add(out.get(b.asset) ?? '0', b.amount));
    return out;
  }
});
