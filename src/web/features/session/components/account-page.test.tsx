import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AccountSecondFactor } from '#contract/auth.ts';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithQuery } from '../../../test/render.tsx';
import { sessionFor } from '../../../test/session.ts';
import { AccountPage } from './account-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const NOT_SET_UP: AccountSecondFactor = {
  enrolled: false,
  enrolledAt: null,
  recoveryCodesLeft: 0,
  required: true,
  demoMember: false,
};
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = Array.from({ length: 10 }, (_, i) => `wxyz${i}-5678${i}`);

function bodyOf(fetchStub: ReturnType<typeof installFakeApi>['fetchStub'], path: string) {
  const call = fetchStub.mock.calls.filter(([u]) => String(u).endsWith(path)).at(-1);
  return JSON.parse(String(call?.[1]?.body)) as unknown;
}

describe('AccountPage', () => {
  it('changes the password: the new one twice, a wrong current one shown at its field', async () => {
    const user = userEvent.setup();
    let calls = 0;
    const { fetchStub } = installFakeApi({
      '/api/console/account/second-factor/': () => json(NOT_SET_UP),
      '/api/console/account/password/': () =>
        (calls += 1) === 1
          ? json(
              {
                message: 'Your current password is not correct',
                code: 'WRONG_PASSWORD',
                fields: [{ field: 'currentPassword', message: 'is not correct' }],
              },
              400,
            )
          : json({ otherSessionsEnded: 2 }),
    });
    renderWithQuery(<AccountPage session={sessionFor('approver')} />);
    const form = screen.getByRole('form', { name: 'Change your password' });
    await user.type(within(form).getByLabelText('Current password'), 'not the password');
    await user.type(within(form).getByLabelText('New password'), 'a brand new passphrase');
    await user.type(within(form).getByLabelText('New password again'), 'a brand new typo');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    const again = within(form).getByLabelText('New password again');
    await waitFor(() => expect(again).toHaveAttribute('aria-invalid', 'true'));
    expect(again).toHaveAccessibleDescription('must be the new password again');
    expect(fetchStub.mock.calls.some(([u]) => String(u).endsWith('/password/'))).toBe(false);

    await user.clear(again);
    await user.type(again, 'a brand new passphrase');
    await user.keyboard('{Enter}');
    const current = within(form).getByLabelText('Current password');
    await waitFor(() => expect(current).toHaveAttribute('aria-invalid', 'true'));
    expect(current).toHaveAccessibleDescription('is not correct');
    expect(current).toHaveFocus();
    expect(bodyOf(fetchStub, '/api/console/account/password/')).toEqual({
      currentPassword: 'not the password',
      newPassword: 'a brand new passphrase',
    });

    await user.clear(current);
    await user.type(current, 'the right password');
    await user.keyboard('{Enter}');
    expect(await within(form).findByRole('status')).toHaveTextContent(
      'Your password was changed. 2 other sessions were signed out.',
    );
    expect(within(form).getByLabelText('New password')).toHaveValue('');
  });

  it('sets up a second factor: the password, the key, its first code, then the recovery codes', async () => {
    const user = userEvent.setup();
    let enrolled = false;
    const { fetchStub } = installFakeApi({
      '/api/console/account/second-factor/': () =>
        json(
          enrolled
            ? {
                ...NOT_SET_UP,
                enrolled: true,
                enrolledAt: '2026-01-02T03:04:05Z',
                recoveryCodesLeft: 10,
              }
            : NOT_SET_UP,
        ),
      '/api/console/account/second-factor/enrolment/': () =>
        json({
          enrolmentId: 'enrol-1',
          expiresAt: '2099-01-01T00:05:00Z',
          secret: SECRET,
          otpauthUri: `otpauth://totp/Custody%20Console:a%40b.test?secret=${SECRET}`,
        }),
      '/api/console/account/second-factor/enrolment/confirm/': () => {
        enrolled = true;
        return json({ recoveryCodes: CODES, otherSessionsEnded: 1 });
      },
    });
    renderWithQuery(<AccountPage session={sessionFor('approver')} />);
    const panel = await screen.findByRole('region', { name: 'Second factor' });
    expect(panel).toHaveTextContent('Not set up. Your role needs one');
    await user.click(within(panel).getByRole('button', { name: 'Set up a second factor' }));

    const check = screen.getByRole('form', { name: 'Confirm it is you' });
    await waitFor(() =>
      expect(within(check).getByRole('heading', { name: 'Confirm it is you' })).toHaveFocus(),
    );
    await user.type(within(check).getByLabelText('Current password'), 'my password');
    await user.keyboard('{Enter}');
    expect(bodyOf(fetchStub, '/api/console/account/second-factor/enrolment/')).toEqual({
      password: 'my password',
    });

    const setUp = await screen.findByRole('form', {
      name: 'Add the new key to your authenticator app',
    });
    expect(within(setUp).getByTestId('second-factor-key')).toHaveTextContent('JBSW Y3DP');
    const code = within(setUp).getByLabelText('Code from your authenticator app');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await user.type(code, '246810');
    await user.keyboard('{Enter}');
    expect(bodyOf(fetchStub, '/api/console/account/second-factor/enrolment/confirm/')).toEqual({
      enrolmentId: 'enrol-1',
      code: '246810',
    });

    const codes = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(codes).getAllByRole('listitem')).toHaveLength(10);
    expect(screen.getByRole('status')).toHaveTextContent(
      'Your second factor is set up. 1 other session was signed out.',
    );
    await user.click(screen.getByRole('button', { name: 'I have saved them' }));
    const after = screen.getByRole('region', { name: 'Second factor' });
    await waitFor(() => expect(after).toHaveTextContent('10 recovery codes left'));
    expect(within(after).getByRole('button', { name: 'Make new recovery codes' })).toBeEnabled();
  });

  it("a demo member's factor and password cannot change", async () => {
    installFakeApi({
      '/api/console/account/second-factor/': () =>
        json({ ...NOT_SET_UP, required: false, demoMember: true }),
    });
    renderWithQuery(<AccountPage session={sessionFor('admin')} />);
    const panel = await screen.findByRole('region', { name: 'Second factor' });
    expect(panel).toHaveTextContent("sandbox's demo members");
    expect(within(panel).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('form', { name: 'Change your password' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Password' })).toHaveTextContent(
      'keep the password shown on the sign-in page',
    );
  });
});

describe('AccountPage: time, numbers and colours', () => {
  it('states the rule, and saves a zone and a scheme into the session every page reads', async () => {
    const user = userEvent.setup();
    const chosen = {
      timeZone: 'America/Los_Angeles',
      timeZoneSource: 'member',
      chosenTimeZone: 'America/Los_Angeles',
      browserTimeZone: 'Europe/Berlin',
      colorScheme: 'dark',
    };
    const { fetchStub } = installFakeApi({
      '/api/console/account/second-factor/': () => json(NOT_SET_UP),
      '/api/console/account/display/': () => json(chosen),
    });
    const session = sessionFor(
      'viewer',
      {},
      {
        timeZone: 'Europe/Berlin',
        timeZoneSource: 'browser',
        chosenTimeZone: null,
        browserTimeZone: 'Europe/Berlin',
        colorScheme: 'system',
      },
    );
    const { client } = renderWithQuery(<AccountPage session={session} />);
    client.setQueryData(['session', 'current'], session);
    const form = screen.getByRole('form', { name: 'Time, numbers and colours' });
    expect(form).toHaveTextContent('labelled with it');
    expect(form).toHaveTextContent('Date filters (From, To) mean whole days in that zone');
    expect(form).toHaveTextContent('English (United States)');
    const zone = within(form).getByLabelText('Time zone');
    expect(zone).toHaveValue('');
    expect(zone).toHaveAccessibleDescription(
      "In use now: Europe/Berlin, your browser's zone when you signed in.",
    );
    expect(within(form).getByRole('option', { name: "Your browser's zone (Europe/Berlin)" }));

    await user.selectOptions(zone, 'America/Los_Angeles');
    await user.click(within(form).getByRole('radio', { name: /Dark/ }));
    await user.click(within(form).getByRole('button', { name: 'Save display settings' }));
    await within(form).findByRole('status');
    expect(bodyOf(fetchStub, '/api/console/account/display/')).toEqual({
      timeZone: 'America/Los_Angeles',
      colorScheme: 'dark',
    });
    const [, init] =
      fetchStub.mock.calls.find(([u]) => String(u).endsWith('/account/display/')) ?? [];
    expect(init?.method).toBe('PATCH');
    // Every time and filter reads the cached session: the change shows at once.
    expect(client.getQueryData(['session', 'current'])).toMatchObject({ display: chosen });
  });

  it('shows a refused zone at its field', async () => {
    const user = userEvent.setup();
    installFakeApi({
      '/api/console/account/second-factor/': () => json(NOT_SET_UP),
      '/api/console/account/display/': () =>
        json(
          {
            message: 'timeZone: timeZone must be an IANA time zone name',
            code: 'VALIDATION_ERROR',
            fields: [{ field: 'timeZone', message: 'timeZone must be an IANA time zone name' }],
          },
          400,
        ),
    });
    renderWithQuery(<AccountPage session={sessionFor('viewer')} />);
    const form = screen.getByRole('form', { name: 'Time, numbers and colours' });
    await user.selectOptions(within(form).getByLabelText('Time zone'), 'Asia/Tokyo');
    await user.click(within(form).getByRole('button', { name: 'Save display settings' }));
    const zone = within(form).getByLabelText('Time zone');
    await waitFor(() => expect(zone).toHaveAttribute('aria-invalid', 'true'));
    expect(zone).toHaveAccessibleDescription(
      expect.stringContaining('must be an IANA time zone name'),
    );
  });
});
