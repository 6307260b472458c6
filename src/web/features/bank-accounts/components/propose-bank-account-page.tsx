import { useQuery } from '@tanstack/react-query';
import type { BankAccount } from '#contract/bank-account.ts';
import { referenceQueries, subOrgOptions } from '../../../lib/reference-queries.ts';
import { useSession } from '../../../lib/session-queries.ts';
import { ProposeBankAccountForm } from './propose-bank-account-form.tsx';
import { BackToBankAccounts } from './back-to-bank-accounts.tsx';

/** `/bank-accounts/new`: the propose form, in the member's current scope. */
export function ProposeBankAccountPage({
  subOrgId,
  onProposed,
}: {
  subOrgId: string | undefined;
  onProposed: (account: BankAccount) => void;
}) {
  // The server lists only the sub-organizations in the member's scope.
  const subOrgs = useQuery(referenceQueries.subOrgs());
  const restricted = (useSession()?.member.subOrgIds ?? null) !== null;

  return (
    // The first screen the server renders ends here (entry-server.tsx).
    <section
      id="propose-bank-account-page"
      aria-labelledby="propose-bank-account-title"
      className="flex flex-col gap-4"
    >
      <title>Propose a bank account · Custody Console</title>
      <BackToBankAccounts />
      <h1 id="propose-bank-account-title" className="text-2xl font-semibold text-slate-900">
        Propose a bank account
      </h1>
      {subOrgs.isPending ? (
        <p className="text-sm text-slate-700">Loading your sub-organizations…</p>
      ) : (
        <ProposeBankAccountForm
          subOrgId={subOrgId}
          subOrgs={subOrgOptions(subOrgs.data)}
          wholeOrganization={!restricted}
          onProposed={onProposed}
        />
      )}
    </section>
  );
}
