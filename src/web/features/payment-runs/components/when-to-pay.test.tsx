import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithQuery } from '../../../test/render.tsx';
import { WhenToPay, type WhenToPayChoice } from './when-to-pay.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SCHEDULE_PATH = '/api/console/payment_runs/run_1/schedule/';

function render(choice: WhenToPayChoice, onScheduled = vi.fn()) {
  const onChoice = vi.fn();
  renderWithQuery(
    <WhenToPay runId="run_1" choice={choice} onChoice={onChoice} onScheduled={onScheduled} />,
  );
  return { onChoice, onScheduled };
}

describe('when a checked run is paid', () => {
  it('offers pay now, schedule once and repeat monthly, by radio', async () => {
    installFakeApi({});
    const user = userEvent.setup();
    const { onChoice } = render('now');
    const group = screen.getByRole('group', { name: 'When to pay' });
    expect(within(group).getByRole('radio', { name: 'Pay now' })).toBeChecked();
    await user.click(within(group).getByRole('radio', { name: 'Repeat monthly' }));
    expect(onChoice).toHaveBeenCalledWith('monthly');
    // Paying now is the page's own Submit button: no schedule form.
    expect(screen.queryByRole('form', { name: 'Schedule' })).not.toBeInTheDocument();
  });

  it('shows a monthly schedule’s next 3 occurrences, on the last day of a month without its day', async () => {
    const sent: unknown[] = [];
    installFakeApi({
      [SCHEDULE_PATH]: (_url, init) => {
        sent.push(JSON.parse(String(init.body)));
        return json(
          {
            id: 'sch_1',
            name: 'March vendors',
            subOrgId: null,
            createdById: 'st_1',
            status: 'ACTIVE',
            timing: { repeat: 'MONTHLY', dayOfMonth: 31, time: '09:00', timeZone: 'UTC' },
            description: 'Every month on the 31st',
            rowCount: 2,
            nextDueAt: '2099-01-31T09:00:00.000Z',
            upcoming: [],
            occurrencesMade: 0,
            lastRun: null,
            createdAt: '2026-03-01T12:00:00.000Z',
            updatedAt: '2026-03-01T12:00:00.000Z',
          },
          201,
        );
      },
    });
    const user = userEvent.setup();
    const { onScheduled } = render('monthly');
    expect(screen.getByRole('textbox', { name: 'Day of the month' })).toHaveAccessibleDescription(
      /A month without that day \(the 31st in April\) pays on its last day/,
    );
    await user.type(screen.getByRole('textbox', { name: 'Day of the month' }), '31');
    const next = screen.getByRole('region', { name: 'Next occurrences' });
    const items = within(next).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    // Among any three months in a row, one at least has fewer than 31 days: its last is paid.
    expect(items.map((i) => i.textContent).some((t) => /\b(28|29|30),/.test(t ?? ''))).toBe(true);

    await user.click(screen.getByRole('radio', { name: 'After a number of runs' }));
    await user.type(screen.getByRole('textbox', { name: 'Number of runs' }), '2');
    expect(within(next).getAllByRole('listitem')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Schedule the run' }));
    await waitFor(() => expect(onScheduled).toHaveBeenCalled());
    expect(sent).toEqual([
      {
        timing: {
          repeat: 'MONTHLY',
          dayOfMonth: 31,
          time: '09:00',
          timeZone: 'UTC',
          endAfterOccurrences: 2,
        },
      },
    ]);
  });

  it('sends a cap to pre-approve, checked on its field first, and shows the policy’s refusal there', async () => {
    const answer = json(
      {
        message:
          'preApproval.maxTotalUsd: the transactions policy does not allow pre-approved schedules',
        code: 'CONFLICT',
        fields: [
          {
            field: 'preApproval.maxTotalUsd',
            message: 'the transactions policy does not allow pre-approved schedules',
          },
        ],
      },
      409,
    );
    const sent: unknown[] = [];
    installFakeApi({
      [SCHEDULE_PATH]: (_url, init) => {
        sent.push(JSON.parse(String(init.body)));
        return answer;
      },
    });
    const user = userEvent.setup();
    const { onScheduled } = render('once');
    await user.type(screen.getByLabelText('Pay at'), '2099-01-05T09:00');
    await user.click(
      screen.getByRole('checkbox', { name: 'Pre-approve its occurrences up to a cap' }),
    );
    const cap = screen.getByRole('textbox', { name: 'Most one occurrence may pay (USD)' });
    await user.type(cap, 'lots');
    await user.click(screen.getByRole('button', { name: 'Schedule the run' }));
    expect(cap).toBeInvalid();
    expect(cap).toHaveAccessibleDescription(/maxTotalUsd must be a positive decimal/);
    expect(sent).toHaveLength(0);

    await user.clear(cap);
    await user.type(cap, '25000');
    await user.click(screen.getByRole('button', { name: 'Schedule the run' }));
    await waitFor(() =>
      expect(cap).toHaveAccessibleDescription(/does not allow pre-approved schedules/),
    );
    // Nothing typed is lost: the cap is still there to send again.
    expect(cap).toHaveValue('25000');
    expect(sent).toEqual([
      {
        timing: { repeat: 'ONCE', at: '2099-01-05T09:00', timeZone: 'UTC' },
        preApproval: { maxTotalUsd: '25000' },
      },
    ]);
    expect(onScheduled).not.toHaveBeenCalled();
  });

  it('refuses a day out of range on its field before sending, and shows the server’s refusal on its field', async () => {
    const { calls } = installFakeApi({
      [SCHEDULE_PATH]: () =>
        json(
          {
            message: 'timing.at must be in the future',
            code: 'VALIDATION_ERROR',
            fields: [{ field: 'timing.at', message: 'must be in the future' }],
          },
          400,
        ),
    });
    const user = userEvent.setup();
    render('monthly');
    await user.type(screen.getByRole('textbox', { name: 'Day of the month' }), '32');
    await user.click(screen.getByRole('button', { name: 'Schedule the run' }));
    const day = screen.getByRole('textbox', { name: 'Day of the month' });
    expect(day).toBeInvalid();
    expect(day).toHaveAccessibleDescription(/dayOfMonth must be from 1 to 31/);
    expect(calls).toHaveLength(0);
    cleanup();

    render('once');
    const at = screen.getByLabelText('Pay at');
    await user.type(at, '2099-01-05T09:00');
    const next = screen.getByRole('region', { name: 'Next occurrences' });
    expect(within(next).getAllByRole('listitem')).toHaveLength(1);
    expect(within(next).getByRole('listitem')).toHaveTextContent('2099');
    await user.click(screen.getByRole('button', { name: 'Schedule the run' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Pay at')).toHaveAccessibleDescription(/must be in the future/),
    );
  });
});
