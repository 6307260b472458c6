import { useQuery } from '@tanstack/react-query';
import { sessionQueries } from '../../../lib/session-queries.ts';
import { LoginForm } from './login-form.tsx';

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

/** `/login`. The demo accounts appear only when the server lists them (sandbox mode). */
export function LoginPage({
  onSignedIn,
  ended,
  returnTo = '/',
}: {
  onSignedIn: () => void;
  /** The session ended mid-use, under a read or under something the member sent. */
  ended?: 'read' | 'send' | undefined;
  /** Where signing in leads back to. */
  returnTo?: string;
}) {
  const demoAccounts = useQuery(sessionQueries.demoAccounts());
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
      <p className="mt-1 mb-6 text-sm text-slate-700">Use your staff email and password.</p>
      <LoginForm onSignedIn={onSignedIn} demoAccounts={demoAccounts.data} />
    </section>
  );
}
