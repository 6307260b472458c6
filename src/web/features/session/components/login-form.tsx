import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  isSecondFactorChallenge,
  LoginRequest,
  type SecondFactorChallenge,
} from '#contract/auth.ts';
import { FormCard, SubmitButton } from '../../../components/form-card.tsx';
import { Field, describedBy } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { ApiError, describeError } from '../../../lib/api-errors.ts';
import type { DemoAccount } from '#contract/auth.ts';
import { useLoginMutation } from '../api/auth-mutations.ts';
import { DemoAccounts } from './demo-accounts.tsx';
import { SecondFactorStep } from './second-factor-steps.tsx';

type LoginInput = z.input<typeof LoginRequest>;

const FIELDS = [
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'username' },
  { name: 'password', label: 'Password', type: 'password', autoComplete: 'current-password' },
] as const;

/** What to say when sign-in fails: the server's own words (the same for an unknown email and a wrong password). */
function signInErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 429) {
    return error.message || 'Too many sign-in attempts. Wait a few minutes and try again.';
  }
  return describeError(error);
}

/**
 * Email and password, checked with the same schema as the server's; then,
 * for a member with a second factor (or who must set one up), its step
 * (`second-factor-steps.tsx`) before there is a session. In sandbox mode
 * the demo members are listed below, each with a button that fills the form
 * in.
 */
export function LoginForm({
  onSignedIn,
  demoAccounts,
}: {
  onSignedIn: () => void;
  demoAccounts?: DemoAccount[] | undefined;
}) {
  const id = useId();
  const submitRef = useRef<HTMLButtonElement>(null);
  const form = useForm<LoginInput, unknown, LoginRequest>({
    resolver: zodResolver(LoginRequest),
    defaultValues: { email: '', password: '' },
  });
  const login = useLoginMutation();
  const { errors } = form.formState;
  const [step, setStep] = useState<SecondFactorChallenge | null>(null);
  // Why the form is back after a second step ended (expired, too many wrong codes).
  const [stepEnded, setStepEnded] = useState<string | null>(null);

  const fill = (account: DemoAccount) => {
    form.setValue('email', account.email, { shouldDirty: true });
    form.setValue('password', account.password, { shouldDirty: true });
    form.clearErrors();
    login.reset();
    // Enter now signs in as that member.
    submitRef.current?.focus();
  };

  // Every try starts afresh: an earlier refusal is not left beside this try's field errors.
  const onSubmit = form.handleSubmit(
    (values) => {
      setStepEnded(null);
      login.mutate(values, {
        onSuccess: (answer) => (isSecondFactorChallenge(answer) ? setStep(answer) : onSignedIn()),
      });
    },
    () => {
      setStepEnded(null);
      login.reset();
    },
  );

  if (step)
    return (
      <SecondFactorStep
        challenge={step}
        onSignedIn={onSignedIn}
        onRestart={(why) => {
          setStep(null);
          login.reset();
          form.resetField('password');
          setStepEnded(why ?? null);
        }}
      />
    );

  return (
    <>
      <FormCard
        frame="plain"
        title="Sign-in form"
        titleHidden
        onSubmit={onSubmit}
        error={login.isError ? signInErrorMessage(login.error) : stepEnded}
      >
        {FIELDS.map(({ name, label, ...input }) => {
          const fieldId = `${id}-${name}`;
          return (
            <Field key={name} id={fieldId} label={label} error={errors[name]?.message}>
              <Input
                id={fieldId}
                {...input}
                aria-invalid={errors[name] ? true : undefined}
                aria-describedby={describedBy(fieldId, { error: errors[name] })}
                {...form.register(name)}
              />
            </Field>
          );
        })}
        <SubmitButton ref={submitRef} pending={login.isPending} pendingLabel="Signing in…">
          Sign in
        </SubmitButton>
      </FormCard>
      {demoAccounts && demoAccounts.length > 0 ? (
        <DemoAccounts accounts={demoAccounts} onPick={fill} />
      ) : null}
    </>
  );
}
