import '@testing-library/jest-dom/vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalItem } from '#contract/approval-inbox.ts';
import { type FakeRoute, installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithRouter } from '../../../test/render.tsx';
import {
  answerOf,
  installAuthenticator,
  signingRoutes,
  signingState,
  transferCard,
} from '../../../test/signing.ts';
import { ApprovalsPage } from './approvals-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const at = new Date(Date.now() - 3 * 3_600_000 - 60_000).toISOString();

function transfer(id: string, amount: string, over: Partial<ApprovalItem> = {}): ApprovalItem {
  return {
    kind: 'TRANSACTION',
    id,
    createdAt: at,
    subOrgId: null,
    createdById: 'staff_ivan',
    yours: false,
    initiator: { type: 'STAFF', id: 'staff_ivan', name: 'Ivan Initiator' },
    vault: { id: 'v_hot', name: 'Hot wallet' },
    transaction: {
      id,
      status: 'PENDING',
      category: 'TRANSFER',
      amount,
      asset: 'ETH',
      amountInUSD: '1234.5',
      blockChain: 'ETHEREUM',
      destination: {
        type: 'CONTACT',
        name: 'Exchange',
        address: '0xabc0000000000000000000000000000000000001',
      },
    },
    ...over,
  } as ApprovalItem;
}

const account: ApprovalItem = {
  kind: 'BANK_ACCOUNT',
  id: 'ba_1',
  createdAt: at,
  subOrgId: null,
  createdById: 'staff_ivan',
  yours: false,
  initiator: { type: 'STAFF', id: 'staff_ivan', name: 'Ivan Initiator' },
  bankAccount: {
    id: 'ba_1',
    status: 'PENDING',
    paymentMethod: 'US_ACH',
    accountName: 'Acme Payroll',
    bankName: 'JPMorgan Chase',
    accountNumber: '•••• 6789',
  },
} as ApprovalItem;

/** An item of a kind the console holds itself: its approval card is all the inbox has of it. */
function heldPayout(id: string, amount: string): ApprovalItem {
  const card = transferCard(id, {
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
  });
  return {
    kind: 'HELD',
    id,
    createdAt: at,
    subOrgId: null,
    createdById: 'staff_ivan',
    yours: false,
    initiator: { type: 'STAFF', id: 'staff_ivan', name: 'Ivan Initiator' },
    card,
  };
}

function renderInbox(
  results: ApprovalItem[],
  counts = { actionableCount: 3, totalCount: 4, youApprovedCount: 0 },
  required = false,
  inbox: FakeRoute = () => json({ results, hasNext: false, nextCursor: null, ...counts }),
) {
  const actions: string[] = [];
  const bodies: Array<Record<string, unknown>> = [];
  // Each transaction's own approval card, and whether its approver must sign.
  const signing = new Map(
    results.map((item) => [
      item.id,
      signingState(item.id, {
        required,
        card:
          item.kind === 'HELD'
            ? item.card
            : transferCard(item.id, {
                amount: item.kind === 'TRANSACTION' ? (item.transaction.amount ?? null) : null,
              }),
      }),
    ]),
  );
  const api = installFakeApi({
    ...Object.assign({}, ...[...signing].map(([id, state]) => signingRoutes(id, state))),
    '/api/console/approvals/': inbox,
    '/api/external/change_requests/approvals/approval_message/': (url) =>
      json({ approvalId: `ap_${url.searchParams.get('entityId')}`, message: 'm' }),
    // The second is decided elsewhere meanwhile: the server refuses it.
    '/api/external/change_requests/approvals/ap_tx_1/action/': (_url, init) => {
      actions.push('tx_1');
      bodies.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      return json({ success: true, status: 'APPROVED' });
    },
    '/api/external/change_requests/approvals/ap_tx_3/action/': (_url, init) => {
      actions.push('tx_3');
      bodies.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      return json({ success: true, status: 'APPROVED' });
    },
    '/api/external/change_requests/approvals/ap_tx_4/action/': (_url, init) => {
      actions.push('tx_4');
      bodies.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      return json({ success: true, status: 'APPROVED' });
    },
    // An item the console holds is decided at the approval core's own route.
    '/api/console/approvables/held_1/decision/': (_url, init) => {
      actions.push('held_1');
      bodies.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      return json({ success: true, status: 'PENDING', id: 'held_1', entityId: 'held_1' });
    },
    '/api/external/change_requests/approvals/ap_tx_2/action/': () => {
      actions.push('tx_2');
      return json({ message: 'This request was already decided', code: 'ALREADY_DECIDED' }, 409);
    },
  });
  const rendered = renderWithRouter(<ApprovalsPage search={{}} onSearchChange={() => undefined} />);
  return { ...api, ...rendered, actions, bodies, signing, user: userEvent.setup() };
}

describe('ApprovalsPage', () => {
  it('counts what waits for the member apart from what they approved and what is theirs', async () => {
    renderInbox(
      [
        transfer('tx_1', '0.5'),
        transfer('tx_2', '0.25', { youApprovedAt: at }),
        transfer('tx_3', '2', { yours: true }),
      ],
      { actionableCount: 1, totalCount: 3, youApprovedCount: 1 },
    );
    expect(
      await screen.findByText(
        '1 item waits for your decision; 1 you approved and 1 of yours wait for another member.',
      ),
    ).toBeVisible();
  });

  it('says who, from where, what it is worth and how long it has waited', async () => {
    renderInbox([transfer('tx_1', '0.5'), account]);
    const row = (await screen.findByText(/^Transfer of 0\.5 ETH/)).closest('tr');
    if (!row) throw new Error('no row');
    expect(row).toHaveTextContent('Ivan Initiator');
    expect(row).toHaveTextContent('Hot wallet');
    expect(row).toHaveTextContent('≈ 1,234.50 USD');
    expect(row).toHaveTextContent('3 h ago');
    expect(row.querySelector('time')).toHaveAttribute('datetime', at);
    // The account's masked number is whole, on a line of its own, never cut.
    expect(screen.getByText('•••• 6789')).toHaveClass('whitespace-nowrap');
  });

  it('approves the selected transactions one by one, once, and says what happened to each', async () => {
    const { actions, user } = renderInbox([
      transfer('tx_1', '0.5'),
      transfer('tx_2', '0.25'),
      transfer('tx_3', '2', { yours: true }),
      account,
    ]);
    await screen.findByText(/^Transfer of 0\.25 ETH/);
    const own = screen.getByRole('checkbox', { name: /^Not selectable, yours/ });
    expect(own).toBeDisabled();
    expect(
      screen.getByRole('checkbox', { name: /^Not selectable, a bank account/ }),
    ).toBeDisabled();

    await user.click(
      screen.getByRole('checkbox', {
        name: 'Select every transaction on this page you may approve together',
      }),
    );
    expect(screen.getByRole('group', { name: 'Approve several transactions' })).toHaveTextContent(
      '2 selected',
    );
    await user.click(screen.getByRole('button', { name: 'Approve selected…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve 2 transactions?' });
    const listed = within(dialog).getAllByRole('listitem');
    expect(listed).toHaveLength(2);
    expect(listed[0]).toHaveTextContent('0.5 ETH (≈ 1,234.50 USD)');
    expect(listed[0]).toHaveTextContent('Exchange · approved contact');
    expect(listed[0]).toHaveTextContent('0xabc0000000000000000000000000000000000001');
    expect(listed[0]).toHaveTextContent('Hot wallet · our vault');

    // Each one's approval card is read first: the button waits for them.
    expect(await within(dialog).findAllByTestId('batch-card-digest')).toHaveLength(2);
    // Two clicks before React renders the disabled button, as a fast double click delivers them.
    const approve = within(dialog).getByRole('button', { name: 'Approve 2 transactions' });
    act(() => {
      approve.click();
      approve.click();
    });
    expect(await within(dialog).findByText('Done: 1 approved, 1 not approved.')).toBeVisible();
    expect(actions).toEqual(['tx_1', 'tx_2']);
    expect(listed[0]).toHaveTextContent('Approved.');
    expect(listed[1]).toHaveTextContent('Not approved: This request was already decided.');

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    const summary = await screen.findByText('Approved 1 of 2 transactions. 1 not approved:');
    // Focus goes to what happened, which stays in view with the refusal's reason.
    expect(summary.closest('[role="status"]')).toHaveFocus();
    expect(summary.closest('[role="status"]')).toHaveTextContent(
      'Transfer of 0.25 ETH to Exchange on Ethereum: This request was already decided.',
    );
  });

  it('signs each of three transactions over its own card, one passkey prompt each', async () => {
    const prompts = installAuthenticator(() => 'sign');
    const { bodies, signing, user } = renderInbox(
      [transfer('tx_1', '0.5'), transfer('tx_3', '0.75'), transfer('tx_4', '1.25')],
      undefined,
      true,
    );
    await screen.findByText(/^Transfer of 1\.25 ETH/);
    await user.click(
      screen.getByRole('checkbox', {
        name: 'Select every transaction on this page you may approve together',
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Approve selected…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve 3 transactions?' });
    expect(dialog).toHaveTextContent('signed with your passkey over its own approval card');
    expect(await within(dialog).findAllByTestId('batch-card-digest')).toHaveLength(3);
    await user.click(within(dialog).getByRole('button', { name: 'Approve 3 transactions' }));

    expect(await within(dialog).findByText('Done: 3 approved.')).toBeVisible();
    expect(prompts).toHaveBeenCalledTimes(3);
    const digests = ['tx_1', 'tx_3', 'tx_4'].map((id) => {
      const state = signing.get(id);
      if (!state) throw new Error(id);
      return answerOf(state.card).digest;
    });
    expect(new Set(digests).size).toBe(3);
    expect(bodies.map((b) => b['intent'])).toEqual(
      digests.map((digest, i) =>
        expect.objectContaining({
          digest,
          nonce: `nonce-${['tx_1', 'tx_3', 'tx_4'][i]}-0123456789`,
          credential: expect.objectContaining({ id: 'Y3JlZC0x', type: 'public-key' }),
        }),
      ),
    );
  });

  it('counts the last item as it finishes, never "1 of 3" once all three are decided', async () => {
    installAuthenticator(() => 'sign');
    const items = [transfer('tx_1', '0.5'), transfer('tx_3', '0.75'), transfer('tx_4', '1.25')];
    // The inbox is read again once the batch is decided; that read is held open here.
    let reads = 0;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { user } = renderInbox(items, undefined, true, async () => {
      if (++reads > 1) await held;
      return json({
        results: items,
        hasNext: false,
        nextCursor: null,
        actionableCount: 3,
        totalCount: 3,
        youApprovedCount: 0,
      });
    });
    await screen.findByText(/^Transfer of 1\.25 ETH/);
    await user.click(
      screen.getByRole('checkbox', {
        name: 'Select every transaction on this page you may approve together',
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Approve selected…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve 3 transactions?' });
    expect(await within(dialog).findAllByTestId('batch-card-digest')).toHaveLength(3);
    await user.click(within(dialog).getByRole('button', { name: 'Approve 3 transactions' }));

    await waitFor(() => expect(within(dialog).getAllByText('Approved.')).toHaveLength(3));
    expect(within(dialog).getByRole('status')).toHaveTextContent('Approving 3 of 3…');
    release();
    expect(await within(dialog).findByText('Done: 3 approved.')).toBeVisible();
  });

  it('stops the batch when a passkey prompt is closed: nothing more is sent, and says so', async () => {
    let prompt = 0;
    installAuthenticator(() => (++prompt === 2 ? 'cancel' : 'sign'));
    const { actions, user } = renderInbox(
      [transfer('tx_1', '0.5'), transfer('tx_3', '0.75'), transfer('tx_4', '1.25')],
      undefined,
      true,
    );
    await screen.findByText(/^Transfer of 1\.25 ETH/);
    await user.click(
      screen.getByRole('checkbox', {
        name: 'Select every transaction on this page you may approve together',
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Approve selected…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve 3 transactions?' });
    expect(await within(dialog).findAllByTestId('batch-card-digest')).toHaveLength(3);
    await user.click(within(dialog).getByRole('button', { name: 'Approve 3 transactions' }));

    expect(await within(dialog).findByText('Done: 1 approved, 2 not approved.')).toBeVisible();
    expect(actions).toEqual(['tx_1']);
    const items = dialog.querySelectorAll('[data-batch-item]');
    expect(items[1]).toHaveTextContent('Nothing was sent: the passkey prompt was closed');
    expect(items[2]).toHaveTextContent('Nothing was sent: the passkey prompt was closed');
  });

  it('links the row of an item of a kind the console holds to its own page', async () => {
    const { router, user } = renderInbox([heldPayout('held_1', '1250.5')]);
    const link = await screen.findByRole('link', {
      name: /^Review and decide: Payout of 1,250\.5 USD to Payee One Ltd/,
    });
    expect(link).toHaveAttribute('href', '/approvals/held/held_1');
    await user.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/approvals/held/held_1'));
    // It carries the inbox page it was opened from, for previous and next.
    expect(router.state.location.state.approvalInbox).toEqual({ cursor: null, page: null });
  });

  it('lists an item of a kind the console holds by its card, and approves it with others, each signed', async () => {
    const prompts = installAuthenticator(() => 'sign');
    const { actions, bodies, signing, user } = renderInbox(
      [transfer('tx_1', '0.5'), heldPayout('held_1', '1250.5')],
      undefined,
      true,
    );
    const row = (await screen.findByText(/^Payout of 1,250\.5 USD to Payee One Ltd/)).closest('tr');
    if (!row) throw new Error('no row');
    expect(row).toHaveTextContent('Test payout');
    expect(row).toHaveTextContent('Ivan Initiator');
    expect(row).toHaveTextContent('1,250.5 USD');

    await user.click(
      screen.getByRole('checkbox', {
        name: 'Select every transaction on this page you may approve together',
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Approve selected…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve 2 items?' });
    expect(await within(dialog).findAllByTestId('batch-card-digest')).toHaveLength(2);
    const listed = within(dialog).getAllByRole('listitem');
    expect(listed[1]).toHaveTextContent('Payee One Ltd');
    await user.click(within(dialog).getByRole('button', { name: 'Approve 2 items' }));

    expect(await within(dialog).findByText('Done: 2 approved.')).toBeVisible();
    expect(prompts).toHaveBeenCalledTimes(2);
    expect(actions).toEqual(['tx_1', 'held_1']);
    const held = signing.get('held_1');
    if (!held) throw new Error('held_1');
    expect(bodies[1]).toMatchObject({
      action: 'approve',
      intent: { digest: answerOf(held.card).digest, nonce: 'nonce-held_1-0123456789' },
    });
  });
});
