import '@testing-library/jest-dom/vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '#contract/auth.ts';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithRouter } from '../../../test/render.tsx';
import type { AuditSearch } from '../search.ts';
import { AuditPage } from './audit-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const entry: AuditEntry = {
  id: 'au_1',
  at: '2025-03-01T12:00:00.000Z',
  actorType: 'STAFF',
  actorId: 's_admin',
  actorName: 'Alex Admin',
  action: 'bank_account.reveal',
  entityType: 'BANK_ACCOUNT',
  entityId: 'ba_1',
  summary: 'Revealed account •••• 6789',
  outcome: 'success',
  requestId: 'req-123',
};

function renderPage(search: AuditSearch = {}) {
  const onSearchChange = vi.fn();
  renderWithRouter(<AuditPage search={search} onSearchChange={onSearchChange} />);
  return { onSearchChange };
}

describe('AuditPage', () => {
  it('shows who did what to which entity, when, with the outcome and request id', async () => {
    installFakeApi({
      '/api/console/audit/': () => json({ results: [entry], hasNext: false, nextCursor: null }),
    });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Audit log' });
    const row = within(table).getAllByRole('row')[1];
    for (const text of [
      'Alex Admin',
      'Full account number revealed',
      'bank_account.reveal',
      'Bank account',
      'ba_1',
      'Revealed account •••• 6789',
      'Success',
      'req-123',
    ]) {
      expect(row).toHaveTextContent(text);
    }
    expect(row?.querySelector('time')).toHaveAttribute('dateTime', entry.at);
    expect(within(row!).getByRole('link', { name: 'ba_1, open the bank account' })).toHaveAttribute(
      'href',
      '/bank-accounts/ba_1',
    );
  });

  it('filters by action from a list of what the log records, in words', async () => {
    const user = userEvent.setup();
    installFakeApi({
      '/api/console/audit/': () => json({ results: [entry], hasNext: false, nextCursor: null }),
    });
    const { onSearchChange } = renderPage();
    await screen.findByRole('table', { name: 'Audit log' });
    const action = screen.getByRole('combobox', { name: 'Action' });
    await user.selectOptions(action, 'Declined');
    expect(onSearchChange).toHaveBeenLastCalledWith({ action: 'change_request.reject' });
  });

  it('asks for the filters and cursor in the URL, and applies typed filters on Enter', async () => {
    const user = userEvent.setup();
    const { calls } = installFakeApi({
      '/api/console/audit/': () => json({ results: [entry], hasNext: true, nextCursor: 'c2' }),
      '/api/console/staff/': () =>
        json({
          results: [
            {
              id: 's_admin',
              email: 'alex@example.test',
              name: 'Alex Admin',
              role: 'admin',
              subOrgIds: null,
              disabled: false,
            },
          ],
        }),
    });
    const { onSearchChange } = renderPage({ outcome: 'denied', atGte: '2025-03-01' });
    await screen.findByRole('table', { name: 'Audit log' });
    const auditCall = calls.find((u) => u.pathname === '/api/console/audit/');
    expect(Object.fromEntries(auditCall?.searchParams ?? [])).toEqual({
      outcome: 'denied',
      atGte: '2025-03-01T00:00:00.000Z',
      limit: '20',
    });
    expect(screen.getByLabelText('Outcome')).toHaveValue('denied');
    expect(screen.getByLabelText('From')).toHaveValue('2025-03-01');

    await user.type(screen.getByLabelText('Entity ID'), 'ba_1{Enter}');
    expect(onSearchChange).toHaveBeenLastCalledWith({
      outcome: 'denied',
      atGte: '2025-03-01',
      entityId: 'ba_1',
    });
    await user.selectOptions(
      screen.getByLabelText('Actor'),
      await screen.findByRole('option', { name: 'Alex Admin (alex@example.test)' }),
    );
    expect(onSearchChange).toHaveBeenLastCalledWith({
      outcome: 'denied',
      atGte: '2025-03-01',
      actorId: 's_admin',
    });
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onSearchChange).toHaveBeenLastCalledWith({
      outcome: 'denied',
      atGte: '2025-03-01',
      cursor: 'c2',
      page: 2,
    });
  });

  it('has an empty state and an error state', async () => {
    installFakeApi({ '/api/console/audit/': () => json({ results: [], hasNext: false }) });
    renderPage({ action: 'nothing.matches' });
    expect(await screen.findByText('No audit entries match these filters')).toBeInTheDocument();
    cleanup();
    installFakeApi({
      '/api/console/audit/': () =>
        json(
          { message: 'The admin role is needed to read the audit log', code: 'FORBIDDEN_ROLE' },
          403,
        ),
    });
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The audit log could not be loaded');
    expect(alert).toHaveTextContent('The admin role is needed to read the audit log');
  });
});
