import '@testing-library/jest-dom/vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Transaction } from '#contract/transaction.ts';
import { installFakeApi, json, pagedList } from '../../../test/fake-api.ts';
import { renderWithRouter } from '../../../test/render.tsx';
import type { TransactionSearch } from '../search.ts';
import { TransactionsPage } from './transactions-page.tsx';
import { rememberPrevious } from '../../../lib/paging.ts';
import { DisplayProvider } from '../../../lib/display.tsx';
import { effectiveDisplay } from '#contract/display.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const reference = {
  '/api/external/vaults/': () =>
    json({ results: [{ id: 'v1', vaultName: 'Treasury' }], hasNext: false }),
  '/api/external/assets/': () => json([{ symbol: 'ETH', blockChain: 'ETHEREUM' }]),
};

function transaction(overrides: Partial<Transaction>): Transaction {
  return {
    id: 'tx_1',
    status: 'COMPLETED',
    category: 'TRANSFER',
    subCategory: 'EXTERNAL_TRANSFER',
    createdAt: '2025-03-01T12:00:00.000Z',
    asset: 'ETH',
    amount: '1',
    blockChain: 'ETHEREUM',
    source: { type: 'VAULT', id: 'v1', name: 'Treasury' },
    destination: { type: 'CONTACT', id: 'c1', name: 'Acme Ltd' },
    ...overrides,
  };
}

function renderPage(search: TransactionSearch = {}, timeZone?: string) {
  const onSearchChange = vi.fn();
  const page = <TransactionsPage search={search} onSearchChange={onSearchChange} />;
  const { router } = renderWithRouter(
    timeZone ? (
      <DisplayProvider
        settings={effectiveDisplay({
          chosenTimeZone: timeZone,
          browserTimeZone: null,
          colorScheme: 'system',
        })}
      >
        {page}
      </DisplayProvider>
    ) : (
      page
    ),
  );
  return { onSearchChange, router };
}

describe('TransactionsPage', () => {
  it('shows each transaction with its exact amount, status text, chain and parties', async () => {
    installFakeApi({
      ...reference,
      '/api/external/transactions/': () =>
        json({
          results: [
            transaction({
              amount: '12345678901234567890.123456789012345678',
              externalId: 'order-1',
              memo: 'rent',
            }),
            transaction({
              id: 'tx_2',
              status: 'FAILED',
              error: 'insufficient balance',
              amount: '0.10',
            }),
          ],
          hasNext: false,
        }),
    });
    renderPage();

    const table = await screen.findByRole('table', { name: 'Transactions' }, { timeout: 5000 });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const [first, second] = rows as [HTMLElement, HTMLElement];
    expect(first).toHaveTextContent('12,345,678,901,234,567,890.123456789012345678 ETH');
    expect(first).toHaveTextContent('Completed');
    expect(first).toHaveTextContent('Ethereum');
    expect(first).toHaveTextContent('Treasury → to Acme Ltd');
    expect(first).toHaveTextContent('order-1');
    // In the member's zone (UTC here, outside the signed-in layout), labelled, with the zone's name in its tooltip.
    expect(first.querySelector('time')).toHaveTextContent('Mar 1, 2025, 12:00:00 UTC');
    expect(first.querySelector('time')).toHaveAttribute('title', 'UTC · 2025-03-01 12:00:00 UTC');
    expect(second).toHaveTextContent('0.1 ETH');
    expect(second).toHaveTextContent('Failed');
    expect(second).toHaveTextContent('insufficient balance');
  });

  it('says what a contract call does in its row, not only "Contract call" of 0', async () => {
    const spender = '0x1111111111111111111111111111111111110582';
    const callData = `0x095ea7b3${spender.slice(2).padStart(64, '0')}${'f'.repeat(64)}`;
    installFakeApi({
      ...reference,
      '/api/external/transactions/': () =>
        json({
          results: [
            transaction({
              id: 'tx_call',
              status: 'PENDING',
              category: 'CONTRACT_CALL',
              subCategory: 'CONTRACT_CALL',
              amount: '0',
              destination: undefined,
              data: { callData, toAddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' },
            }),
          ],
          hasNext: false,
        }),
    });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Transactions' }, { timeout: 5000 });
    const [row] = within(table).getAllByRole('row').slice(1) as [HTMLElement];
    expect(row).toHaveTextContent('Unlimited USDC approval to 0x1111…0582');
    expect(within(row).getByRole('link')).toHaveAccessibleName(
      /Unlimited USDC approval to 0x1111…0582 on Ethereum/,
    );
  });

  it('says when a scheduled transfer will be sent, in the member’s time zone', async () => {
    installFakeApi({
      ...reference,
      '/api/external/transactions/': () =>
        json({
          results: [
            transaction({
              id: 'tx_scheduled',
              status: 'APPROVED',
              executeAt: '2030-01-02T09:30:00.000Z',
            }),
          ],
          hasNext: false,
        }),
    });
    renderPage({}, 'Europe/Paris');
    const table = await screen.findByRole('table', { name: 'Transactions' }, { timeout: 5000 });
    const [row] = within(table).getAllByRole('row').slice(1) as [HTMLElement];
    expect(row).toHaveTextContent(/Scheduled for Jan 2, 2030, 10:30:00/);
    expect(row.querySelector('time[datetime="2030-01-02T09:30:00.000Z"]')).not.toBeNull();
  });

  it('opens a transaction from its row: a link for the keyboard, the whole row for the mouse', async () => {
    installFakeApi({
      ...reference,
      '/api/external/transactions/': () =>
        json({ results: [transaction({ id: 'tx/7', memo: 'rent' })], hasNext: false }),
    });
    const { router } = renderPage();
    const table = await screen.findByRole('table', { name: 'Transactions' }, { timeout: 5000 });
    const link = within(table).getByRole('link', {
      name: /open transfer of 1 ETH to Acme Ltd on Ethereum/i,
    });
    expect(link).toHaveAttribute('href', '/transactions/tx%2F7');

    await userEvent.click(within(table).getByText('rent'));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/transactions/tx%2F7'));
  });

  it('asks for the filters and cursor held in the URL', async () => {
    const { calls } = installFakeApi({
      ...reference,
      '/api/external/transactions/': () => json({ results: [transaction({})], hasNext: false }),
    });
    renderPage({ status: 'PENDING', vaultId: 'v1', cursor: 'c2', page: 2 });
    await screen.findByRole('table', { name: 'Transactions' });

    const listCall = calls.find((u) => u.pathname === '/api/external/transactions/');
    expect(Object.fromEntries(listCall?.searchParams ?? [])).toEqual({
      status: 'PENDING',
      vaultId: 'v1',
      cursor: 'c2',
      limit: '20',
    });
  });

  it("reads From and To as whole days in the member's zone, and shows times there, labelled", async () => {
    const { calls } = installFakeApi({
      ...reference,
      '/api/external/transactions/': () =>
        json({ results: [transaction({ createdAt: '2026-11-25T03:00:00.000Z' })], hasNext: false }),
    });
    renderPage({ createdAtGte: '2026-11-24', createdAtLte: '2026-11-24' }, 'America/Los_Angeles');
    const table = await screen.findByRole('table', { name: 'Transactions' });

    // Nov 24 in Los Angeles (PST) runs from 08:00 UTC that day to 08:00 UTC the next.
    const listCall = calls.find((u) => u.pathname === '/api/external/transactions/');
    expect(Object.fromEntries(listCall?.searchParams ?? [])).toEqual({
      createdAtGte: '2026-11-24T08:00:00.000Z',
      createdAtLte: '2026-11-25T07:59:59.999Z',
      limit: '20',
    });
    // 03:00 UTC on Nov 25 is the evening of Nov 24 there.
    expect(within(table).getByText('Nov 24, 2026, 19:00:00 PST')).toBeInTheDocument();
    expect(screen.getByLabelText('From')).toHaveAccessibleDescription(
      'Days in America/Los_Angeles, both included',
    );
  });

  it('moves to the next page and back through the search', async () => {
    const user = userEvent.setup();
    const items = Array.from({ length: 45 }, (_, i) => transaction({ id: `tx_${i}` }));
    installFakeApi({ ...reference, '/api/external/transactions/': (url) => pagedList(items, url) });
    const { onSearchChange } = renderPage({ status: 'COMPLETED' });

    await screen.findByRole('table', { name: 'Transactions' });
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onSearchChange).toHaveBeenLastCalledWith({ status: 'COMPLETED', cursor: '20', page: 2 });
  });

  it('goes back from a later page the way it came', async () => {
    const user = userEvent.setup();
    const items = Array.from({ length: 45 }, (_, i) => transaction({ id: `tx_${i}` }));
    installFakeApi({ ...reference, '/api/external/transactions/': (url) => pagedList(items, url) });
    rememberPrevious('20', undefined);
    rememberPrevious('40', '20');
    const { onSearchChange } = renderPage({ cursor: '40', page: 3 });

    await screen.findByRole('table', { name: 'Transactions' });
    expect(screen.getByText('Page 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(onSearchChange).toHaveBeenLastCalledWith({ cursor: '20', page: 2 });
  });

  it('offers the first page from a later page opened by a link, not knowing the way back', async () => {
    const user = userEvent.setup();
    const items = Array.from({ length: 45 }, (_, i) => transaction({ id: `tx_${i}` }));
    installFakeApi({ ...reference, '/api/external/transactions/': (url) => pagedList(items, url) });
    const { onSearchChange } = renderPage({ cursor: '40', page: 7 });

    await screen.findByRole('table', { name: 'Transactions' });
    expect(screen.getByText('Page 7')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'First page' }));
    expect(onSearchChange).toHaveBeenLastCalledWith({});
  });

  it('says when no transaction matches and clears the filters', async () => {
    const user = userEvent.setup();
    installFakeApi({
      ...reference,
      '/api/external/transactions/': () => json({ results: [], hasNext: false, nextCursor: null }),
    });
    const { onSearchChange } = renderPage({ externalId: 'nope' });

    expect(await screen.findByText('No transactions match these filters')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Transactions' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(onSearchChange).toHaveBeenLastCalledWith({});
  });

  it('shows the API error message and retries on request', async () => {
    const user = userEvent.setup();
    let fail = true;
    installFakeApi({
      ...reference,
      '/api/external/transactions/': () =>
        fail
          ? json(
              { message: 'The custody backend is unavailable', code: 'UPSTREAM_UNAVAILABLE' },
              503,
            )
          : json({ results: [transaction({})], hasNext: false }),
    });
    renderPage();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The custody backend is unavailable');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'Transactions' })).toBeInTheDocument();
  });

  it('announces loading while the first page is on its way', async () => {
    installFakeApi({
      ...reference,
      '/api/external/transactions/': () => new Promise<Response>(() => {}),
    });
    renderPage();
    expect(await screen.findByRole('status')).toHaveTextContent('Loading transactions…');
    expect(screen.getByTestId('transactions-results')).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByRole('table', { name: 'Transactions' })).not.toBeInTheDocument();
  });
});
