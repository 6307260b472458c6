import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithQuery } from '../../../test/render.tsx';
import { sessionFor } from '../../../test/session.ts';
import { LoginForm } from './login-form.tsx';

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
