import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { BankAccount } from '#contract/bank-account.ts';
import { ChangeRequestHistoryList } from '../../../components/change-request-history.tsx';
import {
  DetailFailed,
  DetailHeading,
  DetailLoading,
  HistoryPanel,
} from '../../../components/detail-page.tsx';
import { ProposalDecision } from '../../../components/proposal-decision.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { bankAccountQueries } from '../api/bank-account-queries.ts';
import { useRevealBankAccount } from '../api/reveal-bank-account.ts';
import { BankAccountFields } from './bank-account-fields.tsx';
import { onDemand } from '../../../components/on-demand.tsx';
import { BackToBankAccounts } from './back-to-bank-accounts.tsx';
import { SignaturesPanel } from '../../../components/signatures-panel.tsx';

// With the dialog, passkey and card-signing code: loaded when an approver opens it.
const decideBankAccountDialog = onDemand(() => import('./decide-bank-account-dialog.tsx'));

export interface BankAccountPermissions {
  /** The member's id: a member never decides their own proposal. */
  memberId: string | undefined;
  canReveal: boolean;
  canApprove: boolean;
}

/** `/bank-accounts/$bankAccountId`: every field, its history, and the decision when it is the member's to make. */
export function BankAccountDetailPage({
  bankAccountId,
  permissions,
  extras,
}: {
  bankAccountId: string;
  permissions: BankAccountPermissions;
  /** What another feature shows of the account (the ramps paid to it), given by the route. */
  extras?: ReactNode;
}) {
  const account = useQuery(bankAccountQueries.detail(bankAccountId));
  const history = useQuery(bankAccountQueries.history(bankAccountId));
  const subOrgs = useQuery(referenceQueries.subOrgs());
  const firstProposal = history.data?.results[0]?.proposedBy;
  const proposedBy = firstProposal ? (firstProposal.name ?? firstProposal.id) : undefined;
  const subOrgName = subOrgs.data?.results.find((s) => s.id === account.data?.subOrgId)?.name;

  if (account.isPending) return <DetailLoading label="Loading the bank account" />;
  if (account.isError)
    return <DetailFailed kind="Bank account" back={<BackToBankAccounts />} query={account} />;

  const data = { ...account.data, id: account.data.id ?? bankAccountId };
  const title = data.accountName || 'Bank account';
  const own = Boolean(permissions.memberId) && data.createdById === permissions.memberId;
  return (
    // The first screen the server renders ends here (entry-server.tsx).
    <section
      id="bank-account-page"
      aria-labelledby="bank-account-title"
      className="flex flex-col gap-6"
    >
      <title>{`${title} · Bank accounts · Custody Console`}</title>
      <BackToBankAccounts />
      <DetailHeading id="bank-account-title" title={title} status={data.status} />
      <ProposalDecision
        current={{ kind: 'BANK_ACCOUNT', id: data.id, createdAt: data.createdAt }}
        waiting={data.status === 'PENDING'}
        canApprove={permissions.canApprove}
        own={own}
        memberId={permissions.memberId}
        proposedWhat="this account"
        prompt="This account is waiting for a decision. Check its details against the counterparty’s instructions before approving."
        dialogs={decideBankAccountDialog}
        dialog={(m, controls) => (
          <m.DecideBankAccountDialog
            account={data}
            subOrgName={subOrgName}
            proposedBy={proposedBy}
            {...controls}
          />
        )}
      />
      <section aria-labelledby="bank-account-details-title" className="flex flex-col gap-2">
        <h2 id="bank-account-details-title" className="text-lg font-semibold text-slate-900">
          Details
        </h2>
        <NumbersAndFields
          account={data}
          bankAccountId={bankAccountId}
          canReveal={permissions.canReveal}
          subOrgName={subOrgName}
          proposedBy={proposedBy}
        />
      </section>
      <SignaturesPanel entityId={data.id} revision={data.status} />
      {extras}
      <HistoryPanel query={history}>
        {(found) => <ChangeRequestHistoryList history={found} />}
      </HistoryPanel>
    </section>
  );
}

function NumbersAndFields({
  account,
  bankAccountId,
  canReveal,
  subOrgName,
  proposedBy,
}: {
  account: BankAccount;
  bankAccountId: string;
  canReveal: boolean;
  subOrgName: string | undefined;
  proposedBy: string | undefined;
}) {
  const reveal = useRevealBankAccount();
  const revealed = reveal.data;
  return (
    <BankAccountFields
      account={account}
      revealed={revealed}
      subOrgName={subOrgName}
      proposedBy={proposedBy}
      numberActions={
        canReveal ? (
          <span className="flex flex-col gap-1">
            <Button
              size="sm"
              disabled={reveal.isPending}
              // Hiding drops the numbers from memory; revealing again asks (and audits) again.
              onClick={() => (revealed ? reveal.reset() : reveal.mutate(bankAccountId))}
            >
              {reveal.isPending
                ? 'Revealing…'
                : revealed
                  ? 'Hide full numbers'
                  : 'Reveal full numbers'}
            </Button>
            {reveal.isError ? (
              <span role="alert" className="text-xs text-red-800">
                {describeError(reveal.error)}
              </span>
            ) : null}
          </span>
        ) : null
      }
    />
  );
}
