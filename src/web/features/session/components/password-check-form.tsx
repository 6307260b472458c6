import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { EnrolmentStartRequest } from '#contract/auth.ts';
import { TextField } from '../../../components/bound-fields.tsx';
import { FormActions, FormCard, SubmitButton } from '../../../components/form-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ApiError, describeError } from '../../../lib/api-errors.ts';

type PasswordInput = { password: string };

/** A refusal of the password itself (not correct): shown at the field. */
function isPasswordRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && Boolean(error.fields?.some((f) => f.field === 'password'));
}

/**
 * The current password again, before a change to the second factor: a
 * session left open on a desk is not enough to take the account over.
 */
export function PasswordCheckForm({
  title,
  intro,
  submitLabel,
  pending,
  error,
  onPassword,
  onCancel,
}: {
  title: string;
  intro: string;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onPassword: (password: string, refused: (error: unknown) => void) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const form = useForm<PasswordInput>({
    resolver: zodResolver(EnrolmentStartRequest),
    defaultValues: { password: '' },
  });
  const onSubmit = form.handleSubmit(({ password }) =>
    onPassword(password, (refusal) => {
      if (isPasswordRefusal(refusal))
        form.setError(
          'password',
          { type: 'server', message: refusal.message },
          { shouldFocus: true },
        );
    }),
  );
  return (
    <FormCard
      title={title}
      focusTitle
      onSubmit={onSubmit}
      error={error && !isPasswordRefusal(error) ? describeError(error) : null}
    >
      <p className="text-sm text-slate-800">{intro}</p>
      <TextField
        form={form}
        fieldId={(name) => `${id}-${name}`}
        name="password"
        label="Current password"
        type="password"
        autoComplete="current-password"
      />
      <FormActions>
        <SubmitButton pending={pending} pendingLabel="Checking…">
          {submitLabel}
        </SubmitButton>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </FormActions>
    </FormCard>
  );
}
