import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import {
  SIGNATURE_ENCODING_HINT,
  SIGNATURE_ENCODING_LABELS,
  SIGNATURE_ENCODINGS,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointCreated,
} from '#contract/webhooks.ts';
import { CopyButton } from '../../../components/copy-button.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { FormActions, FormCard, SubmitButton } from '../../../components/form-card.tsx';
import { SelectFieldFor, TextField } from '../../../components/bound-fields.tsx';
import { Panel } from '../../../components/panel.tsx';
import { EmptyState, ErrorState } from '../../../components/query-state.tsx';
import { FieldError } from '../../../components/ui/field.tsx';
import { Button } from '../../../components/ui/button.tsx';
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
import { describeTransaction } from '../../../lib/transaction-summary.ts';
import {
  useCreateWebhookEndpoint,
  useDeleteWebhookEndpoint,
  useResendFailedWebhookDeliveries,
  useResendWebhookDelivery,
  useSendWebhookTestEvent,
  useSetWebhookEndpointEnabled,
  webhookQueries,
} from '../api/webhook-queries.ts';
import { Choice } from '../../../components/ui/input.tsx';

/**
 * Settings → Webhooks (admins of every sub-organization; the server
 * decides): the sandbox's endpoints, each one's delivery log, and resend.
 * The verification key shows once, right after registration.
 */

const FormSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, 'url is required')
    .refine((v) => /^https?:\/\/[^\s]+$/i.test(v), 'url must be an http(s) URL'),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1, 'events must name at least one event'),
  description: z.string().trim().max(200, 'description must be at most 200 characters'),
  signatureEncoding: z.enum(SIGNATURE_ENCODINGS),
});
type FormValues = z.infer<typeof FormSchema>;
const FIELDS = ['url', 'events', 'description', 'signatureEncoding'] as const;

const ENCODING_OPTIONS = SIGNATURE_ENCODINGS.map((value) => ({
  value,
  label: SIGNATURE_ENCODING_LABELS[value],
}));

function RegisterForm({ onCreated }: { onCreated: (created: WebhookEndpointCreated) => void }) {
  const id = useId();
  const fieldId = (name: string) => `${id}-${name}`;
  const form = useForm<FormValues>({
    resolver: zodResolver(FormSchema),
    defaultValues: {
      url: '',
      events: [...WEBHOOK_EVENT_TYPES],
      description: '',
      signatureEncoding: 'ASCII_ESCAPED',
    },
  });
  const create = useCreateWebhookEndpoint();
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((values) =>
    create.mutate(
      { ...values, description: values.description || null },
      {
        onSuccess: (created) => {
          form.reset();
          onCreated(created);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fields)
            for (const { field, message } of error.fields) {
              const name = FIELDS.find((f) => f === field);
              if (name) form.setError(name, { type: 'server', message }, { shouldFocus: true });
            }
        },
      },
    ),
  );
  const fieldLevel = create.error instanceof ApiError && create.error.fields?.length;
  const bound = { form, fieldId };
  return (
    <FormCard
      title="Register an endpoint"
      onSubmit={onSubmit}
      error={
        create.isError && !fieldLevel
          ? `The endpoint could not be registered: ${describeError(create.error)}`
          : null
      }
    >
      <TextField
        {...bound}
        name="url"
        label="URL"
        type="url"
        hint="Where the sandbox POSTs each event. Private and loopback addresses are refused unless the server allows them."
      />
      <fieldset
        className="flex flex-col gap-2"
        aria-describedby={errors.events ? fieldId('events-error') : undefined}
      >
        <legend className="text-sm font-medium text-slate-800">Events</legend>
        {WEBHOOK_EVENT_TYPES.map((event) => (
          <label key={event} className="flex items-center gap-2 text-sm">
            <Choice type="checkbox" className="size-4" value={event} {...form.register('events')} />
            {WEBHOOK_EVENT_LABELS[event]}
          </label>
        ))}
        <FieldError id={fieldId('events')} error={errors.events?.message} />
      </fieldset>
      <SelectFieldFor
        {...bound}
        name="signatureEncoding"
        label="How your receiver checks the signature"
        hint={SIGNATURE_ENCODING_HINT}
        options={ENCODING_OPTIONS}
      />
      <TextField {...bound} name="description" label="Description (optional)" />
      <FormActions>
        <SubmitButton pending={create.isPending} pendingLabel="Registering…">
          Register endpoint
        </SubmitButton>
      </FormActions>
    </FormCard>
  );
}

function KeyOnce({ created, onDone }: { created: WebhookEndpointCreated; onDone: () => void }) {
  return (
    <Panel title="Verification key" tone="attention">
      <p className="mt-2 text-sm text-slate-800" role="status">
        Endpoint {created.url} is registered. Copy its verification key now: it is shown only this
        once.
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code
          id="webhook-key"
          className="rounded border border-slate-300 bg-white px-2 py-1 font-mono text-sm break-all"
        >
          {created.verificationKey}
        </code>
        <CopyButton value={created.verificationKey} label="Copy the verification key" />
      </div>
      <Button className="mt-3" size="sm" onClick={onDone}>
        I have stored the key
      </Button>
    </Panel>
  );
}

type DeliveryLog = UseQueryResult<{
  results: WebhookDelivery[];
  deliveries: WebhookEndpoint['deliveries'];
}>;

/** A transaction id in short: enough to tell two apart at a glance; the link holds the whole. */
function shortId(id: string): string {
  return id.length > 14 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id;
}

function eventLabel(d: WebhookDelivery): string {
  if (d.test) return 'Test event';
  return WEBHOOK_EVENT_LABELS[d.event as keyof typeof WEBHOOK_EVENT_LABELS] ?? d.event;
}

/** What the delivery reports: its transaction, named and linked, or that it is a test. */
function DeliveryTransaction({ delivery: d }: { delivery: WebhookDelivery }) {
  if (d.test) return <span className="text-slate-700">None: a test</span>;
  if (!d.transactionId) return <span className="text-slate-700">—</span>;
  return (
    <>
      <Link
        to="/transactions/$transactionId"
        params={{ transactionId: d.transactionId }}
        className="font-medium text-blue-800 underline hover:text-blue-900"
      >
        {d.transaction ? describeTransaction(d.transaction) : 'Transaction'}
      </Link>
      <span className="block font-mono text-xs text-slate-700" title={d.transactionId}>
        {shortId(d.transactionId)}
      </span>
    </>
  );
}

function Deliveries({ endpoint, log }: { endpoint: WebhookEndpoint; log: DeliveryLog }) {
  const resend = useResendWebhookDelivery();
  const resendFailed = useResendFailedWebhookDeliveries();
  const [said, setSaid] = useState('');
  if (log.isPending) return <p className="mt-2 text-sm text-slate-700">Loading deliveries…</p>;
  if (log.isError)
    return (
      <ErrorState
        title="The delivery log could not be loaded"
        error={log.error}
        onRetry={() => void log.refetch()}
        retrying={log.isFetching}
      />
    );
  const rows = log.data.results;
  const { failed } = log.data.deliveries;
  return (
    <div className="mt-3 flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <Button
          size="sm"
          disabled={failed === 0 || resendFailed.isPending}
          onClick={() =>
            resendFailed.mutate(endpoint.id, {
              onSuccess: ({ resent }) =>
                setSaid(
                  `${resent} failed ${resent === 1 ? 'delivery' : 'deliveries'} queued again.`,
                ),
              onError: (error) => setSaid(`Not resent: ${describeError(error)}`),
            })
          }
        >
          Resend all failed ({failed})
        </Button>
        <Button size="sm" variant="ghost" onClick={() => void log.refetch()}>
          Refresh
        </Button>
        <p role="status" className="text-sm text-slate-800">
          {said}
        </p>
      </div>
      {rows.length === 0 ? (
        <EmptyState title="No deliveries yet: they appear as transactions change status, or when you send a test event." />
      ) : (
        <TableContainer label={`Deliveries to ${endpoint.url}`}>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Event</TableHead>
                <TableHead>Transaction</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Delivery</TableHead>
                <TableHead>Attempts</TableHead>
                <TableHead>Answer</TableHead>
                <TableHead>Last error</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((d) => (
                <TableRow
                  key={d.id}
                  data-delivery-state={d.state}
                  data-test-event={d.test ? '' : undefined}
                >
                  <TableCell>
                    <span className="block font-mono text-xs">{d.eventId}</span>
                    <span className="block text-xs text-slate-700">
                      {d.test ? (
                        <strong className="font-semibold">Test event</strong>
                      ) : (
                        eventLabel(d)
                      )}
                      {d.operationSequence !== null ? ` (operation ${d.operationSequence})` : ''},{' '}
                      <DateTime iso={d.createdAt} />
                    </span>
                  </TableCell>
                  <TableCell className="max-w-72 text-sm">
                    <DeliveryTransaction delivery={d} />
                  </TableCell>
                  <TableCell>{d.test ? '—' : d.status}</TableCell>
                  <TableCell>
                    {d.state === 'DELIVERED'
                      ? 'Delivered'
                      : d.state === 'FAILED'
                        ? 'Failed'
                        : 'Pending'}
                    {d.state === 'PENDING' && d.nextAttemptAt ? (
                      <span className="block text-xs text-slate-700">
                        next <DateTime iso={d.nextAttemptAt} />
                      </span>
                    ) : null}
                  </TableCell>
                  <TableCell>{d.attempts}</TableCell>
                  <TableCell>
                    {d.lastStatusCode ?? '—'}
                    {d.lastLatencyMs !== null ? (
                      <span className="block text-xs text-slate-700">{d.lastLatencyMs} ms</span>
                    ) : null}
                  </TableCell>
                  <TableCell className="max-w-64 text-xs break-words">
                    {d.lastError ?? ''}
                  </TableCell>
                  <TableCell>
                    <Button
                      size="sm"
                      disabled={(d.state === 'PENDING' && d.lastError === null) || resend.isPending}
                      aria-label={`Resend event ${d.eventId}`}
                      onClick={() =>
                        resend.mutate(
                          { endpointId: endpoint.id, deliveryId: d.id },
                          {
                            onSuccess: () => setSaid(`Event ${d.eventId} queued again.`),
                            onError: (error) => setSaid(`Not resent: ${describeError(error)}`),
                          },
                        )
                      }
                    >
                      Resend
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </div>
  );
}

/** A test event's result in a sentence: its answer and when, or why it did not arrive. */
function TestResult({ delivery }: { delivery: WebhookDelivery }) {
  const at = delivery.lastAttemptAt ?? delivery.createdAt;
  if (delivery.state === 'DELIVERED')
    return (
      <>
        Test event delivered: answered {delivery.lastStatusCode}
        {delivery.lastLatencyMs !== null ? ` in ${delivery.lastLatencyMs} ms` : ''}, sent{' '}
        <DateTime iso={at} />.
      </>
    );
  return (
    <>
      Test event not delivered ({delivery.lastError ?? 'no answer'}), sent <DateTime iso={at} />. It
      is not retried.
    </>
  );
}

function EndpointCard({ endpoint }: { endpoint: WebhookEndpoint }) {
  const toggle = useSetWebhookEndpointEnabled();
  const remove = useDeleteWebhookEndpoint();
  const sendTest = useSendWebhookTestEvent();
  const [confirming, setConfirming] = useState(false);
  const [open, setOpen] = useState(false);
  const [tested, setTested] = useState<WebhookDelivery | null>(null);
  const log = useQuery({ ...webhookQueries.deliveries(endpoint.id), enabled: open });
  const queryClient = useQueryClient();
  // While the log is shown, the counters are its own, read with its rows: never a step
  // behind the table. The endpoints' list takes them too, for when the log is hidden again.
  const counts = open && log.data ? log.data.deliveries : endpoint.deliveries;
  const logCounts = log.data?.deliveries;
  useEffect(() => {
    if (!logCounts) return;
    queryClient.setQueryData(
      webhookQueries.endpoints().queryKey,
      (old: { results: WebhookEndpoint[] } | undefined) =>
        old && {
          ...old,
          results: old.results.map((e) =>
            e.id === endpoint.id ? { ...e, deliveries: logCounts } : e,
          ),
        },
    );
  }, [logCounts, endpoint.id, queryClient]);
  const error = toggle.error ?? remove.error;
  return (
    <li className="rounded-lg border border-slate-300 bg-white p-4">
      <h3 className="font-mono text-sm break-all text-slate-900">{endpoint.url}</h3>
      {endpoint.description ? (
        <p className="text-sm text-slate-800">{endpoint.description}</p>
      ) : null}
      <p className="mt-1 text-sm text-slate-700">
        {endpoint.enabled ? 'On' : 'Off'} ·{' '}
        {endpoint.events
          .map((e) => WEBHOOK_EVENT_LABELS[e as keyof typeof WEBHOOK_EVENT_LABELS] ?? e)
          .join(', ')}{' '}
        ·{' '}
        {SIGNATURE_ENCODING_LABELS[
          endpoint.signatureEncoding as keyof typeof SIGNATURE_ENCODING_LABELS
        ] ?? endpoint.signatureEncoding}
      </p>
      <p className="text-sm text-slate-700" data-testid="delivery-counts">
        {counts.delivered} delivered, {counts.pending} pending, {counts.failed} failed
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button size="sm" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? 'Hide deliveries' : 'Show deliveries'}
        </Button>
        <Button
          size="sm"
          disabled={sendTest.isPending}
          onClick={() =>
            sendTest.mutate(endpoint.id, {
              onSuccess: (delivery) => {
                setTested(delivery);
                setOpen(true);
              },
              onError: () => setTested(null),
            })
          }
        >
          {sendTest.isPending ? 'Sending a test event…' : 'Send a test event'}
        </Button>
        <Button
          size="sm"
          disabled={toggle.isPending}
          onClick={() => toggle.mutate({ endpointId: endpoint.id, enabled: !endpoint.enabled })}
        >
          {endpoint.enabled ? 'Turn off' : 'Turn on'}
        </Button>
        {confirming ? (
          <>
            <Button
              size="sm"
              variant="destructive"
              disabled={remove.isPending}
              onClick={() => remove.mutate(endpoint.id)}
            >
              Delete it and its log
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
              Keep it
            </Button>
          </>
        ) : (
          <Button size="sm" variant="ghost" onClick={() => setConfirming(true)}>
            Delete…
          </Button>
        )}
      </div>
      <p role="status" className="mt-2 text-sm text-slate-800" data-testid="test-event-result">
        {tested ? <TestResult delivery={tested} /> : null}
      </p>
      {sendTest.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-800">
          The test event could not be sent: {describeError(sendTest.error)}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-800">
          {describeError(error)}
        </p>
      ) : null}
      {open ? <Deliveries endpoint={endpoint} log={log} /> : null}
    </li>
  );
}

export function WebhooksPage() {
  const endpoints = useQuery(webhookQueries.endpoints());
  const [created, setCreated] = useState<WebhookEndpointCreated | null>(null);
  return (
    <div id="webhooks-page" className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Webhooks</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-700">
          The sandbox POSTs every status change of a transaction and of its operations to these
          endpoints, as the custody provider does: signed with <code>X-Signature</code> (HMAC-SHA256
          of the body and <code>X-Timestamp</code>), retried with growing back-off for a day, each
          with an <code>eventId</code> to ignore repeats.
        </p>
      </div>
      {created ? <KeyOnce created={created} onDone={() => setCreated(null)} /> : null}
      <RegisterForm onCreated={setCreated} />
      <section aria-labelledby="webhook-endpoints-title" className="flex flex-col gap-3">
        <h2 id="webhook-endpoints-title" className="text-lg font-semibold text-slate-900">
          Endpoints
        </h2>
        {endpoints.isPending ? (
          <p className="text-sm text-slate-700">Loading endpoints…</p>
        ) : endpoints.isError ? (
          <ErrorState
            title="The endpoints could not be loaded"
            error={endpoints.error}
            onRetry={() => void endpoints.refetch()}
            retrying={endpoints.isFetching}
          />
        ) : endpoints.data.results.length === 0 ? (
          <EmptyState title="No endpoint is registered yet." />
        ) : (
          <ul className="flex flex-col gap-3">
            {endpoints.data.results.map((endpoint) => (
              <EndpointCard key={endpoint.id} endpoint={endpoint} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
