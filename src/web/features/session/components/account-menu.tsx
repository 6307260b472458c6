import { useQueryClient } from '@tanstack/react-query';
import { Link, useRouter } from '@tanstack/react-router';
import type { SessionResponse } from '#contract/auth.ts';
import { Button } from '../../../components/ui/button.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { humanize } from '../../../lib/labels.ts';
import { clearAllFormDrafts } from '../../../lib/form-drafts.ts';
import { useLogoutMutation } from '../api/logout-mutation.ts';

/** Who is signed in, as what, their account page (password, second factor), and the way out. */
export function AccountMenu({
  session,
  scopeLabel,
}: {
  session: SessionResponse;
  scopeLabel: string;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const logout = useLogoutMutation();
  const { member } = session;

  const signOut = () =>
    logout.mutate(undefined, {
      onSuccess: async () => {
        await router.navigate({ to: '/login' });
        // Nothing the member saw or typed stays for the next person at the keyboard.
        queryClient.clear();
        clearAllFormDrafts();
      },
    });

  return (
    <>
      <p className="text-sm text-slate-200" data-testid="signed-in-member">
        <span className="font-medium text-white">{member.name}</span>
        <span aria-hidden="true"> · </span>
        <span className="sr-only">, role: </span>
        <span>{humanize(member.role)}</span>
        <span aria-hidden="true"> · </span>
        <span className="sr-only">, scope: </span>
        <span>{scopeLabel}</span>
      </p>
      <Link
        to="/account"
        className="text-sm font-medium text-white underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white aria-[current=page]:underline"
      >
        Your account
      </Link>
      <Button
        size="sm"
        variant="secondary"
        onClick={signOut}
        disabled={logout.isPending}
        aria-describedby={logout.isError ? 'sign-out-error' : undefined}
      >
        {logout.isPending ? 'Signing out…' : 'Sign out'}
      </Button>
      {logout.isError ? (
        <p id="sign-out-error" role="alert" className="w-full text-sm text-red-200">
          Sign-out failed: {describeError(logout.error)}
        </p>
      ) : null}
    </>
  );
}
