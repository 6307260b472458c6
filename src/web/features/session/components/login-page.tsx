import { useQuery } from '@tanstack/react-query';
import { sessionQueries } from '../../../lib/session-queries.ts';
import { LoginForm } from './login-form.tsx';

/** `/login`. The demo accounts appear only when the server lists them (sandbox mode). */
export function LoginPage({ onSignedIn }: { onSignedIn: () => void }) {
  const demoAccounts = useQuery(sessionQueries.demoAccounts());
  return (
    <section aria-labelledby="login-title" className="mx-auto max-w-md">
      <title>Sign in · Custody Console</title>
      <h1 id="login-title" className="text-2xl font-semibold text-slate-900">
        Sign in
      </h1>
      <p className="mt-1 mb-6 text-sm text-slate-700">Use your staff email and password.</p>
      <LoginForm onSignedIn={onSignedIn} demoAccounts={demoAccounts.data} />
    </section>
  );
}
