import '@testing-library/jest-dom/vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rememberPrevious } from './lib/paging.ts';
import { createAppRouter } from './router.tsx';
import { installFakeApi, json, pagedList } from './test/fake-api.ts';
import { createTestQueryClient } from './test/render.tsx';
import { sessionFor } from './test/session.ts';
import { signingRoutes, signingState, transferCard } from './test/signing.ts';

const transactions = Array.from({ length: 45 }, (_, i) => ({
  id: `tx_${i}`,
  status: i % 2 ? 'PENDING' : 'COMPLETED',
  category: 'TRANSFER',
  createdAt: new Date(Date.UTC(2025, 2, 1, 12) - i * 3_600_000).toISOString(),
  asset: 'ETH',
  amount: `${i}.5`,
  blockChain: 'ETHEREUM',
  externalId: `order-${i}`,
}));

beforeEach(() => {
  vi.stubGlobal('scrollTo', () => {});
  installFakeApi({
    '/auth/session': () => json(sessionFor('viewer')),
    '/api/external/sub_orgs/': () => json({ results: [], hasNext: false }),
    '/api/external/transactions/': (url) =>
      pagedList(
        transactions.filter(
          (t) => !url.searchParams.get('status') || t.status === url.searchParams.get('status'),
        ),
        url,
      ),
    '/api/external/bank_accounts/': (url) =>
      pagedList(
        [{ id: 'ba_1', accountName: 'Payroll', accountNumber: '123456789', status: 'APPROVED' }],
        url,
      ),
    '/api/external/transactions/tx_0/': () => json(transactions[0]),
    '/api/external/vaults/': () => json({ results: [{ id: 'v1', vaultName: 'Treasury' }] }),
    '/api/external/assets/': () => json([{ symbol: 'ETH' }]),
    '/api/console/overview/': () =>
      json({
        pricedAt: '2025-03-01T12:00:00.000Z',
        priceSource: 'SANDBOX_REFERENCE',
        totalUsd: '1234.5',
        timeZone: 'UTC',
        byAsset: [{ symbol: 'ETH', balance: '0.5', usd: '1234.5', share: '100.00' }],
        byChain: [{ chain: 'ETHEREUM', usd: '1234.5', share: '100.00' }],
        byVault: [{ id: 'v1', name: 'Treasury', subOrgId: null, usd: '1234.5', share: '100.00' }],
        unpriced: [],
        waiting: null,
        inFlight: { count: 0, byStatus: [] },
        lastDay: {
          from: '2025-03-01T12:00:00.000Z',
          outflow: { usd: '0', count: 0, unpriced: 0 },
          inflow: { usd: '0', count: 0, unpriced: 0 },
        },
        outflowByDay: [{ day: '2025-03-01', usd: '0', count: 0, share: '0.00' }],
        slow: { count: 0, transactions: [] },
        transactionsComplete: true,
      }),
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderApp(url: string) {
  const history = createMemoryHistory({ initialEntries: [url] });
  const queryClient = createTestQueryClient();
  const router = createAppRouter(queryClient, history);
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, history };
}

const firstCellTexts = () =>
  within(screen.getByRole('table', { name: 'Transactions' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.textContent ?? '');

// Whole-app renders in jsdom take seconds under a parallel run; the default 5 s is too tight.
describe('the app', { timeout: 20_000 }, () => {
  it('opens / on the overview and marks the current nav link, and only it', async () => {
    const { router } = renderApp('/');
    await screen.findByRole('heading', { name: 'Overview', level: 1 });
    expect(router.state.location.pathname).toBe('/');
    expect(await screen.findByTestId('total-usd')).toHaveTextContent('1,234.50 USD');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Overview' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    for (const other of ['Transactions', 'Vaults'])
      expect(within(nav).getByRole('link', { name: other })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main');
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main');
  });

  it('keeps filters in the URL and resets paging when one changes', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/transactions?cursor=20');
    await screen.findByRole('table', { name: 'Transactions' });

    await user.selectOptions(screen.getByLabelText('Status'), 'PENDING');
    await waitFor(() => expect(router.state.location.searchStr).toBe('?status=PENDING'));
    await waitFor(() => expect(firstCellTexts().every((t) => t.includes('Pending'))).toBe(true));
  });

  it('moves focus to the new page’s heading when it left with the old page', async () => {
    const user = userEvent.setup();
    renderApp('/transactions');
    const table = await screen.findByRole('table', { name: 'Transactions' });
    // Keyboard: the row's link, Enter; the link goes with the list.
    within(table).getAllByRole('link')[0]!.focus();
    await user.keyboard('{Enter}');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 })),
    );
    expect(screen.getByRole('heading', { level: 1 })).not.toHaveTextContent('Transactions');

    // A click on the navigation keeps focus where it is: on the link.
    const bankAccounts = within(nav).getByRole('link', { name: 'Bank accounts' });
    await user.click(bankAccounts);
    await screen.findByRole('table', { name: 'Bank accounts' });
    expect(document.activeElement).toBe(bankAccounts);
  });

  it('pages with Next and Previous, and Back returns to the previous page', async () => {
    const user = userEvent.setup();
    const { router, history } = renderApp('/transactions');
    await screen.findByRole('table', { name: 'Transactions' });
    expect(firstCellTexts()[0]).toContain('order-0');

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(firstCellTexts()[0]).toContain('order-20'));
    expect(router.state.location.searchStr).toBe('?cursor=20&page=2');

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(firstCellTexts()[0]).toContain('order-40'));
    expect(router.state.location.searchStr).toBe('?cursor=40&page=3');
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();

    act(() => history.back());
    await waitFor(() => expect(firstCellTexts()[0]).toContain('order-20'));
    act(() => history.back());
    await waitFor(() => expect(firstCellTexts()[0]).toContain('order-0'));
    expect(router.state.location.searchStr).toBe('');
  });

  it('goes to the previous page after a reload, and to the first from a link opened afresh', async () => {
    const user = userEvent.setup();
    // Earlier Next clicks in this tab recorded the way back (a reload keeps session storage).
    rememberPrevious('20', undefined);
    rememberPrevious('40', '20');
    const { router } = renderApp('/transactions?cursor=40&page=3');
    await waitFor(() => expect(firstCellTexts()[0]).toContain('order-40'));
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(firstCellTexts()[0]).toContain('order-20'));
    expect(router.state.location.searchStr).toBe('?cursor=20&page=2');

    sessionStorage.clear();
    await act(() => router.navigate({ to: '/transactions', search: { cursor: '40', page: 3 } }));
    await waitFor(() => expect(firstCellTexts()[0]).toContain('order-40'));
    await user.click(screen.getByRole('button', { name: 'First page' }));
    await waitFor(() => expect(firstCellTexts()[0]).toContain('order-0'));
    expect(router.state.location.searchStr).toBe('');
  });

  it('ignores junk in the URL rather than failing the page', async () => {
    const { router } = renderApp('/transactions?status=NOPE&createdAtGte=yesterday');
    await screen.findByRole('table', { name: 'Transactions' });
    expect(router.state.location.search).toEqual({});
  });

  it('shows bank accounts masked', async () => {
    renderApp('/bank-accounts');
    const table = await screen.findByRole('table', { name: 'Bank accounts' });
    expect(table).toHaveTextContent('•••• 6789');
    expect(document.body.innerHTML).not.toContain('123456789');
  });

  it('opens an item of a kind the console holds at its own page, its card as the server computed it', async () => {
    const card = transferCard('held_1', {
      kind: 'TEST_PAYOUT',
      category: 'PAYOUT',
      source: null,
      destination: null,
      asset: 'USD',
      blockChain: null,
      amount: '1250.5',
      feeCeiling: null,
    });
    installFakeApi({
      '/auth/session': () => json(sessionFor('viewer')),
      '/api/external/sub_orgs/': () => json({ results: [], hasNext: false }),
      ...signingRoutes('held_1', signingState('held_1', { card })),
    });
    const { router } = renderApp('/approvals/held/held_1');
    expect(
      await screen.findByRole('heading', { name: 'Payout of 1,250.5 USD', level: 1 }),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe('/approvals/held/held_1');
    expect(screen.getByTestId('card-amount')).toHaveTextContent('1,250.5 USD');
    expect(screen.getByRole('link', { name: 'Back to the approvals inbox' })).toHaveAttribute(
      'href',
      '/approvals',
    );
  });

  it('has a not-found page', async () => {
    renderApp('/nowhere');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to transactions' })).toBeInTheDocument();
  });
});
