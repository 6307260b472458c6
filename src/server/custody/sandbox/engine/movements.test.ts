import { asc, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { cmp, neg, sum } from '#contract/decimal.ts';
import { depositToSandboxVault } from '#contract/endpoints/sandbox-world.ts';
import { pathOf } from '#contract/endpoint.ts';
import { paths } from '#contract/paths.ts';
import { GetTradeQuoteResponse } from '#contract/trades.ts';
import { Transaction } from '#contract/transaction.ts';
import { ledgerMovements, vaultBalances } from '../../../db/schema/sandbox.ts';
import type { EngineTestApp } from '../../../test/engine-test-app.ts';
import {
  bestQuote,
  INTENT_CREATE_PATH,
  jsIntent,
  jsParty,
  QUOTE_PATH,
  rampTest,
  runRampToEnd,
} from '../../../test/ramp-fixtures.ts';

const it = rampTest;

async function created(res: { status: number; body: Record<string, unknown> }): Promise<string> {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return String(res.body.id);
}

async function runToEnd(t: EngineTestApp, id: string): Promise<string | undefined> {
  for (let i = 0; i < 20; i += 1) {
    const status = await t.status(id);
    if (status === 'COMPLETED' || status === 'FAILED' || status === 'DECLINED') return status;
    await t.run(10 * 60_000);
  }
  return t.status(id);
}

async function movementsOf(t: EngineTestApp, vaultId: string) {
  return t.db
    .select()
    .from(ledgerMovements)
    .where(eq(ledgerMovements.vaultId, vaultId))
    .orderBy(asc(ledgerMovements.id));
}

describe('ledger movements, kept as balances move', () => {
  it('after transfers out and in, a deposit, a revert, a replacement, a decline, a swap and an off-ramp, each balance is the sum of its movements and the last movement says the balance', async ({
    t,
    f,
    r,
    sdk,
  }) => {
    const toContact = await created(
      await t.post(paths.transactions(), {
        category: 'TRANSFER',
        source: { type: 'VAULT', id: f.treasury.id },
        destination: { type: 'CONTACT', id: f.contacts.eth.id },
        amount: '0.5',
        asset: 'ETH',
        blockChain: 'ETHEREUM',
        externalId: 'ledger-out-1',
        memo: 'supplier',
      }),
    );
    const toOps = await created(
      await t.post(paths.transactions(), {
        category: 'TRANSFER',
        source: { type: 'VAULT', id: f.treasury.id },
        destination: { type: 'VAULT', id: f.ops.id },
        amount: '125.25',
        asset: 'USDC',
        blockChain: 'ETHEREUM',
      }),
    );
    const reverted = await created(
      await t.post(paths.transactions(), {
        category: 'TRANSFER',
        source: { type: 'VAULT', id: f.treasury.id },
        destination: { type: 'VAULT', id: f.ops.id },
        amount: '0.1',
        asset: 'ETH',
        blockChain: 'ETHEREUM',
        memo: '[simulate:revert]',
      }),
    );
    const declined = await created(
      await t.post(paths.transactions(), {
        category: 'TRANSFER',
        source: { type: 'VAULT', id: f.treasury.id },
        destination: { type: 'VAULT', id: f.ops.id },
        amount: '0.2',
        asset: 'ETH',
        blockChain: 'ETHEREUM',
      }),
    );
    const stuck = await created(
      await t.post(paths.transactions(), {
        category: 'TRANSFER',
        source: { type: 'VAULT', id: f.treasury.id },
        destination: { type: 'VAULT', id: f.ops.id },
        amount: '0.3',
        asset: 'ETH',
        blockChain: 'ETHEREUM',
        gasParams: { feeTier: 'LOW' },
        memo: '[simulate:stuck]',
      }),
    );
    for (const id of [toContact, toOps, reverted, stuck]) await t.approve(id);
    await t.decline(declined, 'not this one');
    await t.run(5_000);
    await t.run(5_000);
    expect(await t.status(stuck)).toBe('SUBMITTED');
    const replacement = await created(
      await t.post(paths.replaceTransaction(), { transactionId: stuck }),
    );
    await t.approve(replacement);

    const deposit = await t.post(pathOf(depositToSandboxVault, { vaultId: f.ops.id }), {
      asset: 'USDC',
      chain: 'ETHEREUM',
      amount: '40.000001',
    });
    expect(deposit.status, JSON.stringify(deposit.body)).toBe(201);

    const q = await sdk.call(
      'python',
      'GET',
      `/api/external/transactions/trade_quote/?${new URLSearchParams({
        vaultId: f.treasury.id,
        fromAsset: 'USDC',
        toAsset: 'ETH',
        fromAmount: '300',
        blockChain: 'ETHEREUM',
        toBlockchain: 'ETHEREUM',
        slippage: '1',
      }).toString()}`,
      undefined,
      '/api/external/transactions/trade_quote/',
    );
    expect(q.status, q.text).toBe(200);
    const answer = GetTradeQuoteResponse.parse(q.body);
    const swap = await sdk.call('python', 'POST', '/api/external/transactions/', {
      vaultId: f.treasury.id,
      tradeRequestData: answer.tradeRequestData,
      tradeResponseData: answer.tradeResponseDataList[0],
      category: 'SWAP',
      blockChain: 'ETHEREUM',
      externalId: 'ledger-swap-1',
      memo: null,
    });
    expect(swap.status, swap.text).toBe(200);
    const swapId = Transaction.parse(swap.body).id ?? '';
    await sdk.approve('python', swapId);

    const intent = jsIntent({
      source: jsParty('VAULT', f.treasury.id),
      destination: jsParty('BANK_ACCOUNT', r.usd.id),
      fromAsset: 'USDC',
      fromAmount: '100',
      fromChain: 'ETHEREUM',
      toAsset: 'USD',
    });
    const rampQuote = await sdk.call('js', 'POST', QUOTE_PATH, { intent });
    expect(rampQuote.status, rampQuote.text).toBe(200);
    const ramp = await sdk.call('js', 'POST', INTENT_CREATE_PATH, {
      intent,
      quoteId: bestQuote(rampQuote.body).quoteId,
      externalId: 'ledger-off-ramp-1',
      memo: 'payroll',
    });
    expect(ramp.status, ramp.text).toBe(200);
    const rampId = Transaction.parse(ramp.body).id ?? '';
    await sdk.approve('js', rampId);

    expect((await runRampToEnd(t, swapId)).status).toBe('COMPLETED');
    expect((await runRampToEnd(t, rampId)).status).toBe('COMPLETED');
    for (const id of [toContact, toOps, replacement])
      expect(await runToEnd(t, id)).toBe('COMPLETED');
    expect(await runToEnd(t, reverted)).toBe('FAILED');
    expect(await runToEnd(t, stuck)).toBe('FAILED');

    for (const vault of [f.treasury, f.ops, f.gas]) {
      const movements = await movementsOf(t, vault.id);
      const balances = await t.db
        .select()
        .from(vaultBalances)
        .where(eq(vaultBalances.vaultId, vault.id));
      expect(balances.length).toBeGreaterThan(0);
      for (const b of balances) {
        const own = movements.filter((m) => m.asset === b.asset && m.chain === b.chain);
        const label = `${vault.id} ${b.asset} ${b.chain}`;
        expect(cmp(sum(own.map((m) => m.amount)), b.amount), label).toBe(0);
        expect(cmp(own.at(-1)?.balanceAfter ?? '0', b.amount), label).toBe(0);
      }
    }

    // A transfer's amount and its fee are movements of their own, each naming the transaction.
    const sent = (await movementsOf(t, f.treasury.id)).filter((m) => m.transactionId === toContact);
    const fee = Transaction.parse((await t.get(paths.transaction(toContact))).body).fees?.amount;
    expect(sent.map((m) => [m.kind, m.asset, m.amount])).toEqual([
      ['AMOUNT', 'ETH', '-0.5'],
      ['FEE', 'ETH', neg(fee ?? '')],
    ]);
    expect(sent[0]).toMatchObject({
      reference: 'ledger-out-1',
      memo: 'supplier',
      usdPrice: '3000',
      counterparty: { type: 'CONTACT', id: f.contacts.eth.id },
    });
    // A revert burns its fee only; a swap's provider fee is split from what it traded.
    const burned = (await movementsOf(t, f.treasury.id)).filter(
      (m) => m.transactionId === reverted,
    );
    expect(burned.map((m) => m.kind)).toEqual(['FEE']);
    const swapped = (await movementsOf(t, f.treasury.id)).filter((m) => m.transactionId === swapId);
    expect(swapped.map((m) => [m.kind, m.asset])).toEqual([
      ['AMOUNT', 'USDC'],
      ['FEE', 'USDC'],
      ['AMOUNT', 'ETH'],
    ]);
    // What a deposit brought in is credited with its transaction's sender as counterparty.
    const credited = (await movementsOf(t, f.ops.id)).filter((m) => m.amount === '40.000001');
    expect(credited).toHaveLength(1);
  });
});
