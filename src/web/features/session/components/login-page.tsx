import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SsoRefusal } from '#contract/sso.ts';
import { ssoSignInOptions } from '#contract/endpoints/sso.ts';
import { buttonVariants } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/cn.ts';
import { sessionQueries } from '../../../lib/session-queries.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { LoginForm } from './login-form.tsx';

/**
 * Whether the sign-in page offers single sign-on, and whether passwords are off.
 * Declared here, not with the session's queries: only this page reads it, and its
 * contract would otherwise ride in every signed-in page's first load.
 */
const signInOptionsQuery = () =>
  queryOptions({
    queryKey: [...sessionQueries.all(), 'sign-in-options'] as const,
    queryFn: ({ signal }) => apiClient.call(ssoSignInOptions, {}, { signal }),
    staleTime: 60_000,
  });

/**
 * What a member is told when their session ended mid-use: that forms keep what
 * they typed (never the account or routing numbers, which no draft keeps),
 * and, when it ended under something they sent, that the server refused it
 * unread, so nothing was sent or changed.
 */
export function sessionEndedNotice(ended: 'read' | 'send', returnTo: string): string {
  const numbers = returnTo.startsWith('/bank-accounts/new')
    ? ' (type the account and routing numbers again: they are never stored)'
    : '';
  const what =
    ended === 'send'
      ? 'Your session had ended, so what you just sent was not received: nothing was sent and nothing changed.'
      : 'Your session has ended.';
  return `${what} Sign in to go back: anything you had typed in a form is still there${numbers}.`;
}

/** Why a single sign-on came back here, in words: what happened and what to do. */
export const SSO_REFUSAL_TEXT: Record<SsoRefusal, string> = {
  unconfigured: 'Single sign-on is not set up on this console. Sign in with your password.',
  state:
    'That sign-in could not be checked (it was started in another browser or tab, or took too long). Start again.',
  provider:
    'Your company’s sign-in did not complete, or its answer could not be verified. Start again; if it keeps failing, ask an admin.',
  unmapped:
    'Your company account is in no group this console lets in. Ask an admin to map your group to a role.',
  disabled: 'Your console account is disabled. Ask an admin.',
  unverified:
    'Your company account has no verified email this console can link, or it is linked to another account. Ask an admin.',
  password_only: 'Sign in with your password.',
};

/** `/login`. The demo accounts appear only when the server lists them (sandbox mode). */
export function LoginPage({
  onSignedIn,
  ended,
  sso,
  returnTo = '/',
}: {
  /** A single sign-on that came back refused (`/login?sso=<reason>`). */
  sso?: SsoRefusal | undefined;
  onSignedIn: () => void;
  /** The session ended mid-use, under a read or under something the member sent. */
  ended?: 'read' | 'send' | undefined;
  /** Where signing in leads back to. */
  returnTo?: string;
}) {
  const demoAccounts = useQuery(sessionQueries.demoAccounts());
  const options = useQuery(signInOptionsQuery());
  const company = options.data?.sso;
  const passwordsOff = options.data?.passwordSignIn === 'break_glass';
  return (
    <section aria-labelledby="login-title" className="mx-auto max-w-md">
      <title>Sign in · Custody Console</title>
      <h1 id="login-title" className="text-2xl font-semibold text-slate-900">
        Sign in
      </h1>
      {ended ? (
        <p
          role="status"
          className="mt-3 rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950"
        >
          {sessionEndedNotice(ended, returnTo)}
        </p>
      ) : null}
      {sso ? (
        <p
          role="alert"
          className="mt-3 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900"
        >
          {SSO_REFUSAL_TEXT[sso]}
        </p>
      ) : null}
      {company ? (
        <div className="mt-4 flex flex-col gap-2">
          <a
            href={`${company.startPath}?redirect=${encodeURIComponent(returnTo)}`}
            className={cn(buttonVariants({ variant: 'primary' }), 'w-full')}
          >
            Sign in with {company.label}
          </a>
          <p className="text-center text-sm text-slate-700">or</p>
        </div>
      ) : null}
      <p className="mt-4 mb-6 text-sm text-slate-700">
        {passwordsOff
          ? 'Passwords are turned off except for the break-glass admin.'
          : 'Use your staff email and password.'}
      </p>
      <LoginForm onSignedIn={onSignedIn} demoAccounts={demoAccounts.data} />
    </section>
  );
}
