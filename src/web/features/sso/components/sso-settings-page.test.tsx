import '@testing-library/jest-dom/vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SsoPendingChange, SsoSettings } from '#contract/sso.ts';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithRouter } from '../../../test/render.tsx';
import { SsoSettingsPage } from './sso-settings-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const inForce: SsoSettings = {
  configured: true,
  enabled: false,
  label: 'Acme',
  issuer: 'https://idp.acme.test',
  clientId: 'console',
  clientSecretSet: true,
  groupsClaim: 'groups',
  scopes: 'openid email profile',
  passwordSignIn: 'everyone',
  breakGlassEmail: null,
  groups: [],
  redirectUri: 'http://console.test/auth/sso/callback',
  scimBaseUrl: 'http://console.test/scim/v2',
  scimTokens: [],
  updatedAt: '2026-11-30T09:00:00.000Z',
  pendingChange: null,
};

const held: SsoPendingChange = {
  id: 'sso-change-1',
  proposedBy: { id: 'staff_pat', name: 'Pat Proposer' },
  proposedAt: '2026-11-30T10:00:00.000Z',
  widens: ['It turns single sign-on on.'],
};

describe('SsoSettingsPage', () => {
  it('says a save that widens access waits for another admin, and leads to its held item', async () => {
    let current = inForce;
    const saves: unknown[] = [];
    installFakeApi({
      '/api/console/sso/': (_url, init) => {
        if (init.method === 'PUT') {
          saves.push(JSON.parse(String(init.body)));
          current = { ...inForce, pendingChange: held };
        }
        return json(current);
      },
    });
    const user = userEvent.setup();
    renderWithRouter(<SsoSettingsPage />);
    const form = await screen.findByRole('form', { name: 'OpenID provider' });
    expect(screen.queryByRole('link', { name: 'Review the change…' })).toBeNull();

    await user.click(within(form).getByLabelText('Offer single sign-on on the sign-in page'));
    await user.click(within(form).getByRole('button', { name: 'Save single sign-on settings' }));

    expect(
      await within(form).findByText(/^Saved for approval: it widens who may sign in/),
    ).toBeVisible();
    expect(saves).toEqual([expect.objectContaining({ enabled: true })]);
    const review = await screen.findByRole('link', { name: 'Review the change…' });
    expect(review).toHaveAttribute('href', '/approvals/held/sso-change-1');
    expect(screen.getByText(/Pat Proposer saved a change/)).toHaveTextContent(
      'It turns single sign-on on.',
    );
  });

  it('says a save that only narrows is applied', async () => {
    installFakeApi({ '/api/console/sso/': () => json(inForce) });
    const user = userEvent.setup();
    renderWithRouter(<SsoSettingsPage />);
    const form = await screen.findByRole('form', { name: 'OpenID provider' });
    await user.click(within(form).getByRole('button', { name: 'Save single sign-on settings' }));
    expect(await within(form).findByText('Saved.')).toBeVisible();
  });
});
