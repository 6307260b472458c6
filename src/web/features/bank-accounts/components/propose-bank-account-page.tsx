import { useQuery } from '@tanstack/react-query';
import type { BankAccount } from '#contract/bank-account.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
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
  const subOrgs = useQuery(referenceQueries.subOrgs());
  // A member held to sub-organizations proposes in one of theirs: their only one by
  // default, or the one they choose (the server refuses an account in none of them).
  const own = useSession()?.member.subOrgIds ?? null;
  const proposedIn = subOrgId ?? (own?.length === 1 ? own[0] : undefined);
  const subOrgName = subOrgs.data?.results.find((s) => s.id === proposedIn)?.name;
  let scopeLabel: string;
  if (proposedIn) scopeLabel = subOrgName ?? proposedIn;
  else if (own)
    scopeLabel =
      'none of your sub-organizations yet: choose one in the scope selector above before proposing';
  else
    scopeLabel =
      'the whole organization (no sub-organization; choose a scope above to propose it for one)';

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
      <ProposeBankAccountForm subOrgId={subOrgId} scopeLabel={scopeLabel} onProposed={onProposed} />
    </section>
  );
}
