import { Link } from '@tanstack/react-router';
import type { BankAccount } from '#contract/bank-account.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';

/**
 * Said before an identical account is proposed a second time: the accounts in
 * the member's scope with the same rail and numbers, each a link, and a
 * deliberate second step to propose it anyway. Announced as it
 * appears; focus stays on the form.
 */
export function IdenticalAccountsWarning({
  matches,
  complete,
  pending,
  onProposeAnyway,
}: {
  matches: BankAccount[];
  complete: boolean;
  pending: boolean;
  onProposeAnyway: () => void;
}) {
  const one = matches.length === 1;
  return (
    <div
      role="alert"
      className="flex flex-col gap-3 rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950"
    >
      <p className="font-medium">
        {one
          ? 'This account is already in your scope, with the same rail and numbers:'
          : `This account is already in your scope ${matches.length} times, with the same rail and numbers:`}
      </p>
      <ul className="flex flex-col gap-1">
        {matches.map((account) => (
          <li key={account.id} className="flex flex-wrap items-center gap-2">
            <StatusBadge status={account.status} />
            {account.id ? (
              <Link
                to="/bank-accounts/$bankAccountId"
                params={{ bankAccountId: account.id }}
                className="font-medium text-blue-800 underline underline-offset-2"
              >
                {[account.accountName, account.bankName, account.accountNumber]
                  .filter(Boolean)
                  .join(' · ')}
              </Link>
            ) : null}
            {account.createdAt ? (
              <span>
                proposed <DateTime iso={account.createdAt} />
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      {complete ? null : (
        <p>Your scope holds more accounts on this rail than were checked; there may be others.</p>
      )}
      <p>
        Nothing was proposed. Change the details above, or propose it again anyway: it will need its
        own approval.
      </p>
      <div>
        <Button type="button" onClick={onProposeAnyway} disabled={pending}>
          {pending ? 'Proposing…' : 'Propose it anyway'}
        </Button>
      </div>
    </div>
  );
}
