import type { ReactNode } from 'react';
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PaymentRunSchedule } from '#contract/payment-run-schedules.ts';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithQuery } from '../../../test/render.tsx';
import { PaymentRunSchedulesPage } from './payment-run-schedules-page.tsx';

// The page alone, without a router: links render as plain anchors to their route.
vi.mock('@tanstack/react-router', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  Link: ({
    to,
    params,
    children,
    ...rest
  }: {
    to: string;
    params?: Record<string, string>;
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

function schedule(over: Partial<PaymentRunSchedule> = {}): PaymentRunSchedule {
  return {
    id: 'sch_1',
    name: 'Retainers',
    subOrgId: null,
    createdById: 'st_1',
    status: 'ACTIVE',
    timing: { repeat: 'MONTHLY', dayOfMonth: 31, time: '09:00', timeZone: 'UTC' },
    description: 'Every month on the 31st at 09:00 (UTC), or the month’s last day',
    rowCount: 2,
    nextDueAt: '2027-04-30T09:00:00.000Z',
    upcoming: ['2027-05-31T09:00:00.000Z', '2027-06-30T09:00:00.000Z'],
    occurrencesMade: 1,
    lastRun: {
      runId: 'run_9',
      dueAt: '2027-03-31T09:00:00.000Z',
      status: 'DRAFT',
      failure: '1 row needs a fix before the run can be submitted',
    },
    createdAt: '2027-03-01T12:00:00.000Z',
    updatedAt: '2027-03-01T12:00:00.000Z',
    ...over,
  };
}

const LIST = '/api/console/payment_run_schedules/';

describe('the payment run schedules page', () => {
  it('lists each schedule’s next three times, its last run linked with why it waits, its status', async () => {
    installFakeApi({ [LIST]: () => json({ results: [schedule()] }) });
    renderWithQuery(<PaymentRunSchedulesPage canChange />);
    const row = await screen.findByRole('row', { name: 'Retainers' });
    expect(row).toHaveTextContent('or the month’s last day');
    expect(
      within(row)
        .getAllByRole('time')
        .map((t) => t.getAttribute('datetime')),
    ).toEqual([
      '2027-04-30T09:00:00.000Z',
      '2027-05-31T09:00:00.000Z',
      '2027-06-30T09:00:00.000Z',
      '2027-03-31T09:00:00.000Z',
    ]);
    expect(within(row).getByRole('link', { name: /^Run due/ })).toHaveAttribute(
      'href',
      '/payment-runs/run_9',
    );
    expect(row).toHaveTextContent('1 row needs a fix before the run can be submitted');
  });

  it('says how each schedule’s occurrences are approved: pre-approved up to its cap, or each one', async () => {
    const pre = {
      approvalId: 'appr_1',
      maxTotalUsd: '25000',
      assets: ['USDC on ETHEREUM'],
      destinations: ['contact ct_1'],
      rowsDigest: 'ab'.repeat(32),
    };
    installFakeApi({
      [LIST]: () =>
        json({
          results: [
            schedule(),
            schedule({
              id: 'sch_2',
              name: 'Payroll',
              preApproval: {
                ...pre,
                status: 'APPROVED',
                approvedAt: '2027-03-02T10:00:00.000Z',
                approvedBy: ['Ada Approver'],
              },
            }),
            schedule({
              id: 'sch_3',
              name: 'Refunds',
              preApproval: { ...pre, status: 'PENDING', approvedAt: null, approvedBy: [] },
            }),
          ],
        }),
    });
    renderWithQuery(<PaymentRunSchedulesPage canChange />);
    expect(await screen.findByRole('row', { name: 'Retainers' })).toHaveTextContent(
      'Each occurrence approved',
    );
    expect(screen.getByRole('row', { name: 'Payroll' })).toHaveTextContent(
      'Pre-approved up to $25,000.00 per occurrence by Ada Approver',
    );
    const waiting = screen.getByRole('row', { name: 'Refunds' });
    expect(waiting).toHaveTextContent('Each occurrence approved until the pre-approval');
    expect(within(waiting).getByRole('link', { name: /pre-approval up to/ })).toHaveAttribute(
      'href',
      '/approvals/held/appr_1',
    );
  });

  it('cancels a schedule only once confirmed, and shows it cancelled', async () => {
    let cancelled = 0;
    let current = schedule();
    installFakeApi({
      [LIST]: () => json({ results: [current] }),
      '/api/console/payment_run_schedules/sch_1/cancel/': () => {
        cancelled += 1;
        current = schedule({ status: 'CANCELLED', nextDueAt: null, upcoming: [] });
        return json(current);
      },
    });
    const user = userEvent.setup();
    renderWithQuery(<PaymentRunSchedulesPage canChange />);
    const row = await screen.findByRole('row', { name: 'Retainers' });

    await user.click(within(row).getByRole('button', { name: 'Cancel the schedule Retainers' }));
    let dialog = screen.getByRole('dialog', { name: 'Cancel the schedule “Retainers”?' });
    expect(dialog).toHaveTextContent('Runs it already made are not touched');
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(cancelled).toBe(0);

    // Closed, the page is the page's again (the dialog no longer hides it from assistive tech).
    await user.click(await screen.findByRole('button', { name: 'Cancel the schedule Retainers' }));
    dialog = screen.getByRole('dialog', { name: 'Cancel the schedule “Retainers”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the schedule' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(cancelled).toBe(1);
    await waitFor(() =>
      expect(
        screen.getByRole('row', { name: 'Retainers' }).querySelector('[data-status="CANCELLED"]'),
      ).not.toBeNull(),
    );
    expect(screen.queryByRole('button', { name: /Cancel the schedule/ })).not.toBeInTheDocument();
  });

  it('offers no change to a member who may only read', async () => {
    installFakeApi({ [LIST]: () => json({ results: [schedule()] }) });
    renderWithQuery(<PaymentRunSchedulesPage canChange={false} />);
    await screen.findByRole('row', { name: 'Retainers' });
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
