import { describe, expect } from 'vitest';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { paths } from '#contract/paths.ts';
import { RampQuoteResponse } from '#contract/ramps.ts';
import { createBankAccount, createSubOrg, createVault } from '../../test/fixtures.ts';
import { INTENT_CREATE_PATH, MARK_DEPOSIT_PATH, QUOTE_PATH } from '../../test/ramp-fixtures.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import { twoConsolesTest, type TwoConsoles } from '../../test/two-consoles.ts';

// Console A (upstream mode) forwards ramps to console B (the sandbox) over real HTTP,
// every call signed with the API user's key (B refuses anything else), and keeps its own
// four-eyes and scope on top.

/** On B: an approved USD account, and a vault of the Desk sub-organization holding USDC. */
const on = { usdAccount: '', deskVault: '', deskSubOrg: '' };
const upstreamTest = twoConsolesTest({}, async (t) => {
  on.usdAccount = (
    await createBankAccount(t.b.db, {
      orgId: t.b.orgId,
      status: 'APPROVED',
      accountNumber: '111222333',
    })
  ).id;
  on.deskSubOrg = (await createSubOrg(t.b.db, t.b.orgId, 'Desk')).id;
  on.deskVault = (
    await createVault(t.b.db, { orgId: t.b.orgId, subOrgId: on.deskSubOrg }, [
      { asset: 'USDC', chain: 'ETHEREUM', amount: '100' },
    ])
  ).id;
})
  // An initiator restricted to the Desk sub-organization.
  .extend('desk', { scope: 'file' }, ({ t }) =>
    t.signIn('initiator', { subOrgIds: [on.deskSubOrg] }),
  );

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

describe('ramps through an upstream console', () => {
  upstreamTest(
    'off-ramp: quoted and executed upstream, four-eyes kept, completed, listed on the account',
    async ({ t, admin, initiator, approver }) => {
      const intent = {
        source: { type: 'VAULT', id: t.fixture.treasury.id },
        destination: { type: 'BANK_ACCOUNT', id: on.usdAccount },
        fromAsset: 'USDC',
        fromAmount: '40',
        fromChain: 'ETHEREUM',
        toAsset: 'USD',
      };
      const q = await admin.json(QUOTE_PATH, post({ intent }));
      expect(q.status).toBe(200);
      const quote = RampQuoteResponse.parse(q.body).quotes[0];
      const created = await admin.json(
        INTENT_CREATE_PATH,
        post({ intent, quoteId: quote?.quoteId, externalId: 'upstream-ramp-1' }),
      );
      expect(created).toMatchObject({
        status: 200,
        body: { status: 'PENDING', category: 'OFF_RAMP' },
      });
      const id = (created.body as { id: string }).id;
      // B holds it as the API user's; A remembers its member, and refuses that member's decision.
      expect(await decide(admin, id)).toMatchObject({ status: 403, body: { code: 'FOUR_EYES' } });
      expect((await decide(approver, id)).status).toBe(200);
      expect(await runB(t, id)).toBe('COMPLETED');
      const listed = await initiator.json(`/api/console/bank_accounts/${on.usdAccount}/ramps/`);
      expect(listed.status).toBe(200);
      expect((listed.body as { results: Array<{ id: string }> }).results.map((x) => x.id)).toEqual([
        id,
      ]);
      // A used quote is refused upstream, and the refusal reaches the member as it was.
      const again = await initiator.json(
        INTENT_CREATE_PATH,
        post({ intent, quoteId: quote?.quoteId }),
      );
      expect(again).toMatchObject({ status: 400, body: { code: 'QUOTE_ALREADY_USED' } });
    },
  );

  upstreamTest(
    'on-ramp: the G1 create and mark_deposit_done are forwarded',
    async ({ t, initiator, approver }) => {
      const q = await initiator.json(
        QUOTE_PATH,
        post({
          category: 'ON_RAMP',
          destination: { type: 'VAULT', id: t.fixture.treasury.id },
          fromAsset: 'USD',
          fromAmount: '100',
          toAsset: 'USDC',
          toChain: 'ETHEREUM',
          paymentMethod: null,
        }),
      );
      expect(q.status).toBe(200);
      const created = await initiator.json(
        paths.transactions(),
        post({
          category: 'ON_RAMP',
          destination: { type: 'VAULT', id: t.fixture.treasury.id },
          quoteId: (q.body as { quoteId: string }).quoteId,
        }),
      );
      expect(created).toMatchObject({
        status: 200,
        body: { status: 'PENDING', category: 'ON_RAMP' },
      });
      const id = (created.body as { id: string }).id;
      expect((await decide(approver, id)).status).toBe(200);
      const marked = await initiator.json(MARK_DEPOSIT_PATH, post({ transactionId: id }));
      expect(marked).toMatchObject({ status: 200, body: { status: 'SUBMITTED' } });
      expect(await runB(t, id)).toBe('COMPLETED');
    },
  );

  upstreamTest(
    'FX: quoted, executed, approved by another member, deposit marked, COMPLETED upstream',
    async ({ t, admin, initiator, approver }) => {
      const intent = {
        source: { type: 'EXTERNAL_BANK_ACCOUNT' },
        destination: { type: 'BANK_ACCOUNT', id: on.usdAccount },
        fromAsset: 'EUR',
        fromAmount: '500',
        toAsset: 'USD',
      };
      const q = await admin.json(QUOTE_PATH, post({ intent }));
      expect(q.status, JSON.stringify(q.body)).toBe(200);
      const quote = RampQuoteResponse.parse(q.body).quotes[0];
      const created = await admin.json(
        INTENT_CREATE_PATH,
        post({ intent, quoteId: quote?.quoteId, externalId: 'upstream-fx-1' }),
      );
      expect(created).toMatchObject({
        status: 200,
        body: { status: 'PENDING', category: 'RAMP', subCategory: 'TRADE_WITHDRAW' },
      });
      const id = (created.body as { id: string }).id;
      expect(await decide(admin, id)).toMatchObject({ status: 403, body: { code: 'FOUR_EYES' } });
      expect((await decide(approver, id)).status).toBe(200);
      const marked = await initiator.json(MARK_DEPOSIT_PATH, post({ transactionId: id }));
      expect(marked).toMatchObject({ status: 200, body: { status: 'SUBMITTED' } });
      expect(await runB(t, id)).toBe('COMPLETED');
      const listed = await initiator.json(`/api/console/bank_accounts/${on.usdAccount}/ramps/`);
      expect(
        (listed.body as { results: Array<{ id: string }> }).results.map((x) => x.id),
      ).toContain(id);
    },
  );

  upstreamTest(
    'v2: the newest JS SDK’s quote and the Python SDK’s execute/ are forwarded, four-eyes kept',
    async ({ t, admin, desk }) => {
      const v2 = await admin.json(
        '/api/external/transactions/v2/quote/',
        post({
          intent: {
            input: { asset: 'USDC', amount: '30' },
            output: { asset: 'USD' },
            source: { type: 'VAULT', id: t.fixture.treasury.id, chain: 'ETHEREUM' },
            destination: { type: 'BANK_ACCOUNT', id: on.usdAccount },
          },
        }),
      );
      expect(v2.status, JSON.stringify(v2.body)).toBe(200);
      const [best] = (v2.body as { quotes: Array<{ quoteId: string; input: unknown }> }).quotes;
      expect(best?.input).toMatchObject({ asset: 'USDC', amount: '30' });
      const created = await admin.json(
        '/api/external/transactions/execute/',
        post({ intent: null, quoteId: best?.quoteId, externalId: 'upstream-v2-1', memo: null }),
      );
      expect(created).toMatchObject({
        status: 200,
        body: { status: 'PENDING', category: 'OFF_RAMP' },
      });
      const id = (created.body as { id: string }).id;
      expect(await decide(admin, id)).toMatchObject({ status: 403, body: { code: 'FOUR_EYES' } });
      // A restricted member cannot quote with a vault outside their sub-organization, named by vaultId.
      const outside = await desk.json(
        '/api/external/transactions/v2/quote/',
        post({
          intent: {
            input: { asset: 'USDC', amount: '30', vaultId: t.fixture.treasury.id },
            output: { asset: 'USD' },
            destination: { type: 'BANK_ACCOUNT', id: on.usdAccount },
          },
        }),
      );
      expect(outside).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    },
  );

  upstreamTest(
    'scope: a restricted member cannot quote with a vault outside their sub-organization',
    async ({ t, desk }) => {
      const outside = await desk.json(
        QUOTE_PATH,
        post({
          intent: {
            source: { type: 'VAULT', id: t.fixture.treasury.id },
            destination: { type: 'BANK_ACCOUNT', id: on.usdAccount },
            fromAsset: 'USDC',
            fromAmount: '40',
            fromChain: 'ETHEREUM',
            toAsset: 'USD',
          },
        }),
      );
      expect(outside).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
      const ownVault = await desk.json(
        QUOTE_PATH,
        post({
          intent: {
            source: { type: 'VAULT', id: on.deskVault },
            destination: { type: 'BANK_ACCOUNT', id: on.usdAccount },
            fromAsset: 'USDC',
            fromAmount: '40',
            fromChain: 'ETHEREUM',
            toAsset: 'USD',
          },
        }),
      );
      // Its own vault, but the organization's account: out of scope too.
      expect(ownVault).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    },
  );
});
