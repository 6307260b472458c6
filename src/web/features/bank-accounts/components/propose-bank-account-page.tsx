import type { BankAccount } from '#contract/bank-account.ts';
import { useProposalScope } from '../../../lib/proposal-scope.ts';
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
  const scopeLabel = useProposalScope(subOrgId);

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
