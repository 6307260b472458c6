import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import { SecondFactorCode } from '#contract/auth.ts';
import { TextField } from '../../../components/bound-fields.tsx';
import { FormActions, FormCard, SubmitButton } from '../../../components/form-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ApiError, describeError } from '../../../lib/api-errors.ts';

const CodeSchema = z.object({ code: SecondFactorCode });
type CodeInput = z.input<typeof CodeSchema>;

/** A refusal about the code itself (wrong, already used): shown at the field, not the form. */
export function isCodeRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && Boolean(error.fields?.some((f) => f.field === 'code'));
}

const KINDS = {
  app: {
    label: 'Code from your authenticator app',
    hint: 'The 6 digits it shows for Custody Console now.',
    inputMode: 'numeric',
    autoComplete: 'one-time-code',
  },
  recovery: {
    label: 'Recovery code',
    hint: 'One of the ten codes you saved when you set up the factor, like abcde-12345. Each works once.',
    inputMode: 'text',
    autoComplete: 'off',
  },
} as const;

/**
 * One code, by keyboard alone: the authenticator's (`one-time-code`, a
 * numeric keypad on phones) or, when `allowRecovery`, a recovery code
 * instead. A refusal about the code is announced at the field, which takes
 * focus again; anything else at the top of the form.
 */
export function CodeForm({
  title,
  submitLabel,
  pendingLabel,
  pending,
  error,
  onCode,
  allowRecovery = false,
  focusField = false,
  frame = 'card',
  actions,
  children,
}: {
  title: string;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** The last refusal, if any. */
  error: unknown;
  /** Sends the code; `refused` puts a refusal about the code at the field. */
  onCode: (code: string, refused: (error: unknown) => void) => void;
  allowRecovery?: boolean;
  /** Focus the field when the form appears (the heading otherwise, when there is more to read). */
  focusField?: boolean;
  frame?: 'card' | 'plain';
  actions?: ReactNode;
  children?: ReactNode;
}) {
  const id = useId();
  const fieldId = (name: string) => `${id}-${name}`;
  const [kind, setKind] = useState<keyof typeof KINDS>('app');
  // After a switch of kind, the new field takes focus whatever `focusField` says.
  const [switched, setSwitched] = useState(false);
  const form = useForm<CodeInput, unknown, z.output<typeof CodeSchema>>({
    resolver: zodResolver(CodeSchema),
    defaultValues: { code: '' },
  });
  const { setFocus } = form;
  useEffect(() => {
    if (focusField || switched) setFocus('code');
  }, [focusField, switched, setFocus, kind]);

  const onSubmit = form.handleSubmit(({ code }) =>
    onCode(code, (refusal) => {
      if (isCodeRefusal(refusal))
        form.setError('code', { type: 'server', message: refusal.message }, { shouldFocus: true });
    }),
  );
  const { label, ...input } = KINDS[kind];

  return (
    <FormCard
      title={title}
      focusTitle={!focusField}
      frame={frame}
      onSubmit={onSubmit}
      error={error && !isCodeRefusal(error) ? describeError(error) : null}
    >
      {children}
      <TextField
        // A new control for the other kind: its own label, keyboard and autofill.
        key={kind}
        form={form}
        fieldId={fieldId}
        name="code"
        label={label}
        spellCheck={false}
        {...input}
      />
      <FormActions>
        <SubmitButton pending={pending} pendingLabel={pendingLabel}>
          {submitLabel}
        </SubmitButton>
        {allowRecovery ? (
          <Button
            variant="ghost"
            onClick={() => {
              form.reset({ code: '' });
              setSwitched(true);
              setKind(kind === 'app' ? 'recovery' : 'app');
            }}
          >
            {kind === 'app' ? 'Use a recovery code instead' : 'Use the authenticator app instead'}
          </Button>
        ) : null}
        {actions}
      </FormActions>
    </FormCard>
  );
}
