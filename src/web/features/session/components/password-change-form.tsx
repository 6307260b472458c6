import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { PasswordChangeRequest } from '#contract/auth.ts';
import { TextField } from '../../../components/bound-fields.tsx';
import { FormActions, FormCard, SubmitButton } from '../../../components/form-card.tsx';
import { ApiError, describeError } from '../../../lib/api-errors.ts';
import { useChangePassword } from '../api/account-queries.ts';

/** The contract's body (the same rules as the CLI's), and the new password typed twice. */
const { currentPassword, newPassword } = PasswordChangeRequest.shape;
const PasswordChangeSchema = z
  .strictObject({ currentPassword, newPassword, repeatPassword: z.string() })
  .refine((v) => v.repeatPassword === v.newPassword, {
    path: ['repeatPassword'],
    message: 'must be the new password again',
  });
type FormInput = z.input<typeof PasswordChangeSchema>;
type FormOutput = z.output<typeof PasswordChangeSchema>;
const FIELDS = ['currentPassword', 'newPassword', 'repeatPassword'] as const;
const DEFAULTS: FormInput = { currentPassword: '', newPassword: '', repeatPassword: '' };

/** Changing one's own password; every other session of the member ends. */
export function PasswordChangeForm({ disabledReason }: { disabledReason?: string | undefined }) {
  const id = useId();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(PasswordChangeSchema),
    defaultValues: DEFAULTS,
  });
  const change = useChangePassword();
  const [done, setDone] = useState<string | null>(null);
  const fieldLevel = change.error instanceof ApiError && Boolean(change.error.fields?.length);

  const onSubmit = form.handleSubmit(({ repeatPassword: _again, ...body }) => {
    setDone(null);
    change.mutate(body, {
      onSuccess: ({ otherSessionsEnded }) => {
        form.reset(DEFAULTS);
        setDone(
          `Your password was changed.${
            otherSessionsEnded > 0
              ? ` ${otherSessionsEnded} other session${otherSessionsEnded === 1 ? ' was' : 's were'} signed out.`
              : ''
          }`,
        );
      },
      onError: (error) => {
        // The server names the field it refused (a wrong current password): show it there.
        if (error instanceof ApiError)
          for (const { field, message } of error.fields ?? []) {
            const name = FIELDS.find((f) => f === field);
            if (name) form.setError(name, { type: 'server', message }, { shouldFocus: true });
          }
      },
    });
  });
  const bound = { form, fieldId: (name: string) => `${id}-${name}` };

  if (disabledReason)
    return (
      <FormCard title="Password">
        <p className="text-sm text-slate-800">{disabledReason}</p>
      </FormCard>
    );

  return (
    <FormCard
      title="Change your password"
      onSubmit={onSubmit}
      error={change.isError && !fieldLevel ? describeError(change.error) : null}
    >
      {done ? (
        <p
          role="status"
          className="rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900"
        >
          {done}
        </p>
      ) : null}
      <p className="text-sm text-slate-800">
        Your other sessions, on this and other devices, are signed out when it changes.
      </p>
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField
          {...bound}
          name="currentPassword"
          label="Current password"
          type="password"
          autoComplete="current-password"
        />
        <TextField
          {...bound}
          name="newPassword"
          label="New password"
          hint="At least 12 characters. A phrase of several words is easy to type and hard to guess."
          type="password"
          autoComplete="new-password"
        />
        <TextField
          {...bound}
          name="repeatPassword"
          label="New password again"
          type="password"
          autoComplete="new-password"
        />
      </div>
      <FormActions>
        <SubmitButton pending={change.isPending} pendingLabel="Changing…">
          Change password
        </SubmitButton>
      </FormActions>
    </FormCard>
  );
}
