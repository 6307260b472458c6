import { useQuery } from '@tanstack/react-query';
import type { SessionResponse } from '#contract/auth.ts';
import { ErrorState } from '../../../components/query-state.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { humanize } from '../../../lib/labels.ts';
import { accountQueries } from '../api/account-queries.ts';
import { DisplaySettingsForm } from './display-settings-form.tsx';
import { NotificationPreferencesPanel } from './notification-preferences.tsx';
import { PasskeysPanel } from './passkeys-panel.tsx';
import { PasswordChangeForm } from './password-change-form.tsx';
import { SecondFactorPanel } from './second-factor-panel.tsx';

/** `/account`: the signed-in member's own display settings, second factor, passkeys and password. */
export function AccountPage({ session }: { session: SessionResponse | undefined }) {
  const status = useQuery(accountQueries.secondFactor());
  const member = session?.member;
  return (
    // The first screen the server renders ends here (entry-server.tsx).
    <section
      id="account-page"
      aria-labelledby="account-title"
      className="flex max-w-3xl flex-col gap-6"
    >
      <title>Your account · Custody Console</title>
      <div>
        <h1 id="account-title" className="text-2xl font-semibold text-slate-900">
          Your account
        </h1>
        {member ? (
          <p className="mt-1 text-sm text-slate-700">
            {member.name} · {member.email} · {humanize(member.role)}
          </p>
        ) : null}
      </div>
      {session ? <DisplaySettingsForm display={session.display} /> : null}
      {status.data ? (
        <SecondFactorPanel status={status.data} />
      ) : status.isError ? (
        <ErrorState
          title="Your second factor could not be loaded"
          error={status.error}
          onRetry={() => void status.refetch()}
          retrying={status.isFetching}
        />
      ) : (
        <Skeleton className="h-32 w-full" />
      )}
      <PasskeysPanel />
      <NotificationPreferencesPanel />
      <PasswordChangeForm
        disabledReason={
          status.data?.demoMember
            ? "The sandbox's demo members keep the password shown on the sign-in page."
            : undefined
        }
      />
    </section>
  );
}
