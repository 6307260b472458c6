import { describe, expect } from 'vitest';
import { add } from '#contract/decimal.ts';
import { pathOf } from '#contract/endpoint.ts';
import { ledgerStatement } from '#contract/endpoints/ledger.ts';
import { passSandboxStakingEpochs } from '#contract/endpoints/sandbox-world.ts';
import { LedgerStatementResponse } from '#contract/ledger.ts';
import { paths, toQueryString } from '#contract/paths.ts';
import { SandboxStakingEpochs } from '#contract/sandbox-world.ts';
import type { Transaction } from '#contract/transaction.ts';
import { engineTest as it } from '../../test/engine-test.ts';

/**
 * A staking reward seen without waiting for an epoch to end: a vault's
 * stake that has earned nothing yet is moved epochs into the past, and the
 * epochs that thereby ended are paid at once, as the simulator pays them.
 * Who may call it, in and out of scope, is the authorization matrix's.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('passing a sandbox vault’s staking epochs', () => {
  it('a stake of 50,000 TRX moved two days back is paid its two daily epochs now, as REWARD lines of the statement; once earned it is not moved again', async ({
    t,
    f,
  }) => {
    t.clock.set('2030-05-10T12:00:00Z');
    const vault = f.treasury;
    const url = pathOf(passSandboxStakingEpochs, { vaultId: vault.id });

    const none = await t.post(url, { chain: 'TRON', epochs: 2 });
    expect(none.status, JSON.stringify(none.body)).toBe(409);
    expect(String(none.body.message)).toContain('no stake earning on TRON');
    const unpaid = await t.post(url, { chain: 'BITCOIN', epochs: 2 });
    expect(unpaid.status).toBe(400);
    expect(unpaid.body.fields).toEqual([
      { field: 'chain', message: expect.stringContaining('not BITCOIN') as unknown },
    ]);
    const many = await t.post(url, { chain: 'TRON', epochs: 400 });
    expect(many.status).toBe(400);
    expect(JSON.stringify(many.body)).toContain('epochs must be at most 31');

    const res = await t.post(paths.transactions(), {
      category: 'STAKE',
      source: { type: 'VAULT', id: vault.id },
      asset: 'TRX',
      blockChain: 'TRON',
      amount: '50000',
      resourceType: 'TRON_ENERGY',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = String(res.body.id);
    expect(await t.approve(id)).toBe(true);
    await t.run(HOUR);
    expect(await t.status(id)).toBe('COMPLETED');
    const before = (await t.balance(vault.id, 'TRX', 'TRON')).amount;

    const passed = await t.post(url, { chain: 'TRON', epochs: 2 });
    expect(passed.status, JSON.stringify(passed.body)).toBe(200);
    const answer = SandboxStakingEpochs.parse(passed.body);
    // 50,000 × 4 % / 365 a day, in whole sun (6 places) with the rest carried.
    expect(answer).toEqual({
      vaultId: vault.id,
      chain: 'TRON',
      asset: 'TRX',
      rewards: [
        { at: '2030-05-09T00:00:00.000Z', amount: '5.479452' },
        { at: '2030-05-10T00:00:00.000Z', amount: '5.479452' },
      ],
    });
    expect((await t.balance(vault.id, 'TRX', 'TRON')).amount).toBe(
      add(before, add('5.479452', '5.479452')),
    );
    // The stake itself happened two days earlier, its whole timeline with it.
    const stake = (await t.get(paths.transaction(id))).body as Transaction;
    expect(Date.parse(stake.updatedAt ?? '')).toBeLessThan(Date.parse('2030-05-09T00:00:00Z'));

    const statement = await t.get(
      `${pathOf(ledgerStatement)}${toQueryString({
        vaultId: vault.id,
        from: new Date(Date.parse('2030-05-08T00:00:00Z')).toISOString(),
        to: new Date(t.clock.now().getTime() + DAY).toISOString(),
      })}`,
    );
    expect(statement.status, JSON.stringify(statement.body)).toBe(200);
    const rewards = LedgerStatementResponse.parse(statement.body).results.filter(
      (l) => l.kind === 'REWARD',
    );
    expect(rewards.map((l) => [l.at, l.amount, l.asset])).toEqual([
      ['2030-05-09T00:00:00.000Z', '5.479452', 'TRX'],
      ['2030-05-10T00:00:00.000Z', '5.479452', 'TRX'],
    ]);

    // Paid epochs stand on the grid: moved back again, they would be paid twice.
    const again = await t.post(url, { chain: 'TRON', epochs: 1 });
    expect(again.status, JSON.stringify(again.body)).toBe(409);
    expect(String(again.body.message)).toContain('has earned already');
  });
});
