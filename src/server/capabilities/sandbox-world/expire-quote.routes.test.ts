import { describe, expect } from 'vitest';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { pathOf } from '#contract/endpoint.ts';
import { expireSandboxRampQuote } from '#contract/endpoints/sandbox-world.ts';
import { paths } from '#contract/paths.ts';
import { RampQuoteResponse } from '#contract/ramps.ts';
import { Transaction } from '#contract/transaction.ts';
import { appTestWith } from '../../test/app-test.ts';
import { createTransaction } from '../../test/fixtures.ts';
import { INTENT_CREATE_PATH, QUOTE_PATH, rampTest } from '../../test/ramp-fixtures.ts';
import { signInStaff } from '../../test/staff-session.ts';

/**
 * A sandbox ramp's quote holds 60 s; what an approval does once it expired
 * (it is priced again first) is tried at once by expiring it early. Who may
 * call it, in and out of scope, is the authorization matrix's.
 */

const it = rampTest.extend('approver', { scope: 'file' }, ({ t }) =>
  signInStaff(t.app, t.db, t.authClock, { role: 'approver' }),
);
/** The same app acting on "upstream": a backend without the sandbox's tools. */
const upstreamTest = appTestWith({
  wrapBackend: (b) => ({ ...b, sandboxWorld: undefined, expireRampQuote: undefined }),
});

const expireUrl = (transactionId: string) => pathOf(expireSandboxRampQuote, { transactionId });

describe('expiring a sandbox ramp’s quote early', () => {
  it('the quote expires at once, and the next approval prices the ramp again first', async ({
    t,
    f,
    r,
    sdk,
    approver,
  }) => {
    const intent = {
      source: { type: 'VAULT', id: f.treasury.id },
      destination: { type: 'BANK_ACCOUNT', id: r.usd.id },
      fromAsset: 'USDC',
      fromAmount: '103',
      fromChain: 'ETHEREUM',
      toAsset: 'USD',
    };
    const quoted = await sdk.call('js', 'POST', QUOTE_PATH, { intent });
    const quoteId = RampQuoteResponse.parse(quoted.body).quotes[0]?.quoteId;
    const created = await sdk.call('js', 'POST', INTENT_CREATE_PATH, { intent, quoteId });
    expect(created.status, created.text).toBe(200);
    const ramp = Transaction.parse(created.body);
    const id = ramp.id ?? '';
    const lockedUntil = Date.parse(ramp.quoteResponse?.expiresAt ?? '');
    expect(lockedUntil).toBeGreaterThan(t.clock.now().getTime());

    // A later expiry than its own never lengthens it.
    const kept = await t.post(expireUrl(id), { inSeconds: 60 });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(Date.parse(Transaction.parse(kept.body).quoteResponse?.expiresAt ?? '')).toBe(
      lockedUntil,
    );

    const expired = await t.post(expireUrl(id), {});
    expect(expired.status, JSON.stringify(expired.body)).toBe(200);
    const answer = Transaction.parse(expired.body);
    expect(answer.quoteResponse?.quoteId).toBe(quoteId);
    expect(Date.parse(answer.quoteResponse?.expiresAt ?? '')).toBe(t.clock.now().getTime());

    // The test clock has not moved: only the early expiry makes the approval re-quote.
    const message = await approver.json(`${paths.approvalMessage()}?entityId=${id}`);
    const { approvalId } = ApprovalMessageResponse.parse(message.body);
    const approved = await approver.json(paths.approvalAction(approvalId), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ action: 'approve' }),
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const after = Transaction.parse((await t.get(paths.transaction(id))).body);
    expect(after.requotes).toEqual([
      expect.objectContaining({ when: 'APPROVAL', previousQuoteId: quoteId }),
    ]);
    expect(after.quoteResponse?.quoteId).not.toBe(quoteId);
  });

  it('refuses a bad inSeconds naming it, anything but a pending ramp, and an unknown transaction', async ({
    t,
    f,
  }) => {
    const transfer = await createTransaction(t.db, { orgId: t.orgId, vaultId: f.treasury.id });
    for (const inSeconds of [-1, 61, 1.5, '5']) {
      const refused = await t.post(expireUrl(transfer.id), { inSeconds });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body).toMatchObject({
        code: 'VALIDATION_ERROR',
        fields: [expect.objectContaining({ field: 'inSeconds' })],
      });
    }
    const notRamp = await t.post(expireUrl(transfer.id), {});
    expect(notRamp.status).toBe(409);
    expect(notRamp.body).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/only a PENDING ramp's quote/),
    });
    const unknown = await t.post(expireUrl('no-such-transaction'), {});
    expect(unknown.status).toBe(404);
  });
});

describe('in upstream mode', () => {
  upstreamTest('it is refused with 409: the provider prices its own quotes', async ({ t }) => {
    const refused = await t.admin.json(expireUrl('any-transaction'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'SANDBOX_ONLY',
      message: expect.stringMatching(/upstream custody service/),
    });
  });
});
