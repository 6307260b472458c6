import '@testing-library/jest-dom/vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '#contract/api-error.ts';
import type { SessionResponse } from '#contract/auth.ts';
import { createConsole } from '../../router.tsx';
import { installFakeApi, json, pagedList, type FakeRoute } from '../../test/fake-api.ts';
import { sessionFor } from '../../test/session.ts';

const subOrgs = [
  { id: 'so_east', name: 'East desk' },
  { id: 'so_west', name: 'West desk' },
];

let session: SessionResponse | null;

function install(extra: Record<string, FakeRoute> = {}) {
  return installFakeApi({
    '/auth/session': () =>
      session ? json(session) : json({ message: 'Not signed in', code: 'UNAUTHORIZED' }, 401),
    '/auth/demo-accounts': () => json({ message: 'sandbox only', code: 'ROUTE_NOT_FOUND' }, 404),
    '/auth/logout': () => new Response(null, { status: 204 }),
    '/api/external/sub_orgs/': () => json({ results: subOrgs, hasNext: false }),
    '/api/external/vaults/': () => json({ results: [] }),
    '/api/external/assets/': () => json([]),
    '/api/external/transactions/': (url) =>
      pagedList([{ id: 'tx_1', status: 'COMPLETED', createdAt: '2025-03-01T12:00:00Z' }], url),
    '/api/external/bank_accounts/': (url) =>
      pagedList([{ id: 'ba_1', accountName: 'Payroll', accountNumber: '•••• 6789' }], url),
    '/api/console/audit/': (url) => pagedList([], url),
    ...extra,
  });
}

beforeEach(() => {
  vi.stubGlobal('scrollTo', () => {});
  session = sessionFor('admin');
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderApp(url: string) {
  const history = createMemoryHistory({ initialEntries: [url] });
  const { queryClient, router } = createConsole(history);
  queryClient.setDefaultOptions({ queries: { retry: false } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, queryClient };
}

const mainNav = () => screen.getByRole('navigation', { name: 'Main' });

// Whole-app renders in jsdom take seconds under a parallel run; the default 5 s is too tight.
describe('signed out', { timeout: 20_000 }, () => {
  it('goes to /login with the return address, and back to it after signing in', async () => {
    const user = userEvent.setup();
    session = null;
    const { fetchStub } = install({
      '/auth/login': () => {
        session = sessionFor('viewer');
        return json(session);
      },
    });
    const { router } = renderApp('/transactions?status=COMPLETED');

    await screen.findByRole('heading', { name: 'Sign in', level: 1 });
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toEqual({ redirect: '/transactions?status=COMPLETED' });

    await user.type(screen.getByLabelText('Email'), 'viewer@example.test');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await screen.findByRole('table', { name: 'Transactions' });
    expect(router.state.location.href).toBe('/transactions?status=COMPLETED');
    const login = fetchStub.mock.calls.find(([u]) => String(u).endsWith('/auth/login'));
    expect(JSON.parse(String(login?.[1]?.body))).toEqual({
      email: 'viewer@example.test',
      password: 'secret',
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
  });

  it('a 401 from any call mid-session sends the member to /login with the current address', async () => {
    install({
      '/api/external/bank_accounts/': () =>
        json({ message: 'Your session has ended; sign in again', code: 'UNAUTHORIZED' }, 401),
    });
    const { router } = renderApp('/bank-accounts?status=PENDING');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toEqual({
      redirect: '/bank-accounts?status=PENDING',
      ended: 'read',
    });
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Your session has ended. Sign in to go back: anything you had typed in a form is still there.',
    );
  });

  it('a 401 answering something sent says on the sign-in page that nothing was sent', async () => {
    install();
    const { router, queryClient } = renderApp('/bank-accounts/new');
    await screen.findByRole('heading', { name: 'Propose a bank account', level: 1 });
    session = null;
    const refused = queryClient.getMutationCache().build(queryClient, {
      mutationFn: () =>
        Promise.reject(new ApiError(401, 'UNAUTHORIZED', 'Your session has ended; sign in again')),
    });
    await refused.execute(undefined).catch(() => {});
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toEqual({ redirect: '/bank-accounts/new', ended: 'send' });
    expect(await screen.findByRole('status')).toHaveTextContent(
      /nothing was sent and nothing changed.*anything you had typed in a form is still there \(type the account and routing numbers again/,
    );
  });
});

describe('signed in', { timeout: 20_000 }, () => {
  it('shows who is signed in, and offers admins the audit log and staff', async () => {
    install();
    renderApp('/transactions');
    await screen.findByRole('table', { name: 'Transactions' });
    const member = screen.getByTestId('signed-in-member');
    // Read out as "Test Admin, role: Admin, scope: All sub-organizations".
    expect(member).toHaveTextContent(/^Test Admin.*role: Admin.*scope: All sub-organizations$/);
    expect(within(mainNav()).getByRole('link', { name: 'Audit log' })).toBeInTheDocument();
    expect(within(mainNav()).getByRole('link', { name: 'Staff' })).toBeInTheDocument();
  });

  it('does not offer a viewer the audit log or staff, and explains when they go there anyway', async () => {
    session = sessionFor('viewer');
    const { calls } = install();
    renderApp('/audit');
    expect(
      await screen.findByRole('heading', { name: "You don't have access to the audit log" }),
    ).toBeInTheDocument();
    expect(within(mainNav()).queryByRole('link', { name: 'Audit log' })).not.toBeInTheDocument();
    expect(within(mainNav()).queryByRole('link', { name: 'Staff' })).not.toBeInTheDocument();
    expect(calls.some((u) => u.pathname === '/api/console/audit/')).toBe(false);
  });

  it('keeps the scope in the URL across navigation and filters lists by it', async () => {
    const user = userEvent.setup();
    const { calls } = install();
    const { router } = renderApp('/transactions?subOrg=so_west&status=COMPLETED');
    await screen.findByRole('table', { name: 'Transactions' });
    const txCall = calls.find((u) => u.pathname === '/api/external/transactions/');
    expect(txCall?.searchParams.get('subOrgId')).toBe('so_west');
    expect(txCall?.searchParams.has('subOrg')).toBe(false);
    await waitFor(() => expect(screen.getByLabelText('Scope')).toHaveValue('so_west'));

    await user.click(within(mainNav()).getByRole('link', { name: 'Bank accounts' }));
    await screen.findByRole('table', { name: 'Bank accounts' });
    expect(router.state.location.pathname).toBe('/bank-accounts');
    expect(router.state.location.search).toEqual({ subOrg: 'so_west' });
    const baCall = calls.find((u) => u.pathname === '/api/external/bank_accounts/');
    expect(baCall?.searchParams.get('subOrgId')).toBe('so_west');

    await user.selectOptions(screen.getByLabelText('Scope'), 'so_east');
    await waitFor(() => expect(router.state.location.search).toEqual({ subOrg: 'so_east' }));
    expect(router.state.location.pathname).toBe('/bank-accounts');

    await user.selectOptions(screen.getByLabelText('Scope'), '');
    await waitFor(() => expect(router.state.location.searchStr).toBe(''));
    expect(router.state.location.pathname).toBe('/bank-accounts');
  });

  it('offers only the sub-organizations a limited member may act in', async () => {
    session = sessionFor('initiator', { subOrgIds: ['so_east'] });
    install();
    renderApp('/transactions');
    const scope = await screen.findByLabelText('Scope');
    await waitFor(() =>
      expect(
        within(scope)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['All my sub-organizations', 'East desk']),
    );
  });

  it('signs out with the CSRF token and goes to /login', async () => {
    const user = userEvent.setup();
    const { fetchStub } = install();
    const { router } = renderApp('/transactions');
    await screen.findByRole('table', { name: 'Transactions' });
    sessionStorage.setItem('form-draft:/staff#create', '{"name":"Dana"}');
    session = null;
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await screen.findByRole('heading', { name: 'Sign in', level: 1 });
    expect(router.state.location.href).toBe('/login');
    const logout = fetchStub.mock.calls.find(([u]) => String(u).endsWith('/auth/logout'));
    expect(logout?.[1]?.method).toBe('POST');
    expect((logout?.[1]?.headers as Record<string, string>)['X-CSRF-Token']).toBe('csrf-admin');
    // What the member typed does not wait there for the next person.
    expect(sessionStorage.getItem('form-draft:/staff#create')).toBeNull();
  });
});
