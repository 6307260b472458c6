import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import {
  API_USER_SCOPE_LABELS,
  API_USER_SCOPES,
  CreateApiUser,
  SetApiUserNetworks,
  type ApiUserInfo,
  type ApiUserKeyIssued,
} from '#contract/api-users.ts';
import { ActionDialog, ConfirmActions, MutationError } from '../../../components/action-dialog.tsx';
import { SelectFieldFor, TextField } from '../../../components/bound-fields.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { FormActions, FormCard, SubmitButton } from '../../../components/form-card.tsx';
import { ErrorState } from '../../../components/query-state.tsx';
import { Button } from '../../../components/ui/button.tsx';
import {
  Dialog,
  DialogActions,
  DialogClose,
  DialogContent,
} from '../../../components/ui/dialog.tsx';
import { Choice } from '../../../components/ui/input.tsx';
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
  apiKeyQueries,
  useCreateApiUser,
  useRevokeApiUser,
  useRotateApiUserKey,
  useSetApiUserNetworks,
} from '../api/api-key-queries.ts';

/**
 * Settings → API keys (admins; the server holds an admin of some
 * sub-organizations to API users within them): the API users, a form to make
 * one, its networks changed in place, and rotate and revoke. A new private key is shown once, in a dialog,
 * and kept nowhere in the page once it closes.
 */

/** The form's values as typed; the request is built from them and checked by the contract's schema. */
const FormSchema = z
  .object({
    name: z.string(),
    scope: z.enum(API_USER_SCOPES),
    subOrgIds: z.array(z.string()),
    /** One network a line. */
    cidrs: z.string(),
    /** A datetime-local value, in this browser's time zone; empty for none. */
    expiresAt: z.string(),
  })
  .superRefine((values, ctx) => {
    const body = toRequest(values);
    if (body.expiresAt === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['expiresAt'],
        message: 'expiresAt is not a date and time',
      });
    const parsed = CreateApiUser.safeParse(body);
    if (parsed.success) return;
    for (const issue of parsed.error.issues) {
      const [first, index] = issue.path;
      const field = formField(String(first));
      const message = field === 'cidrs' ? atLine(issue.message, index) : issue.message;
      ctx.addIssue({ code: 'custom', path: [field], message });
    }
  });
type FormValues = z.infer<typeof FormSchema>;

function formField(requestField: string): keyof FormValues {
  if (requestField === 'allowedCidrs') return 'cidrs';
  if (requestField === 'subOrgIds' || requestField === 'scope' || requestField === 'expiresAt')
    return requestField;
  return 'name';
}

/** The networks typed one a line; none is null, requests from anywhere. */
function networkLines(text: string): string[] | null {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return lines.length > 0 ? lines : null;
}

/**
 * A network's problem as the field shows it: at the line it is on, counted
 * from 1, when the schema's or the server's path names one (`allowedCidrs.1`).
 */
function atLine(message: string, index: unknown): string {
  if (typeof index !== 'number' && typeof index !== 'string') return message;
  // eslint-disable-next-line no-restricted-syntax -- a line number, not an amount
  return `line ${Number(index) + 1}: ${message}`;
}

/** What the form asks the server for; `expiresAt` undefined when it is not a date. */
function toRequest(values: FormValues): Omit<CreateApiUser, 'expiresAt'> & {
  expiresAt: string | null | undefined;
} {
  const at = values.expiresAt.trim() ? new Date(values.expiresAt) : null;
  return {
    name: values.name,
    scope: values.scope,
    subOrgIds: values.subOrgIds.length > 0 ? values.subOrgIds : null,
    allowedCidrs: networkLines(values.cidrs),
    expiresAt: at === null ? null : Number.isNaN(at.getTime()) ? undefined : at.toISOString(),
  };
}

const NETWORKS_HINT =
  'One a line, e.g. 203.0.113.0/24 or 2001:db8::/32. Empty: requests from anywhere. Requests from elsewhere are refused and recorded in the audit log.';

/** The networks dialog's one field, checked by the contract's schema line by line. */
const NetworksSchema = z.object({ cidrs: z.string() }).superRefine((values, ctx) => {
  const parsed = SetApiUserNetworks.safeParse({ allowedCidrs: networkLines(values.cidrs) });
  if (parsed.success) return;
  for (const issue of parsed.error.issues)
    ctx.addIssue({
      code: 'custom',
      path: ['cidrs'],
      message: atLine(issue.message, issue.path[1]),
    });
});
type NetworksValues = z.infer<typeof NetworksSchema>;

const SCOPE_OPTIONS = API_USER_SCOPES.map((scope) => ({
  value: scope,
  label: API_USER_SCOPE_LABELS[scope],
}));

const SCOPE_HINT =
  'Read only: reads. Create: also makes transactions, contacts and bank accounts. Create and approve: everything, decisions and vault signing too.';

function CreateForm({ onIssued }: { onIssued: (issued: ApiUserKeyIssued) => void }) {
  const id = useId();
  const fieldId = (name: string) => `${id}-${name}`;
  const subOrgs = useQuery(referenceQueries.subOrgs());
  const form = useForm<FormValues>({
    resolver: zodResolver(FormSchema),
    defaultValues: { name: '', scope: 'read_only', subOrgIds: [], cidrs: '', expiresAt: '' },
  });
  const create = useCreateApiUser();
  const onSubmit = form.handleSubmit((values) => {
    const body = toRequest(values);
    if (body.expiresAt === undefined) return;
    create.mutate(
      { ...body, expiresAt: body.expiresAt },
      {
        onSuccess: (issued) => {
          form.reset();
          onIssued(issued);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fields)
            for (const { field, message } of error.fields) {
              const [first = '', index] = field.split('.');
              const name = formField(first);
              form.setError(
                name,
                { type: 'server', message: name === 'cidrs' ? atLine(message, index) : message },
                { shouldFocus: true },
              );
            }
        },
      },
    );
  });
  const fieldLevel = create.error instanceof ApiError && create.error.fields?.length;
  const bound = { form, fieldId };
  const subOrgError = form.formState.errors.subOrgIds?.message;
  return (
    <FormCard
      title="New API key"
      onSubmit={onSubmit}
      error={
        create.isError && !fieldLevel
          ? `The API key could not be made: ${describeError(create.error)}`
          : null
      }
    >
      <TextField {...bound} name="name" label="Name" hint='What it is for, e.g. "treasury bot".' />
      <SelectFieldFor
        {...bound}
        name="scope"
        label="Scope"
        options={SCOPE_OPTIONS}
        hint={SCOPE_HINT}
      />
      <fieldset
        className="flex flex-col gap-1"
        aria-describedby={`${fieldId('subOrgIds')}-hint${subOrgError ? ` ${fieldId('subOrgIds')}-error` : ''}`}
      >
        <legend className="text-sm font-medium text-slate-800">Sub-organizations</legend>
        <p id={`${fieldId('subOrgIds')}-hint`} className="text-sm text-slate-700">
          None ticked: the whole organization (an admin of some sub-organizations must tick theirs).
        </p>
        {subOrgs.data?.results.map((subOrg) => (
          <label key={subOrg.id} className="flex items-center gap-2 text-sm text-slate-800">
            <Choice
              type="checkbox"
              className="size-4"
              value={subOrg.id}
              {...form.register('subOrgIds')}
            />
            {subOrg.name}
          </label>
        ))}
        {subOrgError ? (
          <p id={`${fieldId('subOrgIds')}-error`} role="alert" className="text-sm text-red-800">
            {subOrgError}
          </p>
        ) : null}
      </fieldset>
      <TextField {...bound} name="cidrs" label="Allowed networks" multiline hint={NETWORKS_HINT} />
      <TextField
        {...bound}
        name="expiresAt"
        label="Expires"
        type="datetime-local"
        hint="In this browser's time zone. Empty: never expires."
      />
      <FormActions>
        <SubmitButton pending={create.isPending} pendingLabel="Making the key…">
          Make the API key
        </SubmitButton>
      </FormActions>
    </FormCard>
  );
}

/** The private key, once: it is in this dialog only, and gone from the page when it closes. */
function IssuedKeyDialog({ issued, onClose }: { issued: ApiUserKeyIssued; onClose: () => void }) {
  const [kept, setKept] = useState(false);
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        title={`The key of “${issued.apiUser.name}”`}
        description={
          <strong className="font-semibold text-slate-900">
            Copy the private key now: you will not see it again. It is stored nowhere; if it is
            lost, rotate the key.
          </strong>
        }
      >
        <dl className="flex flex-col gap-3 text-sm">
          <div>
            <dt className="font-medium text-slate-800">Api-Key</dt>
            <dd className="mt-1 flex flex-wrap items-center gap-2">
              <code data-testid="issued-api-key" className="font-mono break-all">
                {issued.apiKey}
              </code>
              <CopyButton value={issued.apiKey} label="Copy the Api-Key" />
            </dd>
          </div>
          <div>
            <dt className="font-medium text-slate-800">Private key (PKCS#8 DER, hex)</dt>
            <dd className="mt-1 flex flex-wrap items-center gap-2">
              <code data-testid="issued-private-key" className="font-mono text-xs break-all">
                {issued.privateKeyHex}
              </code>
              <CopyButton value={issued.privateKeyHex} label="Copy the private key" />
            </dd>
          </div>
        </dl>
        <label className="mt-4 flex items-center gap-2 text-sm text-slate-800">
          <Choice
            type="checkbox"
            className="size-4"
            checked={kept}
            onChange={(event) => setKept(event.target.checked)}
          />
          I have kept the private key somewhere safe
        </label>
        <DialogActions>
          <DialogClose asChild>
            <Button disabled={!kept}>Done</Button>
          </DialogClose>
        </DialogActions>
      </DialogContent>
    </Dialog>
  );
}

function RotateAction({
  user,
  onIssued,
}: {
  user: ApiUserInfo;
  onIssued: (k: ApiUserKeyIssued) => void;
}) {
  const [open, setOpen] = useState(false);
  const rotate = useRotateApiUserKey();
  // An expired key gets a new key with no expiry; otherwise the expiry is kept.
  const renew = user.status === 'expired';
  return (
    <ActionDialog
      open={open}
      onOpenChange={setOpen}
      onClosed={() => rotate.reset()}
      trigger={
        <Button size="sm" variant="secondary" aria-label={`Rotate the key of ${user.name}`}>
          Rotate
        </Button>
      }
      title={`Rotate the key of “${user.name}”?`}
      description={
        renew
          ? 'It gets a new Api-Key and private key, without an expiry; the old ones are refused at once.'
          : 'It gets a new Api-Key and private key; the old ones are refused at once, so its programs stop until they use the new one.'
      }
    >
      <ConfirmActions
        mutation={rotate}
        label="Rotate the key"
        runningLabel="Rotating…"
        onConfirm={() =>
          rotate.mutate(
            { apiUserId: user.id, body: renew ? { expiresAt: null } : {} },
            {
              onSuccess: (issued) => {
                setOpen(false);
                onIssued(issued);
              },
            },
          )
        }
      />
    </ActionDialog>
  );
}

/** The networks changed in place: the key stays, so its programs go on where they now run. */
function NetworksAction({ user }: { user: ApiUserInfo }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const fieldId = (name: string) => `${id}-${name}`;
  const change = useSetApiUserNetworks();
  const current = () => ({ cidrs: (user.allowedCidrs ?? []).join('\n') });
  const form = useForm<NetworksValues>({
    resolver: zodResolver(NetworksSchema),
    defaultValues: current(),
  });
  const onSubmit = form.handleSubmit((values) =>
    change.mutate(
      { apiUserId: user.id, body: { allowedCidrs: networkLines(values.cidrs) } },
      {
        onSuccess: () => setOpen(false),
        onError: (error) => {
          if (error instanceof ApiError && error.fields)
            for (const { field, message } of error.fields)
              form.setError(
                'cidrs',
                { type: 'server', message: atLine(message, field.split('.')[1]) },
                { shouldFocus: true },
              );
        },
      },
    ),
  );
  const fieldLevel = change.error instanceof ApiError && change.error.fields?.length;
  return (
    <ActionDialog
      open={open}
      onOpenChange={(next) => {
        // Opened on the networks as they are now, not as they were when the row first showed.
        if (next) form.reset(current());
        setOpen(next);
      }}
      onClosed={() => change.reset()}
      trigger={
        <Button size="sm" variant="secondary" aria-label={`Change the networks of ${user.name}`}>
          Networks
        </Button>
      }
      title={`Allowed networks of “${user.name}”`}
      description="Its key stays the same. From its next request on, only these networks are served."
    >
      <form onSubmit={onSubmit} noValidate>
        <TextField
          form={form}
          fieldId={fieldId}
          name="cidrs"
          label="Allowed networks"
          multiline
          hint={NETWORKS_HINT}
        />
        <MutationError error={fieldLevel ? null : change.error} />
        <DialogActions>
          <DialogClose asChild>
            <Button>Cancel</Button>
          </DialogClose>
          <Button type="submit" variant="primary" disabled={change.isPending}>
            {change.isPending ? 'Saving…' : 'Save the networks'}
          </Button>
        </DialogActions>
      </form>
    </ActionDialog>
  );
}

function RevokeAction({ user }: { user: ApiUserInfo }) {
  const [open, setOpen] = useState(false);
  const revoke = useRevokeApiUser();
  return (
    <ActionDialog
      open={open}
      onOpenChange={setOpen}
      onClosed={() => revoke.reset()}
      trigger={
        <Button size="sm" variant="destructive" aria-label={`Revoke ${user.name}`}>
          Revoke
        </Button>
      }
      title={`Revoke “${user.name}”?`}
      description="Its key is refused from now on, for good. It stays listed, for the audit log."
    >
      <ConfirmActions
        mutation={revoke}
        label="Revoke"
        runningLabel="Revoking…"
        variant="destructive"
        onConfirm={() => revoke.mutate(user.id, { onSuccess: () => setOpen(false) })}
      />
    </ActionDialog>
  );
}

const STATUS_TEXT: Record<ApiUserInfo['status'], string> = {
  active: 'Active',
  expired: 'Expired',
  revoked: 'Revoked',
};

function ApiUsersTable({
  users,
  subOrgName,
  onIssued,
}: {
  users: ApiUserInfo[];
  subOrgName: (id: string) => string;
  onIssued: (issued: ApiUserKeyIssued) => void;
}) {
  if (users.length === 0) return <p className="text-sm text-slate-700">No API keys yet.</p>;
  return (
    <TableContainer label="API users">
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Name</TableHead>
            <TableHead>Scope</TableHead>
            <TableHead>Sub-organizations</TableHead>
            <TableHead>Allowed networks</TableHead>
            <TableHead>Expires</TableHead>
            <TableHead>Created</TableHead>
            <TableHead>Last used</TableHead>
            <TableHead>Status</TableHead>
            <TableHead>
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {users.map((user) => (
            <TableRow key={user.id} data-testid={`api-user-${user.id}`}>
              <TableCell className="font-medium">{user.name}</TableCell>
              <TableCell>{API_USER_SCOPE_LABELS[user.scope]}</TableCell>
              <TableCell>
                {user.subOrgIds ? user.subOrgIds.map(subOrgName).join(', ') : 'All'}
              </TableCell>
              <TableCell className="font-mono text-xs">
                {user.allowedCidrs ? user.allowedCidrs.join(', ') : 'Anywhere'}
              </TableCell>
              <TableCell>{user.expiresAt ? <DateTime iso={user.expiresAt} /> : 'Never'}</TableCell>
              <TableCell>
                <DateTime iso={user.createdAt} />
                <span className="block text-xs text-slate-700">
                  {user.createdBy ? `by ${user.createdBy.name}` : 'from the command line'}
                </span>
              </TableCell>
              <TableCell data-testid="last-used">
                {user.lastUsedAt ? <DateTime iso={user.lastUsedAt} /> : 'Never'}
              </TableCell>
              <TableCell>{STATUS_TEXT[user.status]}</TableCell>
              <TableCell>
                {user.status === 'revoked' ? null : (
                  <span className="flex flex-wrap gap-2">
                    <NetworksAction user={user} />
                    <RotateAction user={user} onIssued={onIssued} />
                    <RevokeAction user={user} />
                  </span>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

export function ApiKeysPage() {
  const users = useQuery(apiKeyQueries.list());
  const subOrgs = useQuery(referenceQueries.subOrgs());
  const [issued, setIssued] = useState<ApiUserKeyIssued | null>(null);
  const subOrgName = (id: string) => subOrgs.data?.results.find((s) => s.id === id)?.name ?? id;
  return (
    <section id="api-keys-page" aria-labelledby="api-keys-title" className="flex flex-col gap-6">
      <title>API keys · Custody Console</title>
      <h1 id="api-keys-title" className="text-2xl font-semibold text-slate-900">
        API keys
      </h1>
      <p className="text-sm text-slate-800">
        Programs call the custody API as API users, signing each request with their private key as
        the provider&apos;s SDKs do.
      </p>
      {users.isPending ? (
        <p className="text-sm text-slate-700">Loading the API keys…</p>
      ) : users.isError ? (
        <ErrorState
          title="The API keys could not be loaded"
          error={users.error}
          onRetry={() => void users.refetch()}
        />
      ) : (
        <>
          <ApiUsersTable users={users.data.results} subOrgName={subOrgName} onIssued={setIssued} />
          <CreateForm onIssued={setIssued} />
        </>
      )}
      {issued ? <IssuedKeyDialog issued={issued} onClose={() => setIssued(null)} /> : null}
    </section>
  );
}
