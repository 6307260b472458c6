import '@testing-library/jest-dom/vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import {
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
} from '@tanstack/react-router';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { shortDigest } from '#contract/approval-card.ts';
import type { Transaction } from '#contract/transaction.ts';
import { approvalCardQuery } from '../../../lib/approval-card-queries.ts';
import { ScopeSearch } from '../../../lib/scope.ts';
import { sessionQueries } from '../../../lib/session-queries.ts';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { createTestQueryClient } from '../../../test/render.tsx';
import { sessionFor } from '../../../test/session.ts';
import {
  answerOf,
  installAuthenticator,
  signingRoutes,
  signingState,
  transferCard,
  type SigningState,
} from '../../../test/signing.ts';
import { DecisionPanel } from './decision-panel.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const TX: Transaction = {
  id: 'tx_sig',
  status: 'PENDING',
  category: 'TRANSFER',
  amount: '0.5',
  asset: 'ETH',
  blockChain: 'ETHEREUM',
  createdById: 'staff_ivan',
  createdAt: '2026-11-23T10:00:00.000Z',
} as Transaction;

/**
 * The decision panel of a waiting transfer under the signed-in layout, for an
 * approver; the server's answers are `signing`'s (card, challenge) and the
 * decision, whose bodies are recorded (or `decide` answers instead).
 */
async function renderPanel(signing: SigningState, decide?: () => Response) {
  const bodies: Array<Record<string, unknown>> = [];
  const api = installFakeApi({
    ...signingRoutes('tx_sig', signing),
    '/api/console/approval_progress/': () => json({ results: [] }),
    '/api/console/approvals/': () =>
      json({
        results: [],
        hasNext: false,
        nextCursor: null,
        actionableCount: 0,
        totalCount: 0,
        youApprovedCount: 0,
      }),
    '/api/external/change_requests/approvals/approval_message/': () =>
      json({ approvalId: 'ap_sig', message: 'm' }),
    '/api/external/change_requests/approvals/ap_sig/action/': (_url, init) => {
      bodies.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      return decide ? decide() : json({ success: true, status: 'APPROVED' });
    },
  });
  const client = createTestQueryClient();
  client.setQueryData(sessionQueries.current().queryKey, sessionFor('approver'));
  const root = createRootRoute();
  const layout = createRoute({
    getParentRoute: () => root,
    id: '_authenticated',
    validateSearch: ScopeSearch,
  });
  const page = createRoute({
    getParentRoute: () => layout,
    path: '/',
    component: () => <DecisionPanel transaction={TX} />,
  });
  const account = createRoute({ getParentRoute: () => layout, path: '/account' });
  const router = createRouter({
    routeTree: root.addChildren([layout.addChildren([page, account])]),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Approve…' }));
  const dialog = await screen.findByRole('dialog', { name: 'Approve this transaction?' });
  await within(dialog).findByTestId('signing-note');
  return { ...api, bodies, client, dialog, user };
}

const approveButton = (dialog: HTMLElement) =>
  within(dialog).getByRole('button', { name: 'Approve transaction' });

describe('DecisionPanel: signed approvals', () => {
  it('says before the click that the approval is signed over the card shown, then sends the passkey’s assertion over its digest', async () => {
    const prompts = installAuthenticator(() => 'sign');
    const signing = signingState('tx_sig', { required: true });
    const { digest } = answerOf(signing.card);
    const { bodies, dialog, user } = await renderPanel(signing);

    expect(within(dialog).getByTestId('signing-note')).toHaveTextContent(
      `Your approval is signed with your passkey over the card shown, intent ${shortDigest(digest)}`,
    );
    expect(within(dialog).getByRole('region', { name: 'The card you sign' })).toHaveTextContent(
      '0.5 ETH',
    );
    await user.click(approveButton(dialog));

    expect(
      await screen.findByText('Approved. The timeline follows it to the chain.'),
    ).toBeVisible();
    expect(signing.challenges).toEqual([{ action: 'approve', digest }]);
    expect(prompts).toHaveBeenCalledTimes(1);
    expect(bodies).toEqual([
      {
        action: 'approve',
        intent: {
          digest,
          nonce: 'nonce-tx_sig-0123456789',
          credential: expect.objectContaining({
            id: 'Y3JlZC0x',
            type: 'public-key',
            response: expect.objectContaining({ signature: expect.any(String) }),
          }),
        },
      },
    ]);
  });

  it('sends the card’s digest alone when the member is not asked to sign, and no prompt opens', async () => {
    const prompts = installAuthenticator(() => 'sign');
    const signing = signingState('tx_sig', { required: false });
    const { bodies, dialog, user } = await renderPanel(signing);
    await user.click(approveButton(dialog));
    await screen.findByText('Approved. The timeline follows it to the chain.');
    expect(prompts).not.toHaveBeenCalled();
    expect(bodies).toEqual([
      { action: 'approve', intent: { digest: answerOf(signing.card).digest } },
    ]);
  });

  it('on a card changed since it was shown sends nothing, says what changed, shows the new card and asks again', async () => {
    installAuthenticator(() => 'sign');
    const signing = signingState('tx_sig', { required: true });
    const { bodies, dialog, user } = await renderPanel(signing);
    // The item changes on the server after the member was shown its card.
    signing.card = transferCard('tx_sig', {
      amount: '0.75',
      feeCeiling: { tier: 'HIGH', maxFee: '0.005', asset: 'ETH', blockChain: 'ETHEREUM' },
    });
    const fresh = answerOf(signing.card).digest;
    await user.click(approveButton(dialog));

    const alert = await within(dialog).findByTestId('decision-problem');
    await waitFor(() =>
      expect(alert).toHaveTextContent(
        'Not approved: the card changed since you were shown it, so nothing was sent. The amount changed from 0.5 ETH to 0.75 ETH; the fee ceiling rose from 0.0021 ETH (medium tier) to 0.005 ETH (high tier).',
      ),
    );
    expect(alert).toHaveAttribute('role', 'alert');
    expect(alert).toHaveTextContent(`The new card is shown (intent ${shortDigest(fresh)})`);
    expect(bodies).toEqual([]);
    expect(within(dialog).getByTestId('signing-note')).toHaveTextContent(shortDigest(fresh));

    await user.click(approveButton(dialog));
    await screen.findByText('Approved. The timeline follows it to the chain.');
    expect(bodies).toEqual([
      expect.objectContaining({ intent: expect.objectContaining({ digest: fresh }) }),
    ]);
  });

  const fee = (maxFee: string) => ({
    tier: 'MEDIUM' as const,
    maxFee,
    asset: 'ETH',
    blockChain: 'ETHEREUM',
  });

  it('keeps the card it showed while only the fee moved within the ceiling shown, and signs that card', async () => {
    installAuthenticator(() => 'sign');
    const signing = signingState('tx_sig', { required: true });
    const shown = answerOf(signing.card).digest;
    const { bodies, client, dialog, user } = await renderPanel(signing);
    const card = within(dialog).getByRole('region', { name: 'The card you sign' });
    expect(card).toHaveTextContent('At most 0.0021 ETH');

    // The tier's estimate moves while the dialog is open: 0.0025 is within 0.0021 plus 25%.
    signing.card = transferCard('tx_sig', { feeCeiling: fee('0.0025') });
    const moved = answerOf(signing.card).digest;
    expect(moved).not.toBe(shown);
    await client.refetchQueries({ queryKey: approvalCardQuery('tx_sig').queryKey });
    expect(client.getQueryData(approvalCardQuery('tx_sig').queryKey)?.digest).toBe(moved);

    expect(card).toHaveTextContent('At most 0.0021 ETH');
    expect(within(dialog).getByTestId('signing-note')).toHaveTextContent(shortDigest(shown));
    expect(within(dialog).queryByTestId('decision-problem')).toBeNull();

    await user.click(approveButton(dialog));
    await screen.findByText('Approved. The timeline follows it to the chain.');
    expect(signing.challenges).toEqual([{ action: 'approve', digest: shown }]);
    expect(bodies).toEqual([
      expect.objectContaining({ intent: expect.objectContaining({ digest: shown }) }),
    ]);
  });

  it.each([
    {
      what: 'the fee past the ceiling shown',
      over: { feeCeiling: fee('0.003') },
      said: 'The fee ceiling rose from 0.0021 ETH to 0.003 ETH.',
    },
    {
      what: 'the amount, with the fee within the ceiling',
      over: { amount: '0.6', feeCeiling: fee('0.0025') },
      said: 'The amount changed from 0.5 ETH to 0.6 ETH; the fee ceiling rose from 0.0021 ETH to 0.0025 ETH.',
    },
  ])(
    'replaces its card and says what changed when more than the fee moved: $what',
    async ({ over, said }) => {
      installAuthenticator(() => 'sign');
      const signing = signingState('tx_sig', { required: true });
      const { bodies, client, dialog, user } = await renderPanel(signing);

      signing.card = transferCard('tx_sig', over);
      const fresh = answerOf(signing.card).digest;
      await client.refetchQueries({ queryKey: approvalCardQuery('tx_sig').queryKey });

      const alert = await within(dialog).findByTestId('decision-problem');
      expect(alert).toHaveTextContent(
        `The card changed since you were shown it. ${said} The new card is shown (intent ${shortDigest(fresh)}): check it and confirm again.`,
      );
      expect(within(dialog).getByTestId('signing-note')).toHaveTextContent(shortDigest(fresh));
      expect(bodies).toEqual([]);

      await user.click(approveButton(dialog));
      await screen.findByText('Approved. The timeline follows it to the chain.');
      expect(signing.challenges).toEqual([{ action: 'approve', digest: fresh }]);
      expect(bodies).toEqual([
        expect.objectContaining({ intent: expect.objectContaining({ digest: fresh }) }),
      ]);
    },
  );

  it('a closed passkey prompt sends nothing, says so plainly, and leaves the dialog usable', async () => {
    let answer: 'sign' | 'cancel' = 'cancel';
    installAuthenticator(() => answer);
    const signing = signingState('tx_sig', { required: true });
    const { bodies, dialog, user } = await renderPanel(signing);
    await user.click(approveButton(dialog));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(
      'Nothing was sent: the passkey prompt was closed or timed out, so the decision was not signed.',
    );
    expect(bodies).toEqual([]);
    expect(approveButton(dialog)).toBeEnabled();

    answer = 'sign';
    await user.click(approveButton(dialog));
    await screen.findByText('Approved. The timeline follows it to the chain.');
    expect(bodies).toHaveLength(1);
  });

  it('tells a member who must sign and has no passkey to register one, with the way to the account page', async () => {
    installAuthenticator(() => 'sign');
    const signing = signingState('tx_sig', { required: false });
    const { dialog, user } = await renderPanel(signing, () =>
      json(
        {
          message: 'Approvals must be signed with a passkey; register one first',
          code: 'SIGNED_INTENT_REQUIRED',
        },
        403,
      ),
    );
    await user.click(approveButton(dialog));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(
      'Not approved: Approvals must be signed with a passkey; register one first. Register a passkey on your account page, then decide again.',
    );
    expect(within(alert).getByRole('link', { name: 'your account page' })).toHaveAttribute(
      'href',
      '/account',
    );
  });
});
