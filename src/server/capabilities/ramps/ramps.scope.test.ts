import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { paths } from '#contract/paths.ts';
import { RampQuoteResponse } from '#contract/ramps.ts';
import { auditLog } from '../../db/schema/console.ts';
import {
  INTENT_CREATE_PATH,
  MARK_DEPOSIT_PATH,
  QUOTE_PATH,
  rampTest,
  type RampFixture,
} from '../../test/ramp-fixtures.ts';
import { signInStaff, type StaffSession } from '../../test/staff-session.ts';

// Staff through the console: a member restricted to the "Ramp desk" sub-organization
// quotes and executes only with its vaults and bank accounts (404 outside), four-eyes
// holds for ramps as for every transaction, and marking a deposit is audited.
const it = rampTest
  .extend('desk', { scope: 'file' }, ({ t, r }) =>
    signInStaff(t.app, t.db, t.authClock, { role: 'admin', subOrgIds: [r.subOrgVault.subOrgId] }),
  )
  .extend('deskApprover', { scope: 'file' }, ({ t, r }) =>
    signInStaff(t.app, t.db, t.authClock, {
      role: 'approver',
      subOrgIds: [r.subOrgVault.subOrgId],
    }),
  );

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

const deskIntent = (r: RampFixture) => ({
  source: { type: 'VAULT', id: r.subOrgVault.id },
  destination: { type: 'BANK_ACCOUNT', id: r.otherSubOrg.id },
  fromAsset: 'USDC',
  fromAmount: '50',
  fromChain: 'ETHEREUM',
  toAsset: 'USD',
});

async function decide(member: StaffSession, entityId: string) {
  const message = await member.json(`${paths.approvalMessage()}?entityId=${entityId}`);
  if (message.status !== 200) return message;
  const { approvalId } = ApprovalMessageResponse.parse(message.body);
  return member.json(paths.approvalAction(approvalId), post({ action: 'approve' }));
}

describe('a member restricted to one sub-organization', () => {
  it('cannot quote with a vault or bank account outside it: 404, as if it did not exist', async ({
    f,
    r,
    desk,
  }) => {
    const orgVault = await desk.json(
      QUOTE_PATH,
      post({ intent: { ...deskIntent(r), source: { type: 'VAULT', id: f.treasury.id } } }),
    );
    expect(orgVault).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const orgAccount = await desk.json(
      QUOTE_PATH,
      post({ intent: { ...deskIntent(r), destination: { type: 'BANK_ACCOUNT', id: r.usd.id } } }),
    );
    expect(orgAccount).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });

  it('quotes and executes within it; must send the intent; cannot execute a quote priced elsewhere', async ({
    f,
    r,
    sdk: client,
    desk,
    deskApprover,
  }) => {
    const q = await desk.json(QUOTE_PATH, post({ intent: deskIntent(r) }));
    expect(q.status).toBe(200);
    const quote = RampQuoteResponse.parse(q.body).quotes[0];
    expect(quote?.subOrgId).toBe(r.subOrgVault.subOrgId);
    const bare = await desk.json(INTENT_CREATE_PATH, post({ quoteId: quote?.quoteId }));
    expect(bare).toMatchObject({ status: 400, body: { fields: [{ field: 'intent' }] } });

    // A quote the organization's API client priced, with the desk's intent pasted on.
    const orgQuote = await client.call('js', 'POST', QUOTE_PATH, {
      intent: {
        ...deskIntent(r),
        source: { type: 'VAULT', id: f.treasury.id },
        destination: { type: 'BANK_ACCOUNT', id: r.usd.id },
      },
    });
    expect(orgQuote.status, orgQuote.text).toBe(200);
    const foreign = await desk.json(
      INTENT_CREATE_PATH,
      post({
        intent: deskIntent(r),
        quoteId: RampQuoteResponse.parse(orgQuote.body).quotes[0]?.quoteId,
      }),
    );
    expect(foreign).toMatchObject({ status: 400, body: { code: 'QUOTE_OUT_OF_SCOPE' } });

    const created = await desk.json(
      INTENT_CREATE_PATH,
      post({ intent: deskIntent(r), quoteId: quote?.quoteId, externalId: 'desk-1' }),
    );
    expect(created.status).toBe(200);
    const tx = created.body as { id: string; subOrgId: string; status: string };
    expect(tx).toMatchObject({ subOrgId: r.subOrgVault.subOrgId, status: 'PENDING' });

    // Four-eyes: its creator cannot approve it; another member of the desk can.
    expect(await decide(desk, tx.id)).toMatchObject({ status: 403, body: { code: 'FOUR_EYES' } });
    expect((await decide(deskApprover, tx.id)).status).toBe(200);

    // The bank account's ramps: the desk's account lists it; the organization's is out of scope.
    const listed = await desk.json(`/api/console/bank_accounts/${r.otherSubOrg.id}/ramps/`);
    expect(listed.status).toBe(200);
    expect((listed.body as { results: Array<{ id: string }> }).results.map((x) => x.id)).toContain(
      tx.id,
    );
    const hidden = await desk.json(`/api/console/bank_accounts/${r.usd.id}/ramps/`);
    expect(hidden).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });

  it('marks an on-ramp’s deposit only in scope; the mark is audited', async ({
    t,
    f,
    sdk: client,
    desk,
  }) => {
    const q = await client.call('js', 'POST', QUOTE_PATH, {
      intent: {
        destination: { type: 'VAULT', id: f.treasury.id },
        fromAsset: 'USD',
        fromAmount: '100',
        toAsset: 'USDC',
        toChain: 'ETHEREUM',
      },
    });
    const created = await client.call('js', 'POST', INTENT_CREATE_PATH, {
      quoteId: RampQuoteResponse.parse(q.body).quotes[0]?.quoteId,
    });
    const id = String(created.body.id);
    await client.approve('js', id);
    const outside = await desk.json(MARK_DEPOSIT_PATH, post({ transactionId: id }));
    expect(outside).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    const initiator = await signInStaff(t.app, t.db, t.authClock, { role: 'initiator' });
    const marked = await initiator.json(MARK_DEPOSIT_PATH, post({ transactionId: id }));
    expect(marked).toMatchObject({ status: 200, body: { status: 'SUBMITTED' } });
    const rows = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'transaction.mark_deposit_done'), eq(auditLog.entityId, id)));
    expect(rows.map((row) => [row.outcome, row.actorId])).toEqual([
      ['success', initiator.member.id],
    ]);
    // A viewer may not.
    const viewer = await signInStaff(t.app, t.db, t.authClock, { role: 'viewer' });
    expect((await viewer.json(MARK_DEPOSIT_PATH, post({ transactionId: id }))).status).toBe(403);
  });
});
