import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import {
  CHAT_FORMAT_LABELS,
  CHAT_FORMATS,
  NOTIFICATION_EVENT_LABELS,
  SMTP_SECURITY,
  SMTP_SECURITY_LABELS,
  type ChatFormat,
  type SmtpSecurity,
  type SmtpSettings,
} from '#contract/notifications.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { FormActions, FormCard, SubmitButton } from '../../../components/form-card.tsx';
import { Panel } from '../../../components/panel.tsx';
import { EmptyState, ErrorState } from '../../../components/query-state.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Field, describedBy } from '../../../components/ui/field.tsx';
import { Choice, Input } from '../../../components/ui/input.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { ApiError, describeError } from '../../../lib/api-errors.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import {
  notificationQueries,
  useAddChatTarget,
  useRemoveChatTarget,
  useRetryDelivery,
  useSaveSmtp,
  useSendTestEmail,
} from '../api/notification-queries.ts';

/**
 * Settings → Notifications (admins of every sub-organization; the server
 * decides): the SMTP server notifications are emailed through (its password
 * is kept on the server: the page only says whether one is set), a test
 * email, each team's chat webhook, and the delivery log with retry.
 */

/** A field's refusal from the server, by name. */
function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !error.fields) return {};
  return Object.fromEntries(error.fields.map((f) => [f.field, f.message]));
}

function TextInput({
  id,
  label,
  hint,
  error,
  ...input
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string | undefined;
} & Omit<React.ComponentProps<'input'>, 'id'>) {
  return (
    <Field id={id} label={label} {...(hint ? { hint } : {})} error={error}>
      <Input
        id={id}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { hint, error })}
        {...input}
      />
    </Field>
  );
}

function SmtpForm({ settings }: { settings: SmtpSettings }) {
  const id = useId();
  const [host, setHost] = useState(settings.host);
  const [port, setPort] = useState(String(settings.port));
  const [security, setSecurity] = useState<SmtpSecurity>(settings.security);
  const [username, setUsername] = useState(settings.username ?? '');
  const [password, setPassword] = useState('');
  const [fromAddress, setFromAddress] = useState(settings.fromAddress);
  const [enabled, setEnabled] = useState(settings.configured ? settings.enabled : true);
  const save = useSaveSmtp();
  const errors = fieldErrors(save.error);
  const portError = /^\d{1,5}$/.test(port.trim())
    ? undefined
    : 'port must be a whole number from 1 to 65535';
  const [shown, setShown] = useState(false);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (portError) return;
    save.mutate(
      {
        host,
        // eslint-disable-next-line no-restricted-syntax -- a TCP port, checked as digits above
        port: Number.parseInt(port, 10),
        security,
        username: username || null,
        // Left empty: the stored password stays.
        ...(password ? { password } : {}),
        fromAddress,
        enabled,
      },
      // The password typed is kept by the server now: not held in the page.
      { onSuccess: () => setPassword('') },
    );
  };
  const fieldLevel = Object.keys(errors).length > 0;
  return (
    <FormCard
      title="Email (SMTP server)"
      onSubmit={onSubmit}
      error={save.isError && !fieldLevel ? `Not saved: ${describeError(save.error)}` : null}
    >
      <TextInput
        id={`${id}-host`}
        label="Host"
        value={host}
        onChange={(e) => setHost(e.target.value)}
        error={errors.host}
      />
      <TextInput
        id={`${id}-port`}
        label="Port"
        inputMode="numeric"
        value={port}
        onChange={(e) => setPort(e.target.value)}
        error={errors.port ?? (shown ? portError : undefined)}
      />
      <SelectField
        id={`${id}-security`}
        label="Connection security"
        options={SMTP_SECURITY.map((value) => ({ value, label: SMTP_SECURITY_LABELS[value] }))}
        value={security}
        onChange={(e) => setSecurity(e.target.value as SmtpSecurity)}
        error={errors.security}
      />
      <TextInput
        id={`${id}-username`}
        label="User name (optional)"
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        error={errors.username}
      />
      <TextInput
        id={`${id}-password`}
        label="Password"
        type="password"
        autoComplete="new-password"
        hint={
          settings.passwordSet
            ? 'A password is stored (never shown). Leave empty to keep it.'
            : 'Kept on the server, never shown again.'
        }
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={errors.password}
      />
      <TextInput
        id={`${id}-from`}
        label="From address"
        type="email"
        value={fromAddress}
        onChange={(e) => setFromAddress(e.target.value)}
        error={errors.fromAddress}
      />
      <label className="flex items-center gap-2 text-sm">
        <Choice
          type="checkbox"
          className="size-4"
          checked={enabled}
          onChange={(e) => setEnabled(e.target.checked)}
        />
        Send notifications by email
      </label>
      {save.isSuccess ? (
        <p role="status" className="text-sm text-green-800">
          Saved.
        </p>
      ) : null}
      <FormActions>
        <SubmitButton pending={save.isPending} pendingLabel="Saving…">
          Save SMTP settings
        </SubmitButton>
      </FormActions>
    </FormCard>
  );
}

function TestEmail() {
  const id = useId();
  const [to, setTo] = useState('');
  const send = useSendTestEmail();
  const errors = fieldErrors(send.error);
  return (
    <FormCard
      title="Send a test email"
      onSubmit={(event) => {
        event.preventDefault();
        send.mutate(to);
      }}
      error={send.isError && !errors.to ? `Not sent: ${describeError(send.error)}` : null}
    >
      <TextInput
        id={`${id}-to`}
        label="To"
        type="email"
        value={to}
        onChange={(e) => setTo(e.target.value)}
        error={errors.to}
      />
      {send.data ? (
        <p
          role="status"
          className={send.data.sent ? 'text-sm text-green-800' : 'text-sm text-red-800'}
        >
          {send.data.sent ? 'Sent: ' : 'Not sent: '}
          {send.data.detail}
        </p>
      ) : null}
      <FormActions>
        <SubmitButton pending={send.isPending} pendingLabel="Sending…">
          Send test email
        </SubmitButton>
      </FormActions>
    </FormCard>
  );
}

function ChatTargets() {
  const id = useId();
  const targets = useQuery(notificationQueries.chat());
  const subOrgs = useQuery(referenceQueries.subOrgs());
  const add = useAddChatTarget();
  const remove = useRemoveChatTarget();
  const [url, setUrl] = useState('');
  const [team, setTeam] = useState('');
  const [format, setFormat] = useState<ChatFormat>('SLACK');
  const [description, setDescription] = useState('');
  const errors = fieldErrors(add.error);
  const nameOf = (subOrgId: string | null) =>
    subOrgId === null
      ? 'Whole organization'
      : (subOrgs.data?.results.find((s) => s.id === subOrgId)?.name ?? subOrgId);
  return (
    <Panel title="Team chat">
      <p className="mt-1 text-sm text-slate-700">
        A Slack- or Teams-compatible incoming webhook per team: each message about the team&apos;s
        items is posted there with a link to the item.
      </p>
      {targets.isError ? (
        <ErrorState
          title="The chat webhooks could not be read"
          error={targets.error}
          onRetry={() => void targets.refetch()}
        />
      ) : targets.data && targets.data.results.length > 0 ? (
        <ul className="mt-2 flex flex-col gap-2" aria-label="Chat webhooks">
          {targets.data.results.map((t) => (
            <li key={t.id} className="flex flex-wrap items-center gap-2 text-sm">
              <span className="font-medium">{nameOf(t.subOrgId)}</span>
              <span>{t.urlOrigin}</span>
              <span>({t.format === 'SLACK' ? 'Slack' : 'Teams'})</span>
              {t.description ? <span>{t.description}</span> : null}
              <Button size="sm" variant="secondary" onClick={() => remove.mutate(t.id)}>
                Remove the webhook of {nameOf(t.subOrgId)}
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-slate-700">No team chat webhook yet.</p>
      )}
      <FormCard
        title="Add a team chat webhook"
        className="mt-3"
        onSubmit={(event) => {
          event.preventDefault();
          add.mutate(
            { subOrgId: team || null, url, format, ...(description ? { description } : {}) },
            {
              onSuccess: () => {
                setUrl('');
                setDescription('');
              },
            },
          );
        }}
        error={
          add.isError && Object.keys(errors).length === 0
            ? `Not added: ${describeError(add.error)}`
            : null
        }
      >
        <SelectField
          id={`${id}-team`}
          label="Team"
          options={[
            { value: '', label: 'Whole organization' },
            ...(subOrgs.data?.results ?? []).flatMap((s) =>
              s.id ? [{ value: s.id, label: s.name ?? s.id }] : [],
            ),
          ]}
          value={team}
          onChange={(e) => setTeam(e.target.value)}
          error={errors.subOrgId}
        />
        <TextInput
          id={`${id}-url`}
          label="Incoming webhook URL"
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          error={errors.url}
        />
        <SelectField
          id={`${id}-format`}
          label="Format"
          options={CHAT_FORMATS.map((value) => ({ value, label: CHAT_FORMAT_LABELS[value] }))}
          value={format}
          onChange={(e) => setFormat(e.target.value as ChatFormat)}
          error={errors.format}
        />
        <TextInput
          id={`${id}-description`}
          label="Description (optional)"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          error={errors.description}
        />
        <FormActions>
          <SubmitButton pending={add.isPending} pendingLabel="Adding…">
            Add webhook
          </SubmitButton>
        </FormActions>
      </FormCard>
    </Panel>
  );
}

function DeliveryLog() {
  const log = useQuery(notificationQueries.deliveries());
  const retry = useRetryDelivery();
  if (log.isError)
    return (
      <ErrorState
        title="The delivery log could not be read"
        error={log.error}
        onRetry={() => void log.refetch()}
      />
    );
  if (!log.data) return <p className="text-sm text-slate-700">Loading the delivery log…</p>;
  const { counts, results } = log.data;
  return (
    <Panel title="Delivery log">
      <p className="mt-1 text-sm text-slate-800">
        {counts.sent} sent, {counts.pending} waiting or retrying, {counts.failed} failed.
      </p>
      {results.length === 0 ? (
        <EmptyState title="No notification sent yet" />
      ) : (
        <TableContainer label="Notifications sent">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>When</TableHead>
                <TableHead>Channel</TableHead>
                <TableHead>Recipient</TableHead>
                <TableHead>Event</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Attempts</TableHead>
                <TableHead>Last error</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {results.map((d) => (
                <TableRow key={d.id}>
                  <TableCell>
                    <DateTime iso={d.createdAt} />
                  </TableCell>
                  <TableCell>{d.channel === 'EMAIL' ? 'Email' : 'Team chat'}</TableCell>
                  <TableCell className="break-all">{d.recipient}</TableCell>
                  <TableCell>
                    <a className="text-blue-800 underline" href={d.link}>
                      {d.subject}
                    </a>
                    <span className="sr-only"> ({NOTIFICATION_EVENT_LABELS[d.event]})</span>
                  </TableCell>
                  <TableCell>
                    {d.status === 'SENT' ? 'Sent' : d.status === 'FAILED' ? 'Failed' : 'Waiting'}
                  </TableCell>
                  <TableCell>{d.attempts}</TableCell>
                  <TableCell className="break-all">{d.lastError ?? '—'}</TableCell>
                  <TableCell>
                    {d.status === 'SENT' ? null : (
                      <Button size="sm" variant="secondary" onClick={() => retry.mutate(d.id)}>
                        Retry {d.subject} to {d.recipient}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Panel>
  );
}

export function NotificationsPage() {
  const smtp = useQuery(notificationQueries.smtp());
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold text-slate-900">Notifications</h1>
      <p className="text-sm text-slate-800">
        Members are told by email when an item needs their approval, when what they proposed is
        approved, declined or failed, and when a policy or an admin changes; each message links to
        the item in the console, where they sign in to decide.
      </p>
      {smtp.isError ? (
        <ErrorState
          title="The SMTP settings could not be read"
          error={smtp.error}
          onRetry={() => void smtp.refetch()}
        />
      ) : smtp.data ? (
        // Made once: made again when the settings are read back after a save (keyed on their
        // time), it dropped its "Saved." at once.
        <SmtpForm settings={smtp.data} />
      ) : null}
      <TestEmail />
      <ChatTargets />
      <DeliveryLog />
    </div>
  );
}
