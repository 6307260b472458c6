import { useState } from 'react';
import type { SecondFactorChallenge } from '#contract/auth.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ApiError } from '../../../lib/api-errors.ts';
import { usePasskeySignInMutation, useSecondFactorMutation } from '../api/auth-mutations.ts';
import { CodeForm } from './code-form.tsx';
import { EnrolmentInstructions } from './enrolment-instructions.tsx';
import { RecoveryCodes } from './recovery-codes.tsx';

/**
 * The sign-in's second step, after the right password: a code from the
 * member's authenticator (or a recovery code), or — for a member who must
 * have a factor and has none — setting one up, then its recovery codes.
 * `onRestart` goes back to the password (the step ended), with why.
 */
export function SecondFactorStep({
  challenge,
  onSignedIn,
  onRestart,
}: {
  challenge: SecondFactorChallenge;
  onSignedIn: () => void;
  onRestart: (why?: string) => void;
}) {
  const confirm = useSecondFactorMutation();
  const passkey = usePasskeySignInMutation();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  if (recoveryCodes)
    return (
      <RecoveryCodes
        frame="plain"
        codes={recoveryCodes}
        doneLabel="I have saved them: continue"
        onDone={onSignedIn}
      />
    );

  const onCode = (code: string, refused: (error: unknown) => void) =>
    confirm.mutate(
      { challengeId: challenge.challengeId, code },
      {
        onSuccess: (answer) => {
          if (answer.recoveryCodes?.length) setRecoveryCodes(answer.recoveryCodes);
          else onSignedIn();
        },
        onError: (error) => {
          // Expired, used, or five wrong codes: only the password opens a new step.
          if (error instanceof ApiError && error.code === ERROR_CODES.secondFactorStepExpired)
            onRestart(error.message);
          else refused(error);
        },
      },
    );
  const startAgain = (
    <Button variant="ghost" onClick={() => onRestart()}>
      Back to email and password
    </Button>
  );

  if (challenge.secondFactor === 'enrol' && challenge.enrolment)
    return (
      <CodeForm
        title="Set up a second factor"
        frame="plain"
        submitLabel="Confirm and sign in"
        pendingLabel="Checking…"
        pending={confirm.isPending}
        error={confirm.error}
        onCode={onCode}
        actions={startAgain}
      >
        <p className="text-sm text-slate-800">
          Your role needs a second factor: a code from an authenticator app on your phone, asked for
          at every sign-in after your password.
        </p>
        <EnrolmentInstructions enrolment={challenge.enrolment} />
      </CodeForm>
    );

  const signInWithPasskey = () =>
    passkey.mutate(challenge, {
      onSuccess: onSignedIn,
      onError: (error) => {
        if (error instanceof ApiError && error.code === ERROR_CODES.secondFactorStepExpired)
          onRestart(error.message);
      },
    });
  const passkeyOffer = challenge.passkey ? (
    <section aria-labelledby="passkey-step-title" className="flex flex-col gap-3">
      <h2 id="passkey-step-title" className="text-lg font-semibold text-slate-900">
        Use your passkey
      </h2>
      <p className="text-sm text-slate-800">
        Your password was right. Confirm with the passkey or security key you registered for Custody
        Console.
      </p>
      {passkey.isError ? (
        <p role="alert" className="text-sm text-red-900">
          {describePasskeyRefusal(passkey.error)}
        </p>
      ) : null}
      <div>
        <Button onClick={signInWithPasskey} disabled={passkey.isPending}>
          {passkey.isPending ? 'Waiting for your passkey…' : 'Use your passkey'}
        </Button>
      </div>
    </section>
  ) : null;

  // Only passkeys: there is no code to type.
  if (challenge.passkey && challenge.codes === false)
    return (
      <div className="flex flex-col gap-4">
        {passkeyOffer}
        <div>{startAgain}</div>
      </div>
    );

  return (
    <div className="flex flex-col gap-6">
      {passkeyOffer}
      <CodeForm
        title={challenge.passkey ? 'Or enter a code' : 'Second factor'}
        frame="plain"
        submitLabel="Verify and sign in"
        pendingLabel="Checking…"
        pending={confirm.isPending}
        error={confirm.error}
        onCode={onCode}
        allowRecovery
        focusField={!challenge.passkey}
        actions={startAgain}
      >
        <p className="text-sm text-slate-800">
          {challenge.passkey
            ? 'The code your authenticator app shows for Custody Console, or a recovery code.'
            : 'Your password was right. Enter the code your authenticator app shows for Custody Console.'}
        </p>
      </CodeForm>
    </div>
  );
}

/** A refused or abandoned passkey, in words: the server's, or what the browser's dialog did. */
function describePasskeyRefusal(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.name === 'NotAllowedError')
    return 'No passkey was used: the browser’s dialog was closed or timed out. Try again, or enter a code.';
  return error instanceof Error ? error.message : 'Your passkey could not be used; try again.';
}
