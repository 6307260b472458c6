import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { shortDigest, type ApprovalCard, type CardQuorum } from '#contract/approval-card.ts';
import type { ApprovalSignatures } from '#contract/approval-signature.ts';
import { invalidateApprovalInbox } from '../../../lib/approval-inbox-count.ts';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithRouter } from '../../../test/render.tsx';
import {
  answerOf,
  installAuthenticator,
  signingRoutes,
  signingState,
  transferCard,
} from '../../../test/signing.ts';
import { HeldItemPage, type HeldItemPermissions } from './held-item-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ID = 'held_1';

/** Waiting for two approvals by approvers or admins; `over` moves its quorum or state. */
function payoutCard(
  quorum: Partial<CardQuorum> = {},
  state = 'PENDING',
  amount = '1250.5',
): ApprovalCard {
  const card = transferCard(ID, {
    kind: 'TEST_PAYOUT',
    category: 'PAYOUT',
    source: null,
    destination: {
      type: 'PAYEE',
      id: 'Payee One Ltd',
      name: 'Payee One Ltd',
      address: null,
      blockChain: null,
      rail: null,
      last4: null,
      ours: false,
      approvedContact: false,
      approvedContactSince: null,
    },
    asset: 'USD',
    blockChain: null,
    amount,
    feeCeiling: null,
    rule: {
      name: 'Test payouts',
      summary: 'Two approvals by approvers or admins',
      policyVersion: 0,
    },
  });
  return {
    ...card,
    status: {
      ...card.status,
      state,
      amountUsd: amount,
      quorum: {
        required: 2,
        blocked: false,
        approvedBy: [],
        waitingOn: 'waiting for two of: Ben Admin, Cy Admin (approvers or admins)',
        ...quorum,
      },
    },
  };
}

function signatures(
  card: ApprovalCard,
  rows: ApprovalSignatures['signatures'],
): ApprovalSignatures {
  return {
    entityId: ID,
    currentDigest: answerOf(card).digest,
    signatures: rows,
    summary: rows.length
      ? `${rows.length} of ${rows.length} signature${rows.length === 1 ? '' : 's'} valid over intent ${shortDigest(rows[0]?.digest ?? '')}: ${rows.map((r) => `${r.decidedBy} (passkey)`).join(', ')}`
      : '',
  };
}

const approver: HeldItemPermissions = { memberId: 'staff_ben', canApprove: true };

function renderPage(permissions: HeldItemPermissions = approver, card = payoutCard()) {
  const decisions: Array<Record<string, unknown>> = [];
  const signing = signingState(ID, {
    card,
    signatures: signatures(card, []),
  });
  const api = installFakeApi({
    ...signingRoutes(ID, signing),
    // Decided at the approval core's own route: no change request to look up.
    [`/api/console/approvables/${ID}/decision/`]: (_url, init) => {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      decisions.push(body);
      const approve = body['action'] === 'approve';
      signing.card = payoutCard(
        approve ? { approvedBy: [{ name: 'Ben Admin', at: '2026-11-23T10:05:00.000Z' }] } : {},
        approve ? 'PENDING' : 'DECLINED',
      );
      return json({
        success: true,
        status: approve ? 'PENDING' : 'REJECTED',
        id: ID,
        entityId: ID,
        ...(approve
          ? {
              policy: {
                ruleName: 'Test payouts',
                approvals: 1,
                required: 2,
                state: 'PENDING',
              },
            }
          : {}),
      });
    },
  });
  const rendered = renderWithRouter(<HeldItemPage entityId={ID} permissions={permissions} />);
  return { ...api, ...rendered, decisions, signing, user: userEvent.setup() };
}

describe('HeldItemPage', () => {
  it('shows its card exactly as the server computed it, the quorum so far and the signatures', async () => {
    const card = payoutCard({
      approvedBy: [{ name: 'Ada Approver', at: '2026-11-23T10:02:00.000Z' }],
      waitingOn: 'waiting for one more of: Ben Admin (approvers or admins)',
    });
    const { signing } = renderPage(approver, card);
    signing.signatures = signatures(card, [
      {
        decidedBy: 'Ada Approver',
        decision: 'APPROVED',
        decidedAt: '2026-11-23T10:02:00.000Z',
        digest: answerOf(card).digest,
        credentialName: 'Ada’s key',
        credentialKind: 'passkey',
        valid: true,
        problem: null,
        counts: true,
        voidedBecause: null,
      },
    ]);

    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: 'Payout of 1,250.5 USD to Payee One Ltd',
      }),
    ).toBeVisible();
    const shown = screen.getByTestId('approval-card');
    expect(within(shown).getByTestId('card-amount')).toHaveTextContent('1,250.5 USD');
    expect(shown).toHaveTextContent('Payee One Ltd');
    expect(shown).toHaveTextContent('Test payouts');
    expect(shown).toHaveTextContent('Ada Approver');
    expect(shown).toHaveTextContent('1 of 2');
    expect(shown).toHaveTextContent(/Waiting for one more of: Ben Admin/i);
    expect(shown).toHaveTextContent(shortDigest(answerOf(card).digest));
    const panel = screen.getByRole('region', { name: 'Signatures' });
    expect(await within(panel).findByTestId('signatures-summary')).toHaveTextContent(
      `1 of 1 signature valid over intent ${shortDigest(answerOf(card).digest)}: Ada Approver (passkey)`,
    );
    expect(within(panel).getByTestId('signatures-list')).toHaveTextContent(
      'Counts toward the approval',
    );
  });

  it('an approver approves with the passkey, signed over the card shown, at the approval core’s route', async () => {
    const prompts = installAuthenticator(() => 'sign');
    const { decisions, signing, user } = renderPage();
    signing.required = true;
    await user.click(await screen.findByRole('button', { name: 'Approve…' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Approve Payout of 1,250.5 USD to Payee One Ltd?',
    });
    const shown = answerOf(signing.card).digest;
    expect(await within(dialog).findByTestId('signing-note')).toHaveTextContent(
      `Your approval is signed with your passkey over the card shown, intent ${shortDigest(shown)}`,
    );
    expect(within(dialog).getByRole('region', { name: 'The card you sign' })).toHaveTextContent(
      'Payee One Ltd',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));

    expect(await screen.findByRole('status')).toHaveTextContent(/1 of 2/);
    expect(prompts).toHaveBeenCalledTimes(1);
    expect(decisions).toEqual([
      {
        action: 'approve',
        intent: expect.objectContaining({ digest: shown, nonce: `nonce-${ID}-0123456789` }),
      },
    ]);
    // The card is read again after the decision: the quorum now holds the approval.
    await waitFor(() => expect(screen.getByTestId('approval-card')).toHaveTextContent('Ben Admin'));
  });

  it('declines with a reason, signed with the passkey too', async () => {
    const prompts = installAuthenticator(() => 'sign');
    const { decisions, signing, user } = renderPage();
    signing.required = true;
    await user.click(await screen.findByRole('button', { name: 'Decline…' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Decline Payout of 1,250.5 USD to Payee One Ltd?',
    });
    expect(await within(dialog).findByTestId('signing-note')).toHaveTextContent(
      'Your decline is signed with your passkey over the card shown',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Decline' }));
    expect(within(dialog).getByRole('textbox')).toHaveFocus();
    expect(decisions).toEqual([]);
    await user.type(within(dialog).getByRole('textbox'), 'Not a payee we pay');
    await user.click(within(dialog).getByRole('button', { name: 'Decline' }));

    expect(await screen.findByRole('status')).toHaveTextContent(
      'Declined: the decision is recorded.',
    );
    expect(prompts).toHaveBeenCalledTimes(1);
    expect(decisions).toEqual([
      {
        action: 'reject',
        reason: 'Not a payee we pay',
        intent: expect.objectContaining({ nonce: `nonce-${ID}-0123456789` }),
      },
    ]);
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 1 }).parentElement).toHaveTextContent('Declined'),
    );
    expect(screen.queryByRole('button', { name: 'Approve…' })).toBeNull();
  });

  it('follows another member’s decision as it is pushed: the quorum, and a vote that no longer counts with why', async () => {
    const { signing, client } = renderPage();
    await screen.findByRole('button', { name: 'Approve…' });
    expect(screen.getByTestId('approval-card')).not.toHaveTextContent('Ada Approver');

    // Elsewhere, Ada approved; then the card changed and her vote stopped counting.
    signing.card = payoutCard({
      approvedBy: [],
      voided: [
        {
          name: 'Ada Approver',
          at: '2026-11-23T10:02:00.000Z',
          because: 'the amount changed from 1,250.5 USD to 1,500 USD',
        },
      ],
    });
    // What the layout does on an approval event (routes/_authenticated.tsx): the inbox's key.
    await act(() => invalidateApprovalInbox(client));
    expect(await screen.findByTestId('card-voided')).toHaveTextContent(
      'No longer counts: Ada Approver’s approval',
    );
    expect(screen.getByTestId('card-voided')).toHaveTextContent(
      'the amount changed from 1,250.5 USD to 1,500 USD',
    );

    signing.card = payoutCard(
      {
        approvedBy: [
          { name: 'Ada Approver', at: '2026-11-23T10:04:00.000Z' },
          { name: 'Cy Admin', at: '2026-11-23T10:05:00.000Z' },
        ],
        waitingOn: null,
      },
      'APPROVED',
    );
    await act(() => invalidateApprovalInbox(client));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Approve…' })).toBeNull());
    expect(screen.getByTestId('approval-card')).toHaveTextContent('Cy Admin');
  });

  it('offers a member who does not decide no decision', async () => {
    renderPage({ memberId: 'staff_vi', canApprove: false });
    await screen.findByTestId('approval-card');
    expect(screen.queryByRole('button', { name: 'Approve…' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Decline…' })).toBeNull();
  });

  it('says so when there is no such item, or it is not the member’s to see', async () => {
    installFakeApi({
      [`/api/console/approval_cards/${ID}/`]: () =>
        json({ message: 'No approvable item with that id', code: 'NOT_FOUND' }, 404),
    });
    renderWithRouter(<HeldItemPage entityId={ID} permissions={approver} />);
    expect(await screen.findByText(/could not be loaded/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to the approvals inbox' })).toBeVisible();
  });
});
