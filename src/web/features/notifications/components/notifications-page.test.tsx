import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatTarget, NotificationDelivery, SmtpSettings } from '#contract/notifications.ts';
import { installFakeApi, json } from '../../../test/fake-api.ts';
import { renderWithQuery } from '../../../test/render.tsx';
import { NotificationsPage } from './notifications-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SMTP = '/api/console/notifications/smtp/';
const CHAT = '/api/console/notifications/chat/';
const LOG = '/api/console/notifications/deliveries/';
const SUB_ORGS = '/api/external/sub_orgs/';

const stored: SmtpSettings = {
  configured: true,
  host: 'smtp.example.com',
  port: 587,
  security: 'STARTTLS',
  username: 'console',
  passwordSet: true,
  fromAddress: 'console@example.com',
  enabled: true,
  updatedAt: '2026-11-01T10:00:00.000Z',
};

const team: ChatTarget = {
  id: 'chat_1',
  subOrgId: 'so_a',
  urlOrigin: 'https://hooks.slack.com',
  format: 'SLACK',
  description: 'Treasury desk',
  createdAt: '2026-11-01T10:00:00.000Z',
};

const delivery = (over: Partial<NotificationDelivery>): NotificationDelivery => ({
  id: '1',
  channel: 'EMAIL',
  recipient: 'ada@example.com',
  event: 'NEEDS_APPROVAL',
  subject: 'Transaction tx_1 needs your approval',
  link: 'https://console.example.com/transactions/tx_1',
  status: 'SENT',
  attempts: 1,
  lastError: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  sentAt: '2026-11-01T10:00:01.000Z',
  nextAttemptAt: null,
  ...over,
});

type Sent = { method: string; path: string; body: unknown };

let smtpReads = 0;

function fake(routes: Parameters<typeof installFakeApi>[0] = {}) {
  const sent: Sent[] = [];
  smtpReads = 0;
  const record = (url: URL, init: RequestInit) =>
    sent.push({
      method: init.method ?? 'GET',
      path: url.pathname,
      body: init.body ? (JSON.parse(String(init.body)) as unknown) : undefined,
    });
  installFakeApi({
    [SUB_ORGS]: () => json({ results: [{ id: 'so_a', name: 'Desk A' }], hasNext: false }),
    [SMTP]: (url, init) => {
      if (init.method === 'PUT') {
        record(url, init);
        return json({ ...stored, updatedAt: '2026-11-02T10:00:00.000Z' });
      }
      smtpReads += 1;
      return json(smtpReads > 1 ? { ...stored, updatedAt: '2026-11-02T10:00:00.000Z' } : stored);
    },
    [CHAT]: (url, init) => {
      if (init.method === 'POST') {
        record(url, init);
        return json({ ...team, id: 'chat_2', subOrgId: null, description: '' }, 201);
      }
      return json({ results: [team] });
    },
    [`${CHAT}chat_1/`]: (url, init) => {
      record(url, init);
      return json(team);
    },
    [LOG]: () =>
      json({
        results: [
          delivery({}),
          delivery({
            id: '2',
            recipient: 'bo@example.com',
            status: 'FAILED',
            attempts: 8,
            lastError: '451 try again later',
            sentAt: null,
          }),
        ],
        counts: { pending: 0, sent: 1, failed: 1 },
      }),
    [`${LOG}2/retry/`]: (url, init) => {
      record(url, init);
      return json(delivery({ id: '2', status: 'PENDING', attempts: 0, sentAt: null }));
    },
    ...routes,
  });
  return sent;
}

describe('Settings → Notifications', () => {
  it('labels every SMTP field and never shows the stored password; a password typed is sent once, then cleared', async () => {
    const sent = fake();
    const user = userEvent.setup();
    renderWithQuery(<NotificationsPage />);
    expect(await screen.findByLabelText('Host')).toHaveValue('smtp.example.com');
    expect(screen.getByLabelText('Port')).toHaveValue('587');
    expect(screen.getByLabelText('Connection security')).toBeInTheDocument();
    expect(screen.getByLabelText('User name (optional)')).toHaveValue('console');
    expect(screen.getByLabelText('From address')).toHaveValue('console@example.com');
    expect(screen.getByLabelText('Send notifications by email')).toBeChecked();
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toHaveValue('');
    expect(password).toHaveAccessibleDescription(
      'A password is stored (never shown). Leave empty to keep it.',
    );

    await user.clear(screen.getByLabelText('Host'));
    await user.type(screen.getByLabelText('Host'), 'mail.example.com');
    await user.type(password, 'a new secret');
    await user.click(screen.getByRole('button', { name: 'Save SMTP settings' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      method: 'PUT',
      path: SMTP,
      body: {
        host: 'mail.example.com',
        port: 587,
        security: 'STARTTLS',
        username: 'console',
        password: 'a new secret',
        fromAddress: 'console@example.com',
        enabled: true,
      },
    });
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveValue(''));
    // Read back after the save, the form still says it was saved, and holds no password.
    await waitFor(() => expect(smtpReads).toBe(2));
    expect(screen.getByRole('status')).toHaveTextContent('Saved.');
    expect(screen.getByLabelText('Host')).toHaveValue('mail.example.com');

    // Saved again with the field left empty: no password is sent, so the stored one stays.
    await user.click(screen.getByRole('button', { name: 'Save SMTP settings' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]?.body).not.toHaveProperty('password');
  });

  it('says a first configuration was saved, after the settings are read back', async () => {
    let configured = false;
    const fresh: SmtpSettings = {
      ...stored,
      configured: false,
      host: '',
      username: null,
      passwordSet: false,
      fromAddress: '',
      updatedAt: null,
    };
    fake({
      [SMTP]: (_url, init) => {
        if (init.method === 'PUT') configured = true;
        return json(configured ? stored : fresh);
      },
    });
    const user = userEvent.setup();
    renderWithQuery(<NotificationsPage />);
    await user.type(await screen.findByLabelText('Host'), 'smtp.example.com');
    await user.type(screen.getByLabelText('From address'), 'console@example.com');
    await user.click(screen.getByRole('button', { name: 'Save SMTP settings' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
        'A password is stored (never shown). Leave empty to keep it.',
      ),
    );
    expect(screen.getByRole('status')).toHaveTextContent('Saved.');
  });

  it("names a bad port before asking the server, and the server's refusals at their fields, keeping what was typed", async () => {
    const sent = fake({
      [SMTP]: (url, init) => {
        if (init.method !== 'PUT') return json(stored);
        sent.push({ method: 'PUT', path: url.pathname, body: JSON.parse(String(init.body)) });
        return json(
          {
            message: 'Invalid request',
            code: 'VALIDATION_ERROR',
            fields: [
              { field: 'host', message: 'host is required' },
              {
                field: 'fromAddress',
                message: 'fromAddress must be an email address, like console@example.com',
              },
            ],
          },
          400,
        );
      },
    });
    const user = userEvent.setup();
    renderWithQuery(<NotificationsPage />);
    const port = await screen.findByLabelText('Port');
    await user.clear(port);
    await user.type(port, '70x');
    await user.click(screen.getByRole('button', { name: 'Save SMTP settings' }));
    expect(port).toHaveAccessibleDescription('port must be a whole number from 1 to 65535');
    expect(screen.getByRole('alert')).toHaveTextContent('port must be a whole number');
    expect(sent).toEqual([]);

    await user.clear(port);
    await user.type(port, '25');
    await user.clear(screen.getByLabelText('Host'));
    await user.clear(screen.getByLabelText('From address'));
    await user.type(screen.getByLabelText('From address'), 'nobody');
    await user.type(screen.getByLabelText('Password'), 'typed-secret');
    await user.click(screen.getByRole('button', { name: 'Save SMTP settings' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Host')).toHaveAccessibleDescription('host is required'),
    );
    expect(screen.getByLabelText('From address')).toHaveAccessibleDescription(
      'fromAddress must be an email address, like console@example.com',
    );
    expect(screen.getByLabelText('From address')).toHaveValue('nobody');
    expect(screen.getByLabelText('Port')).toHaveValue('25');
    expect(screen.getByLabelText('Password')).toHaveValue('typed-secret');
    expect(sent).toHaveLength(1);
  });

  it('lists team webhooks by origin only, adds one with its team and format, and removes one', async () => {
    const sent = fake();
    const user = userEvent.setup();
    renderWithQuery(<NotificationsPage />);
    const list = await screen.findByRole('list', { name: 'Chat webhooks' });
    expect(list).toHaveTextContent('Desk A');
    expect(list).toHaveTextContent('https://hooks.slack.com');
    expect(list).toHaveTextContent('Treasury desk');

    await user.type(
      screen.getByLabelText('Incoming webhook URL'),
      'https://hooks.slack.com/services/T0/B0/secret',
    );
    await user.selectOptions(screen.getByLabelText('Format'), 'TEAMS');
    await user.click(screen.getByRole('button', { name: 'Add webhook' }));
    await waitFor(() =>
      expect(sent).toContainEqual({
        method: 'POST',
        path: CHAT,
        body: {
          subOrgId: null,
          url: 'https://hooks.slack.com/services/T0/B0/secret',
          format: 'TEAMS',
        },
      }),
    );
    await waitFor(() => expect(screen.getByLabelText('Incoming webhook URL')).toHaveValue(''));

    await user.click(within(list).getByRole('button', { name: 'Remove the webhook of Desk A' }));
    await waitFor(() =>
      expect(sent).toContainEqual({ method: 'DELETE', path: `${CHAT}chat_1/`, body: undefined }),
    );
  });

  it('puts a refused webhook URL at its field, keeping it', async () => {
    fake({
      [CHAT]: (_url, init) =>
        init.method === 'POST'
          ? json(
              {
                message: 'Invalid request',
                code: 'VALIDATION_ERROR',
                fields: [{ field: 'url', message: 'url must not point at a private address' }],
              },
              400,
            )
          : json({ results: [] }),
    });
    const user = userEvent.setup();
    renderWithQuery(<NotificationsPage />);
    await screen.findByText('No team chat webhook yet.');
    const url = screen.getByLabelText('Incoming webhook URL');
    await user.type(url, 'http://10.0.0.1/hook');
    await user.click(screen.getByRole('button', { name: 'Add webhook' }));
    await waitFor(() =>
      expect(url).toHaveAccessibleDescription('url must not point at a private address'),
    );
    expect(url).toHaveValue('http://10.0.0.1/hook');
  });

  it('shows the delivery log with each message linked, and retries one not sent', async () => {
    const sent = fake();
    const user = userEvent.setup();
    renderWithQuery(<NotificationsPage />);
    const table = await screen.findByRole('region', { name: 'Notifications sent' });
    expect(screen.getByText('1 sent, 0 waiting or retrying, 1 failed.')).toBeInTheDocument();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('ada@example.com');
    expect(rows[0]).toHaveTextContent('Sent');
    expect(
      within(rows[0] as HTMLElement).getByRole('link', {
        name: 'Transaction tx_1 needs your approval',
      }),
    ).toHaveAttribute('href', 'https://console.example.com/transactions/tx_1');
    expect(within(rows[0] as HTMLElement).queryByRole('button')).not.toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Failed');
    expect(rows[1]).toHaveTextContent('451 try again later');

    await user.click(
      within(rows[1] as HTMLElement).getByRole('button', {
        name: 'Retry Transaction tx_1 needs your approval to bo@example.com',
      }),
    );
    await waitFor(() =>
      expect(sent).toContainEqual({ method: 'POST', path: `${LOG}2/retry/`, body: undefined }),
    );
  });
});
