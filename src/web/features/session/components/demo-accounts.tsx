import { useId } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import type { DemoAccount } from '#contract/auth.ts';
import { humanize } from '../../../lib/labels.ts';

/** Sandbox only: the seeded demo members, one per role, with their passwords. */
export function DemoAccounts({
  accounts,
  onPick,
}: {
  accounts: DemoAccount[];
  onPick: (account: DemoAccount) => void;
}) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-title`} className="mt-8 border-t border-slate-300 pt-6">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
        Demo accounts
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        This console runs on the sandbox. Sign in as any of these members to try each role.
      </p>
      <p className="mt-1 text-sm text-slate-700">
        Their passwords are published here, so they sign in without a second factor: one would
        protect nothing. Every other approver and admin sets one up at their first sign-in.
      </p>
      <ul className="mt-4 flex flex-col gap-3">
        {accounts.map((account) => (
          <li
            key={account.email}
            className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-slate-300 bg-white p-3"
          >
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
              <dt className="text-slate-700">Name</dt>
              <dd className="font-medium text-slate-900">{account.name ?? account.email}</dd>
              <dt className="text-slate-700">Role</dt>
              <dd className="text-slate-900">{humanize(account.role)}</dd>
              <dt className="text-slate-700">Email</dt>
              <dd className="font-mono text-slate-900">{account.email}</dd>
              <dt className="text-slate-700">Password</dt>
              <dd className="font-mono text-slate-900">{account.password}</dd>
            </dl>
            <Button
              size="sm"
              onClick={() => onPick(account)}
              aria-label={`Use ${humanize(account.role)} account ${account.email}`}
            >
              Use this account
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
