import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useId, useSyncExternalStore } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { StaffSetupRequest } from '#contract/auth.ts';
import { setUpAccount } from '#contract/endpoints/session.ts';
import { TextField } from '../../../components/bound-fields.tsx';
import { FormActions, FormCard, SubmitButton } from '../../../components/form-card.tsx';
import { apiClient } from '../../../lib/api-client.ts';
import { describeError } from '../../../lib/api-errors.ts';

const { password } = StaffSetupRequest.shape;
const SetupSchema = z
  .strictObject({ password, repeatPassword: z.string() })
  .refine((v) => v.repeatPassword === v.password, {
    path: ['repeatPassword'],
    message: 'must be the password again',
  });
type FormInput = z.input<typeof SetupSchema>;
type FormOutput = z.output<typeof SetupSchema>;

/** The set-up code travels after `#`: never sent to a server, never in a log or a Referer. */
function codeFromLocation(): string {
  return window.location.hash.replace(/^#/, '');
}
function onHashChange(notify: () => void): () => void {
  window.addEventListener('hashchange', notify);
  return () => window.removeEventListener('hashchange', notify);
}

/**
 * `/setup#<code>`: a new member chooses their own password with the one-time
 * code an admin gave them; then they sign in, and set up the second factor
 * their role requires.
 */
export function SetupPage({ onDone }: { onDone: () => void }) {
  const id = useId();
  // Rendered on the server without it: the browser's hash is read once the page is live.
  const token = useSyncExternalStore(onHashChange, codeFromLocation, () => '');
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(SetupSchema),
    defaultValues: { password: '', repeatPassword: '' },
  });
  const setUp = useMutation({
    mutationFn: (body: { token: string; password: string }) =>
      apiClient.call(setUpAccount, { body }),
  });
  const onSubmit = form.handleSubmit(({ password: chosen }) =>
    setUp.mutate({ token, password: chosen }, { onSuccess: () => form.reset() }),
  );
  const bound = { form, fieldId: (name: string) => `${id}-${name}` };

  return (
    <section aria-labelledby="setup-title" className="mx-auto flex max-w-md flex-col gap-4">
      <title>Set up your account · Custody Console</title>
      <h1 id="setup-title" className="text-2xl font-semibold text-slate-900">
        Set up your account
      </h1>
      {setUp.isSuccess ? (
        <div role="status" className="flex flex-col gap-3 text-sm text-slate-800">
          <p>
            Your password is set for {setUp.data.email}. Sign in with it; if your role requires a
            second factor you set it up then, with an authenticator app.
          </p>
          <button
            type="button"
            className="self-start rounded-md bg-slate-900 px-3 py-2 text-sm font-medium text-white"
            onClick={onDone}
          >
            Go to sign-in
          </button>
        </div>
      ) : token === '' ? (
        <p role="alert" className="text-sm text-red-800">
          This page needs the set-up link an admin gave you, in full (it ends with a code after
          “#”).
        </p>
      ) : (
        <FormCard
          title="Choose your password"
          onSubmit={onSubmit}
          error={
            setUp.isError ? `Your account could not be set up: ${describeError(setUp.error)}` : null
          }
        >
          <p className="text-sm text-slate-800">
            Only you know it: the admin who added you never did. The link works once.
          </p>
          <TextField
            {...bound}
            name="password"
            label="Password"
            hint="At least 12 characters. A phrase of several words is easy to type and hard to guess."
            type="password"
            autoComplete="new-password"
          />
          <TextField
            {...bound}
            name="repeatPassword"
            label="Password again"
            type="password"
            autoComplete="new-password"
          />
          <FormActions>
            <SubmitButton pending={setUp.isPending} pendingLabel="Setting up…">
              Set password
            </SubmitButton>
          </FormActions>
        </FormCard>
      )}
    </section>
  );
}
