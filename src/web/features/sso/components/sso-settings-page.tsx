import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Link } from '@tanstack/react-router';
import type { SsoPendingChange, SsoSettings } from '#contract/sso.ts';
import { CopyButton } from '../../../components/copy-button.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { SelectFieldFor, TextField } from '../../../components/bound-fields.tsx';
import { FormActions, FormCard, SubmitButton } from '../../../components/form-card.tsx';
import { Panel } from '../../../components/panel.tsx';
import { ErrorState } from '../../../components/query-state.tsx';
import { Button, buttonVariants } from '../../../components/ui/button.tsx';
import { Choice } from '../../../components/ui/input.tsx';
import { ApiError, describeError } from '../../../lib/api-errors.ts';
import {
  ssoQueries,
  useCreateScimToken,
  useRevokeScimToken,
  useSaveSsoSettings,
} from '../api/sso-queries.ts';
import { groupsToLines, linesToGroups } from '../group-lines.ts';

/**
 * Settings → Single sign-on (admins of every sub-organization; the server
 * decides): the company's OpenID provider, its groups' roles, who may still
 * use a password, and SCIM tokens. The client secret is never shown: left
 * empty, the stored one is kept.
 */

const FormSchema = z
  .object({
    enabled: z.boolean(),
    label: z
      .string()
      .trim()
      .min(1, 'label is required')
      .max(60, 'label must be at most 60 characters'),
    issuer: z
      .string()
      .trim()
      .min(1, 'issuer is required')
      .refine((v) => /^https?:\/\/[^\s]+$/.test(v), 'issuer must be an http(s) URL'),
    clientId: z.string().trim().min(1, 'clientId is required'),
    clientSecret: z.string().trim(),
    groupsClaim: z.string().trim().min(1, 'groupsClaim is required'),
    scopes: z
      .string()
      .trim()
      .refine((v) => v.split(/\s+/).includes('openid'), 'scopes must include openid'),
    passwordSignIn: z.enum(['everyone', 'break_glass']),
    breakGlassEmail: z.string().trim(),
    groups: z.string(),
  })
  .superRefine((values, ctx) => {
    if (values.passwordSignIn === 'break_glass' && !values.breakGlassEmail)
      ctx.addIssue({
        code: 'custom',
        path: ['breakGlassEmail'],
        message: 'breakGlassEmail is required when passwords are turned off for everyone else',
      });
    const parsed = linesToGroups(values.groups);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', path: ['groups'], message: parsed.message });
  });
type FormValues = z.infer<typeof FormSchema>;
const FIELDS = [
  'label',
  'issuer',
  'clientId',
  'clientSecret',
  'groupsClaim',
  'scopes',
  'passwordSignIn',
  'breakGlassEmail',
  'groups',
] as const;

const PASSWORD_OPTIONS = [
  { value: 'everyone', label: 'Everyone may still sign in with a password' },
  { value: 'break_glass', label: 'Only the break-glass admin signs in with a password' },
];

function SettingsForm({ settings }: { settings: SsoSettings }) {
  const id = useId();
  const fieldId = (name: string) => `${id}-${name}`;
  const form = useForm<FormValues>({
    resolver: zodResolver(FormSchema),
    defaultValues: {
      enabled: settings.enabled,
      label: settings.label,
      issuer: settings.issuer,
      clientId: settings.clientId,
      clientSecret: '',
      groupsClaim: settings.groupsClaim,
      scopes: settings.scopes,
      passwordSignIn: settings.passwordSignIn,
      breakGlassEmail: settings.breakGlassEmail ?? '',
      groups: groupsToLines(settings.groups),
    },
  });
  const save = useSaveSsoSettings();
  // What the last save did: applied at once, or held for another admin (it widens access).
  const [saved, setSaved] = useState<'applied' | 'held' | null>(null);
  const onSubmit = form.handleSubmit((values) => {
    const parsed = linesToGroups(values.groups);
    if (!parsed.ok) return;
    setSaved(null);
    save.mutate(
      {
        enabled: values.enabled,
        label: values.label,
        issuer: values.issuer,
        clientId: values.clientId,
        ...(values.clientSecret ? { clientSecret: values.clientSecret } : {}),
        groupsClaim: values.groupsClaim,
        scopes: values.scopes,
        passwordSignIn: values.passwordSignIn,
        breakGlassEmail: values.breakGlassEmail || null,
        groups: parsed.groups,
      },
      {
        onSuccess: (answer) => {
          form.resetField('clientSecret');
          setSaved(answer.pendingChange ? 'held' : 'applied');
        },
        onError: (error) => {
          if (error instanceof ApiError && error.fields)
            for (const { field, message } of error.fields) {
              const name = FIELDS.find((f) => field === f || field.startsWith(`${f}.`));
              if (name) form.setError(name, { type: 'server', message }, { shouldFocus: true });
            }
        },
      },
    );
  });
  const fieldLevel = save.error instanceof ApiError && save.error.fields?.length;
  const bound = { form, fieldId };
  return (
    <FormCard
      title="OpenID provider"
      onSubmit={onSubmit}
      error={
        save.isError && !fieldLevel
          ? `The settings could not be saved: ${describeError(save.error)}`
          : null
      }
    >
      <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
        <Choice type="checkbox" className="size-4" {...form.register('enabled')} />
        Offer single sign-on on the sign-in page
      </label>
      <TextField
        {...bound}
        name="label"
        label="Company name on the button"
        hint='The sign-in page says "Sign in with" this name.'
      />
      <TextField
        {...bound}
        name="issuer"
        label="Issuer URL"
        type="url"
        hint="The provider's issuer, as its /.well-known/openid-configuration names it."
      />
      <TextField {...bound} name="clientId" label="Client ID" autoComplete="off" />
      <TextField
        {...bound}
        name="clientSecret"
        label="Client secret"
        type="password"
        autoComplete="new-password"
        hint={
          settings.clientSecretSet
            ? 'A secret is stored and never shown. Leave this empty to keep it.'
            : 'Stored on the server only; never shown again.'
        }
      />
      <p className="text-sm text-slate-800">
        Register this redirect URI at the provider:{' '}
        <code className="font-mono break-all">{settings.redirectUri}</code>
      </p>
      <TextField
        {...bound}
        name="groupsClaim"
        label="Groups claim"
        hint="The ID token or userinfo claim that lists the member's groups."
      />
      <TextField
        {...bound}
        name="scopes"
        label="Scopes"
        hint="Space-separated; openid is required, offline_access lets the console check members with the provider."
      />
      <TextField
        {...bound}
        name="groups"
        label="Group mappings"
        multiline
        hint='One a line: "group = role" for every sub-organization, or "group = role: subOrgA, subOrgB". A member gets the highest role of their groups; someone in no mapped group is refused.'
      />
      <SelectFieldFor
        {...bound}
        name="passwordSignIn"
        label="Password sign-in"
        options={PASSWORD_OPTIONS}
      />
      <TextField
        {...bound}
        name="breakGlassEmail"
        label="Break-glass admin's email"
        type="email"
        hint="An enabled admin who can still sign in with a password if the provider fails."
      />
      <p role="status" className="text-sm text-green-800">
        {saved === 'applied'
          ? 'Saved.'
          : saved === 'held'
            ? 'Saved for approval: it widens who may sign in or what they may do, so it takes effect once another admin approves it.'
            : ''}
      </p>
      <FormActions>
        <SubmitButton pending={save.isPending} pendingLabel="Saving…">
          Save single sign-on settings
        </SubmitButton>
      </FormActions>
    </FormCard>
  );
}

function ScimTokens({ settings }: { settings: SsoSettings }) {
  const id = useId();
  const [name, setName] = useState('');
  const create = useCreateScimToken();
  const revoke = useRevokeScimToken();
  const [shown, setShown] = useState<{ name: string; token: string } | null>(null);
  return (
    <Panel title="SCIM provisioning">
      <p className="mt-2 text-sm text-slate-800">
        SCIM clients send users and groups to{' '}
        <code className="font-mono break-all">{settings.scimBaseUrl}</code> with a bearer token.
      </p>
      {shown ? (
        <div className="mt-3" role="status">
          <p className="text-sm text-slate-800">
            Token “{shown.name}” is made. Copy it now: it is shown only this once.
          </p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code className="rounded border border-slate-300 bg-white px-2 py-1 font-mono text-sm break-all">
              {shown.token}
            </code>
            <CopyButton value={shown.token} label="Copy the SCIM token" />
          </div>
        </div>
      ) : null}
      <form
        className="mt-3 flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (!name.trim()) return;
          create.mutate(name.trim(), {
            onSuccess: (made) => {
              setShown({ name: made.name, token: made.token });
              setName('');
            },
          });
        }}
      >
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-name`} className="text-sm font-medium text-slate-800">
            Token name
          </label>
          <input
            id={`${id}-name`}
            className="h-10 rounded-md border border-slate-400 px-3 text-sm"
            value={name}
            required
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <Button type="submit" disabled={create.isPending}>
          Make a SCIM token
        </Button>
      </form>
      {create.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-800">
          The token could not be made: {describeError(create.error)}
        </p>
      ) : null}
      {settings.scimTokens.length > 0 ? (
        <ul className="mt-3 flex flex-col gap-2 text-sm">
          {settings.scimTokens.map((token) => (
            <li key={token.id} className="flex flex-wrap items-center gap-2">
              <span className="font-medium">{token.name}</span>
              <span className="text-slate-700">
                made <DateTime iso={token.createdAt} />
                {token.lastUsedAt ? (
                  <>
                    , last used <DateTime iso={token.lastUsedAt} />
                  </>
                ) : (
                  ', never used'
                )}
              </span>
              {token.revokedAt ? (
                <span className="text-slate-700">(revoked)</span>
              ) : (
                <Button
                  size="sm"
                  variant="destructive"
                  disabled={revoke.isPending}
                  onClick={() => revoke.mutate(token.id)}
                  aria-label={`Revoke SCIM token ${token.name}`}
                >
                  Revoke
                </Button>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </Panel>
  );
}

/** A saved change that waits for another admin: the settings in force stay until it is approved. */
function PendingChange({ change }: { change: SsoPendingChange }) {
  return (
    <Panel title="A change waits for another admin" tone="attention">
      <p className="text-sm text-slate-800">
        {change.proposedBy.name} saved a change <DateTime iso={change.proposedAt} /> that needs
        another admin of every sub-organization: {change.widens.join(' ')} The settings below are
        the ones in force until it is approved; saving again withdraws it.
      </p>
      <Link
        to="/approvals/held/$entityId"
        params={{ entityId: change.id }}
        className={`${buttonVariants({ variant: 'primary' })} mt-3`}
      >
        Review the change…
      </Link>
    </Panel>
  );
}

export function SsoSettingsPage() {
  const settings = useQuery(ssoQueries.settings());
  return (
    <section id="sso-page" aria-labelledby="sso-title" className="flex flex-col gap-6">
      <title>Single sign-on · Custody Console</title>
      <h1 id="sso-title" className="text-2xl font-semibold text-slate-900">
        Single sign-on
      </h1>
      {settings.isPending ? (
        <p className="text-sm text-slate-700">Loading the settings…</p>
      ) : settings.isError ? (
        <ErrorState
          title="The single sign-on settings could not be loaded"
          error={settings.error}
          onRetry={() => void settings.refetch()}
        />
      ) : (
        <>
          {settings.data.updatedAt ? (
            <p className="text-sm text-slate-700">
              Last changed <DateTime iso={settings.data.updatedAt} />.
            </p>
          ) : null}
          {settings.data.pendingChange ? (
            <PendingChange change={settings.data.pendingChange} />
          ) : null}
          <SettingsForm settings={settings.data} />
          <ScimTokens settings={settings.data} />
        </>
      )}
    </section>
  );
}
