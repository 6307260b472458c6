import { expect } from 'vitest';
import { ApprovalCardResponse, intentDigest } from '#contract/approval-card.ts';
import { add, neg, sub } from '#contract/decimal.ts';
import { pathOf } from '#contract/endpoint.ts';
import { previewApprovalCard } from '#contract/endpoints/approval-card-preview.ts';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import { paths } from '#contract/paths.ts';
import { GetTradeQuoteResponse } from '#contract/trades.ts';
import { Transaction } from '#contract/transaction.ts';
import { rampTest } from '../../../test/ramp-fixtures.ts';
import { signInStaff } from '../../../test/staff-session.ts';

/**
 * A swap's approval card (transaction.ts): both legs (what is sold, what
 * arrives), the quote it executes (provider, rate, expiry) and the vault's
 * balance of each asset before and after.
 */

const swapCardTest = rampTest.extend('staff', { scope: 'file' }, async ({ t }) => {
  const as = (role: 'initiator' | 'approver', name: string) =>
    signInStaff(t.app, t.db, t.authClock, { role, name, subOrgIds: null });
  return { ivy: await as('initiator', 'Ivy Swap'), ada: await as('approver', 'Ada Swap') };
});

const send = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

swapCardTest(
  'a swap: both legs, the quote (provider, rate, what arrives, expiry) and each asset of the vault before → after',
  async ({ t, f, staff }) => {
    const query = new URLSearchParams({
      vaultId: f.treasury.id,
      fromAsset: 'USDC',
      toAsset: 'ETH',
      fromAmount: '120',
      blockChain: 'ETHEREUM',
      toBlockchain: 'ETHEREUM',
    });
    const quoted = await staff.ivy.json(`/api/external/transactions/trade_quote/?${query}`);
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
    const answer = GetTradeQuoteResponse.parse(quoted.body);
    const [best] = answer.tradeResponseDataList;
    if (!best) throw new Error('no quote');
    const made = await staff.ivy.json(
      paths.transactions(),
      send({
        category: 'SWAP',
        vaultId: f.treasury.id,
        tradeRequestData: answer.tradeRequestData,
        tradeResponseData: best,
      }),
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = Transaction.parse(made.body).id ?? '';
    const usdc = await t.balance(f.treasury.id, 'USDC', 'ETHEREUM');
    const eth = await t.balance(f.treasury.id, 'ETH', 'ETHEREUM');

    const res = await staff.ada.json(pathOf(approvalCard, { entityId: id }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { card, digest } = ApprovalCardResponse.parse(res.body);
    expect(digest).toBe(intentDigest(card.intent));
    expect(card.intent).toMatchObject({
      category: 'SWAP',
      source: { id: f.treasury.id, name: 'Treasury' },
      destination: { type: 'VAULT', id: f.treasury.id, ours: true },
      asset: 'USDC',
      amount: '120',
      blockChain: 'ETHEREUM',
      quote: {
        quoteId: best.quoteId,
        provider: best.sourceName,
        rate: best.unitToAssetAmount,
        arrivesAmount: best.finalToAmount,
        arrivesAsset: 'ETH',
        expiresAt: best.quotesValidTill,
      },
    });
    const debit = add('120', best.fees?.amount ?? '');
    // The balances read now hold the swap's amount and fee already: the card shows the amounts.
    expect(card.status.balances).toEqual([
      {
        vault: { id: f.treasury.id, name: 'Treasury' },
        asset: 'USDC',
        blockChain: 'ETHEREUM',
        change: neg(debit),
        before: usdc.amount,
        after: sub(usdc.amount, debit),
      },
      {
        vault: { id: f.treasury.id, name: 'Treasury' },
        asset: 'ETH',
        blockChain: 'ETHEREUM',
        change: best.finalToAmount,
        before: eth.amount,
        after: add(eth.amount, best.finalToAmount),
      },
    ]);
  },
);

swapCardTest(
  "a swap's review before it is sent: the card the approver will see, the same intent and digest, and its rule",
  async ({ f, staff }) => {
    const query = new URLSearchParams({
      vaultId: f.treasury.id,
      fromAsset: 'USDC',
      toAsset: 'ETH',
      fromAmount: '130.5',
      blockChain: 'ETHEREUM',
      toBlockchain: 'ETHEREUM',
      slippage: '1',
    });
    const quoted = await staff.ivy.json(`/api/external/transactions/trade_quote/?${query}`);
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
    const answer = GetTradeQuoteResponse.parse(quoted.body);
    const [best] = answer.tradeResponseDataList;
    if (!best) throw new Error('no quote');
    const body = {
      category: 'SWAP',
      vaultId: f.treasury.id,
      tradeRequestData: answer.tradeRequestData,
      tradeResponseData: best,
      externalId: 'swap-preview-1',
    };

    const previewed = await staff.ivy.json(pathOf(previewApprovalCard), send(body));
    expect(previewed.status, JSON.stringify(previewed.body)).toBe(200);
    const preview = ApprovalCardResponse.parse(previewed.body);
    expect(preview.card.intent).toMatchObject({
      category: 'SWAP',
      asset: 'USDC',
      amount: '130.5',
      quote: { quoteId: best.quoteId, arrivesAmount: best.finalToAmount, arrivesAsset: 'ETH' },
    });
    expect(preview.card.intent.rule).not.toBeNull();
    expect(preview.card.status.entityId).toBeNull();

    // Nothing was made: the quote is still there to be used, and the card once made is the same.
    const made = await staff.ivy.json(paths.transactions(), send(body));
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = Transaction.parse(made.body).id ?? '';
    const res = await staff.ada.json(pathOf(approvalCard, { entityId: id }));
    const { card, digest } = ApprovalCardResponse.parse(res.body);
    expect(card.intent).toEqual(preview.card.intent);
    expect(digest).toBe(preview.digest);

    // A used quote is refused, naming it, as the create would refuse it.
    const again = await staff.ivy.json(pathOf(previewApprovalCard), send(body));
    expect(again.status, JSON.stringify(again.body)).toBe(400);
    expect(again.body).toMatchObject({ code: 'QUOTE_ALREADY_USED' });
  },
);
