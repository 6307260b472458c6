import { useState } from 'react';
import type { AccountSecondFactor, EnrolmentStarted } from '#contract/auth.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { FormActions } from '../../../components/form-card.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { Panel } from '../../../components/panel.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ApiError } from '../../../lib/api-errors.ts';
import {
  useConfirmEnrolment,
  useReplaceRecoveryCodes,
  useStartEnrolment,
} from '../api/account-queries.ts';
import { CodeForm } from './code-form.tsx';
import { EnrolmentInstructions } from './enrolment-instructions.tsx';
import { PasswordCheckForm } from './password-check-form.tsx';
import { RecoveryCodes } from './recovery-codes.tsx';

type Stage =
  | { kind: 'idle'; note?: string }
  | { kind: 'password'; purpose: 'enrol' | 'codes' }
  | { kind: 'enrol'; enrolment: EnrolmentStarted }
  | { kind: 'codes'; codes: string[]; note: string };

/**
 * The member's second factor on the account page: whether it is set up,
 * setting one up or replacing it (the password, then the new key's first
 * code), and new recovery codes (the password). Each change shows the ten
 * new codes once.
 */
export function SecondFactorPanel({ status }: { status: AccountSecondFactor }) {
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const start = useStartEnrolment();
  const confirm = useConfirmEnrolment();
  const replaceCodes = useReplaceRecoveryCodes();

  const begin = (purpose: 'enrol' | 'codes') => {
    start.reset();
    replaceCodes.reset();
    confirm.reset();
    setStage({ kind: 'password', purpose });
  };
  const cancel = () => setStage({ kind: 'idle' });

  if (stage.kind === 'codes')
    return (
      <Panel title="Second factor">
        <p role="status" className="mt-2 text-sm text-green-900">
          {stage.note}
        </p>
        <div className="mt-4">
          <RecoveryCodes
            codes={stage.codes}
            doneLabel="I have saved them"
            onDone={() => setStage({ kind: 'idle' })}
          />
        </div>
      </Panel>
    );

  if (stage.kind === 'password') {
    const enrol = stage.purpose === 'enrol';
    const mutation = enrol ? start : replaceCodes;
    return (
      <Panel title="Second factor">
        <div className="mt-4">
          <PasswordCheckForm
            title={enrol ? 'Confirm it is you' : 'Confirm it is you to make new recovery codes'}
            intro={
              enrol
                ? 'Enter your password to set up a new key for your authenticator app.'
                : 'Enter your password. Your present recovery codes stop working.'
            }
            submitLabel="Continue"
            pending={mutation.isPending}
            error={mutation.error}
            onCancel={cancel}
            onPassword={(password, refused) =>
              enrol
                ? start.mutate(
                    { password },
                    {
                      onSuccess: (enrolment) => setStage({ kind: 'enrol', enrolment }),
                      onError: refused,
                    },
                  )
                : replaceCodes.mutate(
                    { password },
                    {
                      onSuccess: ({ recoveryCodes }) =>
                        setStage({
                          kind: 'codes',
                          codes: recoveryCodes,
                          note: 'New recovery codes were made; the earlier ones no longer work.',
                        }),
                      onError: refused,
                    },
                  )
            }
          />
        </div>
      </Panel>
    );
  }

  if (stage.kind === 'enrol')
    return (
      <Panel title="Second factor">
        <div className="mt-4">
          <CodeForm
            title="Add the new key to your authenticator app"
            submitLabel="Confirm the new key"
            pendingLabel="Checking…"
            pending={confirm.isPending}
            error={confirm.error}
            actions={
              <Button variant="ghost" onClick={cancel}>
                Cancel
              </Button>
            }
            onCode={(code, refused) =>
              confirm.mutate(
                { enrolmentId: stage.enrolment.enrolmentId, code },
                {
                  onSuccess: ({ recoveryCodes, otherSessionsEnded = 0 }) =>
                    setStage({
                      kind: 'codes',
                      codes: recoveryCodes,
                      note: `Your second factor is set up.${
                        otherSessionsEnded > 0
                          ? ` ${otherSessionsEnded} other session${otherSessionsEnded === 1 ? ' was' : 's were'} signed out.`
                          : ''
                      }`,
                    }),
                  onError: (error) => {
                    if (
                      error instanceof ApiError &&
                      error.code === ERROR_CODES.secondFactorStepExpired
                    )
                      setStage({ kind: 'idle', note: error.message });
                    else refused(error);
                  },
                },
              )
            }
          >
            {status.enrolled ? (
              <p className="text-sm text-slate-800">
                The key you use now keeps working until this one is confirmed.
              </p>
            ) : null}
            <EnrolmentInstructions enrolment={stage.enrolment} />
          </CodeForm>
        </div>
      </Panel>
    );

  return (
    <Panel title="Second factor">
      <div className="mt-2 flex flex-col gap-3 text-sm text-slate-800">
        {stage.note ? (
          <p role="alert" className="text-red-900">
            {stage.note}
          </p>
        ) : null}
        {status.demoMember ? (
          <p>
            You are signed in as one of the sandbox's demo members, whose passwords are published on
            the sign-in page: they sign in without a second factor, and their password cannot be
            changed.
          </p>
        ) : status.enrolled ? (
          <p>
            Set up
            {status.enrolledAt ? (
              <>
                {' on '}
                <DateTime iso={status.enrolledAt} />
              </>
            ) : null}
            : every sign-in asks for a code from your authenticator app. {status.recoveryCodesLeft}{' '}
            recovery code{status.recoveryCodesLeft === 1 ? '' : 's'} left.
          </p>
        ) : (
          <p>
            Not set up.{' '}
            {status.required
              ? 'Your role needs one: you will set it up at your next sign-in if not now.'
              : 'With one, every sign-in also asks for a code from an authenticator app on your phone.'}
          </p>
        )}
        {status.demoMember ? null : (
          <FormActions>
            <Button
              variant={status.enrolled ? 'secondary' : 'primary'}
              onClick={() => begin('enrol')}
            >
              {status.enrolled ? 'Replace your authenticator' : 'Set up a second factor'}
            </Button>
            {status.enrolled ? (
              <Button onClick={() => begin('codes')}>Make new recovery codes</Button>
            ) : null}
          </FormActions>
        )}
      </div>
    </Panel>
  );
}
