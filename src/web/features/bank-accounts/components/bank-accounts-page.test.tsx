import type { ReactNode } from 'react';
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithQuery } from '../../../test/render.tsx';
import type { BankAccountSearch } from '../search.ts';
import { BankAccountsPage } from './bank-accounts-page.tsx';

// The page alone, without a router: links render as plain anchors to their route.
vi.mock('@tanstack/react-router', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  Link: ({
    to,
    params,
    search: _search,
    children,
    ...rest
  }: {
    to: string;
    params?: Record<string, string>;
    search?: unknown;
    children: ReactNode;
  }) => (
    <a href={to.replace(/\$(\w+)/g, (_, k: string) => params?.[k] ?? '')} {...rest}>
      {children}
    </a>
  ),
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ACCOUNT_NUMBER = '000123456789';
const ROUTING_NUMBER = '021000021';
const IBAN = 'DE89370400440532013000';

const accounts = [
  {
    id: 'ba_1',
    accountName: 'Acme Payroll',
    bankName: 'Chase',
    paymentMethod: 'US_ACH',
    country: 'US',
    status: 'APPROVED',
    accountNumber: ACCOUNT_NUMBER,
    routingNumber: ROUTING_NUMBER,
    createdAt: '2025-03-01T12:00:00.000Z',
  },
  {
    id: 'ba_2',
    accountName: 'Acme GmbH',
    bankName: 'Commerzbank',
    paymentMethod: 'SEPA',
    country: 'DE',
    status: 'PENDING',
    accountNumber: IBAN,
    routingNumber: null,
  },
];

function renderPage(search: BankAccountSearch = {}, canReveal = false) {
  const onSearchChange = vi.fn();
  const view = renderWithQuery(
    <BankAccountsPage search={search} onSearchChange={onSearchChange} canReveal={canReveal} />,
  );
  return { onSearchChange, ...view };
}

describe('BankAccountsPage', () => {
  it('masks account and routing numbers to their last four and never renders them whole', async () => {
    installFakeApi({
      '/api/external/bank_accounts/': () => json({ results: accounts, hasNext: false }),
    });
    const { container } = renderPage();

    const table = await screen.findByRole('table', { name: 'Bank accounts' });
    const [ach, sepa] = within(table).getAllByRole('row').slice(1) as [HTMLElement, HTMLElement];
    expect(ach).toHaveTextContent('•••• 6789');
    expect(ach).toHaveTextContent('•••• 0021');
    expect(ach).toHaveTextContent('US ACH');
    expect(ach).toHaveTextContent('Approved');
    expect(sepa).toHaveTextContent('•••• 3000');
    expect(sepa).toHaveTextContent('Pending');
    // Each row opens its account.
    expect(within(ach).getByRole('link', { name: 'Acme Payroll' })).toHaveAttribute(
      'href',
      '/bank-accounts/ba_1',
    );

    const html = document.documentElement.outerHTML + container.outerHTML;
    for (const secret of [ACCOUNT_NUMBER, ROUTING_NUMBER, IBAN, '3456789', '370400440']) {
      expect(html).not.toContain(secret);
    }
  });

  it('asks for the status and payment method in the URL', async () => {
    const { calls } = installFakeApi({
      '/api/external/bank_accounts/': () => json({ results: accounts, hasNext: false }),
    });
    renderPage({ status: 'PENDING', paymentMethod: 'SEPA' });
    await screen.findByRole('table', { name: 'Bank accounts' });
    expect(Object.fromEntries(calls[0]?.searchParams ?? [])).toEqual({
      status: 'PENDING',
      paymentMethod: 'SEPA',
      limit: '20',
    });
  });

  it('changing a filter starts again from the first page', async () => {
    const user = userEvent.setup();
    installFakeApi({
      '/api/external/bank_accounts/': () =>
        json({ results: accounts, hasNext: true, nextCursor: 'c3' }),
    });
    const { onSearchChange } = renderPage({ cursor: 'c2', page: 3 });
    await screen.findByRole('table', { name: 'Bank accounts' });

    await user.selectOptions(screen.getByLabelText('Payment method'), 'SWIFT');
    expect(onSearchChange).toHaveBeenLastCalledWith({ paymentMethod: 'SWIFT' });
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onSearchChange).toHaveBeenLastCalledWith({ cursor: 'c3', page: 4 });
  });

  it('has an empty state with a way out', async () => {
    const user = userEvent.setup();
    installFakeApi({ '/api/external/bank_accounts/': () => json({ results: [], hasNext: false }) });
    const { onSearchChange } = renderPage({ status: 'DECLINED' });
    expect(await screen.findByText('No bank accounts match these filters')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(onSearchChange).toHaveBeenLastCalledWith({});
  });

  it('explains a network failure', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Bank accounts could not be loaded');
    expect(alert).toHaveTextContent('could not be reached');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeEnabled();
  });

  it('reveals full numbers in place on request, and hides them again', async () => {
    const user = userEvent.setup();
    const masked = accounts.map((a) => ({
      ...a,
      accountNumber: '•••• 6789',
      routingNumber: '•••• 0021',
    }));
    const { calls } = installFakeApi({
      '/api/external/bank_accounts/': () => json({ results: masked, hasNext: false }),
      // A reveal is a mutation (audited in the member's name): POST only, as the server answers it.
      '/api/console/bank_accounts/ba_1/reveal/': (_url, init) =>
        init.method !== 'POST'
          ? json({ message: 'Method not allowed', code: 'METHOD_NOT_ALLOWED' }, 405)
          : json({ accountNumber: ACCOUNT_NUMBER, routingNumber: ROUTING_NUMBER }),
    });
    renderPage({}, true);
    const table = await screen.findByRole('table', { name: 'Bank accounts' });
    const row = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(document.body.innerHTML).not.toContain(ACCOUNT_NUMBER);

    await user.click(
      within(row).getByRole('button', { name: 'Reveal full numbers of Acme Payroll' }),
    );
    await waitFor(() => expect(row).toHaveTextContent(ACCOUNT_NUMBER));
    expect(row).toHaveTextContent(ROUTING_NUMBER);
    expect(calls.filter((u) => u.pathname.endsWith('/reveal/'))).toHaveLength(1);

    await user.click(
      within(row).getByRole('button', { name: 'Hide full numbers of Acme Payroll' }),
    );
    expect(row).toHaveTextContent('•••• 6789');
    expect(document.body.innerHTML).not.toContain(ACCOUNT_NUMBER);
  });

  it('offers no Reveal to a role that may not', async () => {
    installFakeApi({
      '/api/external/bank_accounts/': () => json({ results: accounts, hasNext: false }),
    });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Bank accounts' });
    expect(within(table).queryByRole('button')).not.toBeInTheDocument();
    expect(
      within(table).queryByRole('columnheader', { name: 'Full numbers' }),
    ).not.toBeInTheDocument();
  });
});
