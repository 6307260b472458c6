import { describe, expect } from 'vitest';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { add, sub } from '#contract/decimal.ts';
import { paths } from '#contract/paths.ts';
import { GetTradeQuoteResponse } from '#contract/trades.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import { twoConsolesTest, type TwoConsoles } from '../../test/two-consoles.ts';

// Console A (upstream mode) forwards a swap's quote and create to console B (the sandbox)
// over real HTTP, every call signed with the API user's key, and keeps its own four-eyes.

const upstreamTest = twoConsolesTest({}, async () => {});

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

async function decide(member: StaffSession, entityId: string) {
  const message = await member.json(`${paths.approvalMessage()}?entityId=${entityId}`);
  expect(message.status).toBe(200);
  const { approvalId } = ApprovalMessageResponse.parse(message.body);
  return member.json(paths.approvalAction(approvalId), post({ action: 'approve' }));
}

async function runB(t: TwoConsoles, id: string) {
  for (let i = 0; i < 8; i += 1) {
    const status = await t.b.status(id);
    if (status === 'COMPLETED' || status === 'FAILED') return status;
    await t.b.run(60 * 60_000);
  }
  return t.b.status(id);
}

describe('swaps through an upstream console', () => {
  upstreamTest(
    'a trade quote and a SWAP create are forwarded; four-eyes kept; the swap completes upstream as quoted',
    async ({ t, admin, approver }) => {
      const vaultId = t.fixture.treasury.id;
      const usdc = await t.b.balance(vaultId, 'USDC', 'ETHEREUM');
      const eth = await t.b.balance(vaultId, 'ETH', 'ETHEREUM');
      const query = new URLSearchParams({
        vaultId,
        fromAsset: 'USDC',
        toAsset: 'ETH',
        fromAmount: '60',
        blockChain: 'ETHEREUM',
        slippage: '1',
      });
      const q = await admin.json(`/api/external/transactions/trade_quote/?${query}`);
      expect(q.status, JSON.stringify(q.body)).toBe(200);
      const answer = GetTradeQuoteResponse.parse(q.body);
      const [best] = answer.tradeResponseDataList;
      if (!best) throw new Error('no quote');
      const created = await admin.json(
        paths.transactions(),
        post({
          category: 'SWAP',
          vaultId,
          tradeRequestData: answer.tradeRequestData,
          tradeResponseData: best,
          externalId: 'upstream-swap-1',
        }),
      );
      expect(created).toMatchObject({
        status: 200,
        body: { status: 'PENDING', category: 'SWAP', finalToAmount: best.finalToAmount },
      });
      const id = (created.body as { id: string }).id;
      // B holds it as the API user's; A remembers its member, and refuses that member's decision.
      expect(await decide(admin, id)).toMatchObject({ status: 403, body: { code: 'FOUR_EYES' } });
      expect((await decide(approver, id)).status).toBe(200);
      expect(await runB(t, id)).toBe('COMPLETED');
      const debit = add('60', best.fees?.amount ?? '');
      expect((await t.b.balance(vaultId, 'USDC', 'ETHEREUM')).amount).toBe(sub(usdc.amount, debit));
      expect((await t.b.balance(vaultId, 'ETH', 'ETHEREUM')).amount).toBe(
        add(eth.amount, best.finalToAmount),
      );
    },
  );
});
