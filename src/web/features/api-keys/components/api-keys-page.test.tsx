import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiUserInfo } from '#contract/api-users.ts';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithQuery } from '../../../test/render.tsx';
import { ApiKeysPage } from './api-keys-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const LIST = '/api/console/api-users/';
const SUB_ORGS = '/api/external/sub_orgs/';

const bot: ApiUserInfo = {
  id: 'au_1',
  name: 'Payroll bot',
  apiKey: 'key-1',
  scope: 'create',
  subOrgIds: null,
  allowedCidrs: ['203.0.113.0/24'],
  expiresAt: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  createdBy: { id: 's1', name: 'Ada Admin' },
  lastUsedAt: null,
  rotatedAt: null,
  revokedAt: null,
  status: 'active',
};

function fake(extra: Record<string, Parameters<typeof installFakeApi>[0][string]> = {}) {
  const posted: Array<{ path: string; body: unknown }> = [];
  const api = installFakeApi({
    [SUB_ORGS]: () => json({ results: [{ id: 'so_a', name: 'Desk A' }], hasNext: false }),
    [LIST]: (url, init) => {
      if (init.method === 'POST') {
        posted.push({ path: url.pathname, body: JSON.parse(String(init.body)) });
        return json(
          {
            apiUser: { ...bot, id: 'au_2', name: 'Treasury bot', scope: 'read_only' },
            apiKey: 'key-2',
            privateKeyHex: 'abcdef0123456789',
          },
          201,
        );
      }
      return json({ results: [bot] });
    },
    ...extra,
  });
  return { ...api, posted };
}

describe('the API keys page', () => {
  it('lists the keys with their scope, networks and who made them', async () => {
    fake();
    renderWithQuery(<ApiKeysPage />);
    const table = await screen.findByRole('region', { name: 'API users' });
    const row = within(table).getByText('Payroll bot').closest('tr');
    if (!row) throw new Error('no row');
    expect(row).toHaveTextContent('Create');
    expect(row).toHaveTextContent('203.0.113.0/24');
    expect(row).toHaveTextContent('by Ada Admin');
    expect(within(row).getByRole('button', { name: 'Revoke Payroll bot' })).toBeInTheDocument();
  });

  it('names each bad field where it was typed, before asking the server', async () => {
    const { posted } = fake();
    const user = userEvent.setup();
    renderWithQuery(<ApiKeysPage />);
    await screen.findByRole('region', { name: 'API users' });
    await user.type(screen.getByLabelText('Allowed networks'), '10.0.0.0/8\n10.0.0.0/33');
    await user.click(screen.getByRole('button', { name: 'Make the API key' }));
    expect(await screen.findByText('name is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Allowed networks')).toHaveAccessibleDescription(
      expect.stringContaining('line 2: must be an IPv4 or IPv6 network') as string,
    );
    expect(screen.getByLabelText('Allowed networks')).toHaveValue('10.0.0.0/8\n10.0.0.0/33');
    expect(posted).toEqual([]);
  });

  it('puts the server’s refusal at its field, keeping what was typed', async () => {
    fake({
      [LIST]: (_url, init) =>
        init.method === 'POST'
          ? json(
              {
                message: 'expiresAt must be in the future',
                code: 'VALIDATION_ERROR',
                fields: [{ field: 'expiresAt', message: 'must be in the future' }],
              },
              400,
            )
          : json({ results: [] }),
    });
    const user = userEvent.setup();
    renderWithQuery(<ApiKeysPage />);
    await screen.findByText('No API keys yet.');
    await user.type(screen.getByLabelText('Name'), 'Late bot');
    await user.click(screen.getByRole('button', { name: 'Make the API key' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Expires')).toHaveAccessibleDescription(
        expect.stringContaining('must be in the future') as string,
      ),
    );
    expect(screen.getByLabelText('Name')).toHaveValue('Late bot');
  });

  it('shows the new key once, in a dialog that says so, and forgets it when closed', async () => {
    const { posted } = fake();
    const user = userEvent.setup();
    renderWithQuery(<ApiKeysPage />);
    await screen.findByRole('region', { name: 'API users' });
    await user.type(screen.getByLabelText('Name'), 'Treasury bot');
    await user.click(screen.getByLabelText('Desk A'));
    await user.type(screen.getByLabelText('Allowed networks'), '198.51.100.0/24');
    await user.click(screen.getByRole('button', { name: 'Make the API key' }));

    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('you will not see it again');
    expect(within(dialog).getByText('abcdef0123456789')).toBeInTheDocument();
    expect(
      within(dialog).getByRole('button', { name: 'Copy the private key' }),
    ).toBeInTheDocument();
    expect(posted).toEqual([
      {
        path: LIST,
        body: {
          name: 'Treasury bot',
          scope: 'read_only',
          subOrgIds: ['so_a'],
          allowedCidrs: ['198.51.100.0/24'],
          expiresAt: null,
        },
      },
    ]);
    const done = within(dialog).getByRole('button', { name: 'Done' });
    expect(done).toBeDisabled();
    await user.click(within(dialog).getByLabelText('I have kept the private key somewhere safe'));
    await user.click(done);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByText('abcdef0123456789')).not.toBeInTheDocument();
  });

  it('revokes only once confirmed', async () => {
    const revoked: string[] = [];
    fake({
      [`${LIST}au_1/revoke/`]: () => {
        revoked.push('au_1');
        return json({ ...bot, status: 'revoked', revokedAt: '2026-11-02T00:00:00.000Z' });
      },
    });
    const user = userEvent.setup();
    renderWithQuery(<ApiKeysPage />);
    await user.click(await screen.findByRole('button', { name: 'Revoke Payroll bot' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('refused from now on');
    expect(revoked).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(revoked).toEqual(['au_1']));
  });

  it('rotates a key with an expiry without touching the expiry; an expired one gets none', async () => {
    const expiring = { ...bot, expiresAt: '2027-01-01T00:00:00.000Z' };
    const expired = { ...bot, id: 'au_3', name: 'Old bot', status: 'expired' as const };
    const rotated: Array<{ id: string; body: unknown }> = [];
    const rotate = (id: string) => (_url: URL, init: RequestInit) => {
      rotated.push({ id, body: JSON.parse(String(init.body)) });
      const user = id === 'au_1' ? expiring : expired;
      return json({ apiUser: user, apiKey: 'key-new', privateKeyHex: 'fedcba9876543210' });
    };
    fake({
      [LIST]: () => json({ results: [expiring, expired] }),
      [`${LIST}au_1/rotate/`]: rotate('au_1'),
      [`${LIST}au_3/rotate/`]: rotate('au_3'),
    });
    const user = userEvent.setup();
    renderWithQuery(<ApiKeysPage />);
    await user.click(await screen.findByRole('button', { name: 'Rotate the key of Payroll bot' }));
    let dialog = await screen.findByRole('dialog');
    expect(dialog).not.toHaveTextContent('without an expiry');
    await user.click(within(dialog).getByRole('button', { name: 'Rotate the key' }));
    await waitFor(() => expect(rotated).toEqual([{ id: 'au_1', body: {} }]));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByLabelText('I have kept the private key somewhere safe'));
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Rotate the key of Old bot' }));
    dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('without an expiry');
    await user.click(within(dialog).getByRole('button', { name: 'Rotate the key' }));
    await waitFor(() => expect(rotated[1]).toEqual({ id: 'au_3', body: { expiresAt: null } }));
  });
  it('changes a key’s networks in place: checked line by line before it is sent, the server’s refusal at the field', async () => {
    const sent: unknown[] = [];
    let refuse = true;
    fake({
      [`${LIST}au_1/networks/`]: (_url, init) => {
        const body = JSON.parse(String(init.body)) as { allowedCidrs: string[] | null };
        sent.push(body);
        if (refuse) {
          refuse = false;
          return json(
            {
              message: 'allowedCidrs.0: must be an IPv4 or IPv6 network',
              code: 'VALIDATION_ERROR',
              fields: [{ field: 'allowedCidrs.0', message: 'not one the server takes' }],
            },
            400,
          );
        }
        return json({ ...bot, allowedCidrs: body.allowedCidrs });
      },
    });
    const user = userEvent.setup();
    renderWithQuery(<ApiKeysPage />);
    await user.click(
      await screen.findByRole('button', { name: 'Change the networks of Payroll bot' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Allowed networks of “Payroll bot”' });
    expect(dialog).toHaveTextContent('Its key stays the same');
    const field = within(dialog).getByLabelText('Allowed networks');
    expect(field).toHaveValue('203.0.113.0/24');

    await user.clear(field);
    await user.type(field, '198.51.100.0/24\n198.51.100.0/33');
    await user.click(within(dialog).getByRole('button', { name: 'Save the networks' }));
    await waitFor(() =>
      expect(field).toHaveAccessibleDescription(
        expect.stringContaining('line 2: must be an IPv4 or IPv6 network') as string,
      ),
    );
    expect(sent).toEqual([]);

    await user.clear(field);
    await user.type(field, '198.51.100.0/24');
    await user.click(within(dialog).getByRole('button', { name: 'Save the networks' }));
    await waitFor(() =>
      expect(field).toHaveAccessibleDescription(
        expect.stringContaining('line 1: not one the server takes') as string,
      ),
    );
    expect(field).toHaveValue('198.51.100.0/24');

    await user.click(within(dialog).getByRole('button', { name: 'Save the networks' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent).toEqual([
      { allowedCidrs: ['198.51.100.0/24'] },
      { allowedCidrs: ['198.51.100.0/24'] },
    ]);

    // Emptied: requests from anywhere.
    await user.click(screen.getByRole('button', { name: 'Change the networks of Payroll bot' }));
    const again = await screen.findByRole('dialog');
    await user.clear(within(again).getByLabelText('Allowed networks'));
    await user.click(within(again).getByRole('button', { name: 'Save the networks' }));
    await waitFor(() => expect(sent[2]).toEqual({ allowedCidrs: null }));
  });
});
