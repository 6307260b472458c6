import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithQuery } from '../../../test/render.tsx';
import { sessionFor } from '../../../test/session.ts';
import { LoginForm } from './login-form.tsx';

const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderForm(demoAccounts?: Parameters<typeof LoginForm>[0]['demoAccounts']) {
  const onSignedIn = vi.fn();
  const view = renderWithQuery(<LoginForm onSignedIn={onSignedIn} demoAccounts={demoAccounts} />);
  return { onSignedIn, ...view };
}

describe('LoginForm', () => {
  it('checks the fields before calling the server, and ties each error to its field', async () => {
    const user = userEvent.setup();
    const { fetchStub } = installFakeApi({});
    renderForm();
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    const email = screen.getByLabelText('Email');
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(email).toHaveAccessibleDescription('email must be an email address');
    expect(email).toHaveFocus();
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription('password is required');
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
      'email must be an email address',
      'password is required',
    ]);
    expect(fetchStub).not.toHaveBeenCalled();
  });

  it('signs in with the normalised email and reports success', async () => {
    const user = userEvent.setup();
    const { fetchStub } = installFakeApi({ '/auth/login': () => json(sessionFor('viewer')) });
    const { onSignedIn, client } = renderForm();
    await user.type(screen.getByLabelText('Email'), '  Viewer@Example.TEST ');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.keyboard('{Enter}');

    await waitFor(() => expect(onSignedIn).toHaveBeenCalledOnce());
    const [, init] = fetchStub.mock.calls[0] ?? [];
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({
      email: 'viewer@example.test',
      password: 'secret',
      // The browser's zone, the member's default (contract/display.ts).
      timeZone: BROWSER_ZONE,
    });
    expect(client.getQueryData(['session', 'current'])).toMatchObject({
      member: { role: 'viewer' },
    });
  });

  it("shows the server's message when sign-in is refused", async () => {
    const user = userEvent.setup();
    installFakeApi({
      '/auth/login': () =>
        json({ message: 'The email or password is not correct', code: 'UNAUTHORIZED' }, 401),
    });
    const { onSignedIn } = renderForm();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The email or password is not correct',
    );
    expect(onSignedIn).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Password')).not.toHaveAttribute('aria-invalid');

    // A new try with a field left empty: its own error only, not the old refusal beside it.
    await user.clear(screen.getByLabelText('Password'));
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true'),
    );
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
      'password is required',
    ]);
  });

  it('shows the rate-limit message', async () => {
    const user = userEvent.setup();
    installFakeApi({
      '/auth/login': () =>
        json(
          {
            message: 'Too many failed sign-in attempts; try again in 15 minutes',
            code: 'LOGIN_RATE_LIMITED',
          },
          429,
        ),
    });
    renderForm();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many failed sign-in attempts; try again in 15 minutes',
    );
  });

  it('fills the form from a demo account, ready to submit', async () => {
    const user = userEvent.setup();
    installFakeApi({});
    renderForm([
      { email: 'admin@sandbox.local', password: 'sandbox-admin-pass', role: 'admin', name: 'Alex' },
    ]);
    const region = screen.getByRole('region', { name: 'Demo accounts' });
    expect(region).toHaveTextContent('admin@sandbox.local');
    expect(region).toHaveTextContent('sandbox-admin-pass');
    await user.click(screen.getByRole('button', { name: 'Use Admin account admin@sandbox.local' }));
    expect(screen.getByLabelText('Email')).toHaveValue('admin@sandbox.local');
    expect(screen.getByLabelText('Password')).toHaveValue('sandbox-admin-pass');
    expect(screen.getByRole('button', { name: 'Sign in' })).toHaveFocus();
  });
});

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

async function signInAs(user: ReturnType<typeof userEvent.setup>, email = 'ada@example.com') {
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), 'correct horse battery');
  await user.keyboard('{Enter}');
}

function bodyOf(fetchStub: ReturnType<typeof installFakeApi>['fetchStub'], path: string) {
  const call = fetchStub.mock.calls.filter(([u]) => String(u).endsWith(path)).at(-1);
  return JSON.parse(String(call?.[1]?.body)) as unknown;
}

describe('LoginForm: the second factor', () => {
  it("asks for the authenticator's code after the password, then signs in", async () => {
    const user = userEvent.setup();
    const { fetchStub } = installFakeApi({
      '/auth/login': () =>
        json({
          secondFactor: 'required',
          challengeId: 'step-1',
          expiresAt: '2099-01-01T00:05:00Z',
        }),
      '/auth/login/second-factor': () => json(sessionFor('approver')),
    });
    const { onSignedIn, client } = renderForm();
    await signInAs(user);

    const form = await screen.findByRole('form', { name: 'Second factor' });
    const code = within(form).getByLabelText('Code from your authenticator app');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    await waitFor(() => expect(code).toHaveFocus());
    expect(onSignedIn).not.toHaveBeenCalled();
    expect(client.getQueryData(['session', 'current'])).toBeUndefined();

    await user.keyboard('123 456{Enter}');
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledOnce());
    expect(bodyOf(fetchStub, '/auth/login/second-factor')).toEqual({
      challengeId: 'step-1',
      code: '123456',
      timeZone: BROWSER_ZONE,
    });
    expect(client.getQueryData(['session', 'current'])).toMatchObject({
      member: { role: 'approver' },
    });
  });

  it('announces a wrong code at the field, and takes a recovery code instead', async () => {
    const user = userEvent.setup();
    let calls = 0;
    const message = 'The code is not correct; 4 tries left';
    const { fetchStub } = installFakeApi({
      '/auth/login': () =>
        json({
          secondFactor: 'required',
          challengeId: 'step-2',
          expiresAt: '2099-01-01T00:05:00Z',
        }),
      '/auth/login/second-factor': () =>
        (calls += 1) === 1
          ? json(
              { message, code: 'SECOND_FACTOR_INVALID', fields: [{ field: 'code', message }] },
              401,
            )
          : json(sessionFor('admin')),
    });
    const { onSignedIn } = renderForm();
    await signInAs(user);
    await user.type(await screen.findByLabelText('Code from your authenticator app'), '000000');
    await user.keyboard('{Enter}');

    const code = screen.getByLabelText('Code from your authenticator app');
    await waitFor(() => expect(code).toHaveAttribute('aria-invalid', 'true'));
    expect(code).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(code).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    const recovery = screen.getByLabelText('Recovery code');
    expect(recovery).toHaveAttribute('inputmode', 'text');
    await waitFor(() => expect(recovery).toHaveFocus());
    await user.keyboard('ABCDE-12345{Enter}');
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledOnce());
    expect(bodyOf(fetchStub, '/auth/login/second-factor')).toEqual({
      challengeId: 'step-2',
      code: 'abcde12345',
      timeZone: BROWSER_ZONE,
    });
  });

  it('goes back to the password, saying why, when the step has ended', async () => {
    const user = userEvent.setup();
    installFakeApi({
      '/auth/login': () =>
        json({
          secondFactor: 'required',
          challengeId: 'step-3',
          expiresAt: '2099-01-01T00:05:00Z',
        }),
      '/auth/login/second-factor': () =>
        json(
          {
            message: 'Too many wrong codes for this sign-in; sign in again with your password',
            code: 'SECOND_FACTOR_STEP_EXPIRED',
          },
          401,
        ),
    });
    renderForm();
    await signInAs(user);
    await user.type(await screen.findByLabelText('Code from your authenticator app'), '111111');
    await user.keyboard('{Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many wrong codes for this sign-in; sign in again with your password',
    );
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('');
  });

  it('sets up a factor: the key as text and as a QR code, its first code, then the recovery codes once', async () => {
    const user = userEvent.setup();
    const codes = Array.from({ length: 10 }, (_, i) => `abcd${i}-2345${i}`);
    const { fetchStub } = installFakeApi({
      '/auth/login': () =>
        json({
          secondFactor: 'enrol',
          challengeId: 'step-4',
          expiresAt: '2099-01-01T00:05:00Z',
          enrolment: {
            secret: SECRET,
            otpauthUri: `otpauth://totp/Custody%20Console:ada%40example.com?secret=${SECRET}`,
          },
        }),
      '/auth/login/second-factor': () => json({ ...sessionFor('approver'), recoveryCodes: codes }),
    });
    const { onSignedIn, client } = renderForm();
    await signInAs(user);

    const title = await screen.findByRole('heading', { name: 'Set up a second factor' });
    await waitFor(() => expect(title).toHaveFocus());
    expect(screen.getByTestId('second-factor-key')).toHaveTextContent(
      'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP',
    );
    expect(
      await screen.findByRole('img', { name: 'QR code of the key, for an authenticator app' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Open in an authenticator app/ })).toHaveAttribute(
      'href',
      expect.stringMatching(/^otpauth:\/\/totp\//),
    );
    // No recovery code at enrolment: its code is the new key's.
    expect(screen.queryByRole('button', { name: /recovery code/ })).toBeNull();

    await user.type(screen.getByLabelText('Code from your authenticator app'), '654321');
    await user.keyboard('{Enter}');
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(codes);
    expect(bodyOf(fetchStub, '/auth/login/second-factor')).toEqual({
      challengeId: 'step-4',
      code: '654321',
      timeZone: BROWSER_ZONE,
    });
    // Signed in, but the codes stay on screen until the member says they saved them.
    expect(onSignedIn).not.toHaveBeenCalled();
    expect(client.getQueryData(['session', 'current'])).not.toHaveProperty('recoveryCodes');
    await user.click(screen.getByRole('button', { name: 'I have saved them: continue' }));
    expect(onSignedIn).toHaveBeenCalledOnce();
  });

  it('says the demo members sign in without one', () => {
    installFakeApi({});
    renderForm([
      { email: 'admin@sandbox.local', password: 'sandbox-admin-pass', role: 'admin', name: 'Alex' },
    ]);
    expect(screen.getByRole('region', { name: 'Demo accounts' })).toHaveTextContent(
      'sign in without a second factor',
    );
  });
});
