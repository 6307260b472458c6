import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NOTIFICATION_EVENT_LABELS, NOTIFICATION_EVENTS } from '#contract/notifications.ts';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithQuery } from '../../../test/render.tsx';
import { NotificationPreferencesPanel } from './notification-preferences.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const PREFS = '/api/console/account/notifications/';
const EVERYTHING = {
  events: [...NOTIFICATION_EVENTS],
  email: true,
  digest: false,
  digestHour: 8,
};

describe("a member's notification preferences", () => {
  it('labels every choice, asks the digest hour only once the digest is chosen, and saves what was chosen', async () => {
    const saved: unknown[] = [];
    installFakeApi({
      [PREFS]: (_url, init) => {
        if (init.method !== 'PUT') return json(EVERYTHING);
        const body = JSON.parse(String(init.body)) as unknown;
        saved.push(body);
        return json(body);
      },
    });
    const user = userEvent.setup();
    renderWithQuery(<NotificationPreferencesPanel />);
    expect(await screen.findByLabelText('Email me notifications')).toBeChecked();
    const when = screen.getByRole('group', { name: 'Tell me when' });
    for (const event of NOTIFICATION_EVENTS)
      expect(within(when).getByLabelText(NOTIFICATION_EVENT_LABELS[event])).toBeChecked();
    expect(screen.queryByLabelText('Digest time (your time zone)')).not.toBeInTheDocument();

    await user.click(within(when).getByLabelText(NOTIFICATION_EVENT_LABELS.STUCK));
    await user.click(
      screen.getByLabelText(
        'Instead of a message per item waiting for my approval, send me a daily digest',
      ),
    );
    await user.selectOptions(screen.getByLabelText('Digest time (your time zone)'), '17');
    await user.click(screen.getByRole('button', { name: 'Save notification preferences' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Saved.');
    expect(saved).toEqual([
      {
        events: NOTIFICATION_EVENTS.filter((e) => e !== 'STUCK'),
        email: true,
        digest: true,
        digestHour: 17,
      },
    ]);
  });

  it("announces the server's refusal, naming the field, and keeps the choices made", async () => {
    installFakeApi({
      [PREFS]: (_url, init) =>
        init.method === 'PUT'
          ? json(
              {
                message: 'digestHour: digestHour must be a whole number from 0 to 23',
                code: 'VALIDATION_ERROR',
                fields: [
                  {
                    field: 'digestHour',
                    message: 'digestHour must be a whole number from 0 to 23',
                  },
                ],
              },
              400,
            )
          : json(EVERYTHING),
    });
    const user = userEvent.setup();
    renderWithQuery(<NotificationPreferencesPanel />);
    await user.click(await screen.findByLabelText('Email me notifications'));
    await user.click(screen.getByRole('button', { name: 'Save notification preferences' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Not saved: DigestHour: digestHour must be a whole number from 0 to 23.',
      ),
    );
    expect(screen.getByLabelText('Email me notifications')).not.toBeChecked();
  });
});
