import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import { PasskeyRegistrationRequest, PasskeyRemoveRequest, type Passkey } from '#contract/auth.ts';
import { TextField } from '../../../components/bound-fields.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { FormActions, FormCard, SubmitButton } from '../../../components/form-card.tsx';
import { Panel } from '../../../components/panel.tsx';
import { ErrorState } from '../../../components/query-state.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ApiError, describeError } from '../../../lib/api-errors.ts';
import { accountQueries, useRegisterPasskey, useRemovePasskey } from '../api/account-queries.ts';
import { PasswordCheckForm } from './password-check-form.tsx';

/** What the add form checks before anything is sent: the server's own rules for both fields. */
const AddPasskeyInput = z.object({
  name: PasskeyRegistrationRequest.shape.name,
  password: PasskeyRemoveRequest.shape.password,
});
type AddPasskeyInput = z.infer<typeof AddPasskeyInput>;

/** The browser's dialog was closed or refused: said in words, not as an exception. */
function describePasskeyError(error: unknown): string {
  if (error instanceof ApiError) return describeError(error);
  if (error instanceof Error && error.name === 'NotAllowedError')
    return 'The passkey was not created: the browser’s dialog was closed or timed out.';
  if (error instanceof Error && error.name === 'InvalidStateError')
    return 'This device already holds one of your passkeys.';
  return error instanceof Error ? error.message : describeError(error);
}

const isPasswordRefusal = (error: unknown) =>
  error instanceof ApiError && Boolean(error.fields?.some((f) => f.field === 'password'));

function AddPasskeyForm({
  onDone,
  onCancel,
}: {
  onDone: (name: string) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const register = useRegisterPasskey();
  const form = useForm<AddPasskeyInput>({
    resolver: zodResolver(AddPasskeyInput),
    defaultValues: { name: '', password: '' },
  });
  const onSubmit = form.handleSubmit((values) =>
    register.mutate(values, {
      onSuccess: (added) => onDone(added.name),
      onError: (error) => {
        if (isPasswordRefusal(error))
          form.setError(
            'password',
            { type: 'server', message: describeError(error) },
            { shouldFocus: true },
          );
      },
    }),
  );
  return (
    <FormCard
      title="Add a passkey"
      focusTitle
      onSubmit={onSubmit}
      error={
        register.error && !isPasswordRefusal(register.error)
          ? describePasskeyError(register.error)
          : null
      }
    >
      <p className="text-sm text-slate-800">
        Name it so you know it later (“Work laptop”, “Blue security key”), confirm your password,
        and your browser asks you to create the passkey: with your fingerprint, face, device PIN or
        a security key.
      </p>
      <TextField
        form={form}
        fieldId={(name) => `${id}-${name}`}
        name="name"
        label="Name"
        maxChars={60}
      />
      <TextField
        form={form}
        fieldId={(name) => `${id}-${name}`}
        name="password"
        label="Current password"
        type="password"
        autoComplete="current-password"
      />
      <FormActions>
        <SubmitButton pending={register.isPending} pendingLabel="Waiting for your passkey…">
          Create passkey
        </SubmitButton>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </FormActions>
    </FormCard>
  );
}

type Stage =
  { kind: 'idle'; note?: string } | { kind: 'add' } | { kind: 'remove'; passkey: Passkey };

/**
 * The member's passkeys and security keys on the account page: each by its
 * name, with when it was added and last used; adding one and removing one
 * each ask for the password again. A passkey then signs in instead of a code.
 */
export function PasskeysPanel() {
  const passkeys = useQuery(accountQueries.passkeys());
  const remove = useRemovePasskey();
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const idle = (note?: string) => setStage(note ? { kind: 'idle', note } : { kind: 'idle' });

  if (passkeys.isError)
    return (
      <ErrorState
        title="Your passkeys could not be loaded"
        error={passkeys.error}
        onRetry={() => void passkeys.refetch()}
        retrying={passkeys.isFetching}
      />
    );
  if (!passkeys.data) return <Skeleton className="h-24 w-full" />;
  const { passkeys: list, asked, demoMember } = passkeys.data;

  return (
    <Panel title="Passkeys">
      <div className="mt-2 flex flex-col gap-3 text-sm text-slate-800">
        {stage.kind === 'idle' && stage.note ? (
          <p role="status" className="text-green-900">
            {stage.note}
          </p>
        ) : null}
        <p>
          A passkey signs you in after your password instead of a code: your device or security key
          proves it is you{asked ? '. Your role is asked to have one.' : '.'}
        </p>
        {list.length > 0 ? (
          <ul aria-label="Your passkeys" className="flex flex-col divide-y divide-slate-200">
            {list.map((passkey) => (
              <li
                key={passkey.id}
                className="flex flex-wrap items-center justify-between gap-2 py-2"
              >
                <div>
                  <p className="font-medium text-slate-900">{passkey.name}</p>
                  <p className="text-slate-700">
                    {passkey.kind === 'security key' ? 'Security key' : 'Passkey'} · added{' '}
                    <DateTime iso={passkey.createdAt} /> ·{' '}
                    {passkey.lastUsedAt ? (
                      <>
                        last used <DateTime iso={passkey.lastUsedAt} />
                      </>
                    ) : (
                      'not used yet'
                    )}
                  </p>
                </div>
                {stage.kind === 'idle' ? (
                  <Button
                    variant="secondary"
                    aria-label={`Remove passkey ${passkey.name}`}
                    onClick={() => {
                      remove.reset();
                      setStage({ kind: 'remove', passkey });
                    }}
                  >
                    Remove
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p>No passkey yet.</p>
        )}
        {demoMember ? (
          <p>The sandbox’s demo members are shared by every visitor and cannot have passkeys.</p>
        ) : stage.kind === 'add' ? (
          <AddPasskeyForm
            onDone={(name) => idle(`Your passkey “${name}” was added.`)}
            onCancel={() => idle()}
          />
        ) : stage.kind === 'remove' ? (
          <PasswordCheckForm
            title={`Remove “${stage.passkey.name}”`}
            intro="Enter your password. This passkey no longer signs you in."
            submitLabel="Remove passkey"
            pending={remove.isPending}
            error={remove.error}
            onCancel={() => idle()}
            onPassword={(password, refused) =>
              remove.mutate(
                { passkeyId: stage.passkey.id, password },
                {
                  onSuccess: (removed) => idle(`Your passkey “${removed.name}” was removed.`),
                  onError: refused,
                },
              )
            }
          />
        ) : (
          <FormActions>
            <Button
              variant={list.length > 0 ? 'secondary' : 'primary'}
              onClick={() => setStage({ kind: 'add' })}
            >
              Add a passkey
            </Button>
          </FormActions>
        )}
      </div>
    </Panel>
  );
}
