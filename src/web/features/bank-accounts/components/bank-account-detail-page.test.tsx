import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithRouter } from '../../../test/render.tsx';
import { shortDigest } from '#contract/approval-card.ts';
import {
  answerOf,
  installAuthenticator,
  signingRoutes,
  signingState,
  transferCard,
} from '../../../test/signing.ts';
import { BankAccountDetailPage, type BankAccountPermissions } from './bank-account-detail-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ACCOUNT_NUMBER = '000123456789';
const account = {
  id: 'ba_1',
  status: 'PENDING',
  paymentMethod: 'US_ACH',
  accountName: 'Acme Payroll',
  accountNumber: '•••• 6789',
  routingNumber: '•••• 0021',
  bankName: 'JPMorgan Chase',
  country: 'US',
  createdById: 'staff_ivan',
};
const proposal = {
  changeRequestId: 'cr_1',
  status: 'PENDING',
  proposedBy: { type: 'STAFF', id: 'staff_ivan', name: 'Ivan Initiator' },
  proposedAt: '2026-11-23T10:00:00.000Z',
  decidedBy: null,
  decidedAt: null,
  reason: null,
};

/** 1 of 2 under a rule, approved by Ada at 09:30 UTC; Bo may still approve. */
const heldForOneMore = {
  entityId: 'ba_1',
  entityType: 'BANK_ACCOUNT',
  policyVersion: 3,
  ruleName: 'Two for accounts',
  blocked: false,
  required: 2,
  state: 'PENDING',
  approvals: [
    { type: 'STAFF', id: 'staff_ada', name: 'Ada Approver', at: '2026-11-23T09:30:00.000Z' },
  ],
  declinedBy: null,
  eligible: 'approvers or admins',
  stillEligible: [{ id: 'staff_bo', name: 'Bo Admin', role: 'admin' }],
  moreEligible: 0,
  apiClientsMayApprove: false,
  linkedToYou: null,
};

function renderPage(permissions: BankAccountPermissions, progress?: unknown) {
  const decisions: Array<Record<string, unknown>> = [];
  let status = 'PENDING';
  const signing = signingState('ba_1', {
    card: transferCard('ba_1', { kind: 'BANK_ACCOUNT', category: 'BANK_ACCOUNT' }),
  });
  const api = installFakeApi({
    ...signingRoutes('ba_1', signing),
    ...(progress ? { '/api/console/approval_progress/': () => json({ results: [progress] }) } : {}),
    '/api/external/bank_accounts/ba_1/': () => json({ ...account, status }),
    '/api/console/bank_accounts/ba_1/history/': () =>
      json({ entityId: 'ba_1', source: 'change_requests', results: [proposal] }),
    '/api/external/sub_orgs/': () => json({ results: [], hasNext: false }),
    // A reveal is a mutation (audited in the member's name): POST only, as the server answers it.
    '/api/console/bank_accounts/ba_1/reveal/': (_url, init) =>
      init.method !== 'POST'
        ? json({ message: 'Method not allowed', code: 'METHOD_NOT_ALLOWED' }, 405)
        : json({ accountNumber: ACCOUNT_NUMBER, routingNumber: '021000021' }),
    '/api/external/change_requests/approvals/approval_message/': () =>
      json({ approvalId: 'ap_1', message: 'm' }),
    '/api/external/change_requests/approvals/ap_1/action/': (_url, init) => {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      decisions.push(body);
      status = body['action'] === 'approve' ? 'APPROVED' : 'DECLINED';
      return json({
        success: true,
        status: body['action'] === 'approve' ? 'APPROVED' : 'REJECTED',
      });
    },
  });
  renderWithRouter(<BankAccountDetailPage bankAccountId="ba_1" permissions={permissions} />);
  return { ...api, decisions, signing, user: userEvent.setup() };
}

const approver: BankAccountPermissions = {
  memberId: 'staff_ada',
  canReveal: true,
  canApprove: true,
};

describe('BankAccountDetailPage', () => {
  it('offers a viewer no decision and no reveal, only the masked numbers', async () => {
    const { calls } = renderPage({ memberId: 'staff_vera', canReveal: false, canApprove: false });
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Payroll' })).toBeVisible();
    expect(screen.getByRole('region', { name: 'Details' })).toHaveTextContent('•••• 6789');
    expect(
      screen.queryByRole('button', { name: /Approve|Decline|Reveal/ }),
    ).not.toBeInTheDocument();
    expect(calls.some((u) => u.pathname.endsWith('/reveal/'))).toBe(false);
  });

  it('tells the proposer another member decides, and offers them no decision', async () => {
    renderPage({ memberId: 'staff_ivan', canReveal: true, canApprove: true });
    expect(
      await screen.findByText(
        'You proposed this account, so another member must approve or decline it.',
      ),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: /^(Approve|Decline)…$/ })).not.toBeInTheDocument();
  });

  it('tells an approver who approved it when, and what it waits on, and offers no second decision', async () => {
    renderPage(approver, heldForOneMore);
    const said = await screen.findByTestId('you-approved');
    expect(said).toHaveTextContent(
      /^You approved at .+ — waiting on one more of: Bo Admin \(approvers or admins\)\.$/,
    );
    expect(said.querySelector('time')).toHaveAttribute('datetime', '2026-11-23T09:30:00.000Z');
    expect(screen.queryByRole('button', { name: /^(Approve|Decline)…$/ })).not.toBeInTheDocument();
  });

  it('still offers the decision to an approver another member approved before', async () => {
    renderPage({ ...approver, memberId: 'staff_bo' }, heldForOneMore);
    expect(await screen.findByRole('button', { name: 'Approve…' })).toBeVisible();
    expect(screen.queryByTestId('you-approved')).not.toBeInTheDocument();
  });

  it('has the approver confirm against the revealed numbers, then says what happened', async () => {
    const { decisions, calls, signing, user } = renderPage(approver);
    await user.click(await screen.findByRole('button', { name: 'Approve…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve Acme Payroll?' });
    const confirm = within(dialog).getByRole('button', { name: 'Approve bank account' });
    await waitFor(() => expect(dialog).toHaveTextContent(ACCOUNT_NUMBER));
    await within(dialog).findByTestId('signing-note');
    expect(calls.filter((u) => u.pathname.endsWith('/reveal/'))).toHaveLength(1);
    await user.click(confirm);

    const outcome = await screen.findByRole('status', {}, { timeout: 5000 });
    expect(outcome).toHaveTextContent('Approved: the decision is recorded.');
    await waitFor(() => expect(outcome).toHaveFocus());
    // Bound to the account's approval card the dialog showed (the member has no passkey to sign).
    expect(decisions).toEqual([
      { action: 'approve', intent: { digest: answerOf(signing.card).digest } },
    ]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // The numbers left with the dialog.
    expect(document.body).not.toHaveTextContent(ACCOUNT_NUMBER);
  });

  it('needs a reason to decline, and sends it', async () => {
    const { decisions, signing, user } = renderPage(approver);
    await user.click(await screen.findByRole('button', { name: 'Decline…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Decline Acme Payroll?' });
    await within(dialog).findByTestId('signing-note');
    await user.click(within(dialog).getByRole('button', { name: 'Decline bank account' }));
    const reason = within(dialog).getByLabelText('Reason for declining');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Give a reason to decline');
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(reason).toHaveFocus();
    expect(decisions).toEqual([]);

    await user.type(reason, 'Name does not match the instruction letter');
    await user.click(within(dialog).getByRole('button', { name: 'Decline bank account' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Declined: the decision is recorded.',
    );
    expect(decisions).toEqual([
      {
        action: 'reject',
        reason: 'Name does not match the instruction letter',
        intent: { digest: answerOf(signing.card).digest },
      },
    ]);
  });

  it('gives focus back to Approve… when the confirmation is cancelled', async () => {
    const { decisions, user } = renderPage(approver);
    const approve = await screen.findByRole('button', { name: 'Approve…' });
    await user.click(approve);
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Approve…' })).toHaveFocus());
    expect(decisions).toEqual([]);
  });

  it('signs the decision with the passkey over the account’s card, and on a changed card says what changed and asks again', async () => {
    const prompts = installAuthenticator(() => 'sign');
    const { decisions, signing, user } = renderPage(approver);
    signing.required = true;
    await user.click(await screen.findByRole('button', { name: 'Approve…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve Acme Payroll?' });
    await waitFor(() => expect(dialog).toHaveTextContent(ACCOUNT_NUMBER));
    const shown = answerOf(signing.card).digest;
    expect(await within(dialog).findByTestId('signing-note')).toHaveTextContent(
      `Your approval is signed with your passkey over the card shown, intent ${shortDigest(shown)}`,
    );
    // Its destination is changed on the server after the member was shown the card.
    signing.card = transferCard('ba_1', {
      kind: 'BANK_ACCOUNT',
      category: 'BANK_ACCOUNT',
      destination: {
        ...signing.card.intent.destination!,
        name: 'Acme Payroll 2',
        last4: '9999',
        address: null,
      },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Approve bank account' }));
    const alert = await within(dialog).findByTestId('decision-problem');
    await waitFor(() => expect(alert).toHaveTextContent('The destination changed from Exchange'));
    expect(alert).toHaveTextContent('to Acme Payroll 2 (ending 9999)');
    expect(decisions).toEqual([]);
    expect(prompts).not.toHaveBeenCalled();

    await user.click(within(dialog).getByRole('button', { name: 'Approve bank account' }));
    await screen.findByText('Approved: the decision is recorded.');
    expect(prompts).toHaveBeenCalledTimes(1);
    expect(decisions).toEqual([
      {
        action: 'approve',
        intent: expect.objectContaining({
          digest: answerOf(signing.card).digest,
          nonce: 'nonce-ba_1-0123456789',
        }),
      },
    ]);
  });
});
