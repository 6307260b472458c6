import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type ReactNode } from 'react';
import type { BankAccount } from '#contract/bank-account.ts';
import type { ApprovalAction } from '#contract/approvals.ts';
import { InboxItemNavigation } from '../../../components/inbox-item-navigation.tsx';
import { ErrorState } from '../../../components/query-state.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { humanize } from '../../../lib/labels.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { bankAccountQueries } from '../api/bank-account-queries.ts';
import { useRevealBankAccount } from '../api/reveal-bank-account.ts';
import { BankAccountFields } from './bank-account-fields.tsx';
import { BankAccountHistory } from './bank-account-history.tsx';
import { DecideBankAccountDialog } from './decide-bank-account-dialog.tsx';
import { BackToBankAccounts } from './back-to-bank-accounts.tsx';

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

  if (account.isPending) {
    return (
      <section
        aria-busy="true"
        aria-label="Loading the bank account"
        className="flex flex-col gap-3"
      >
        <Skeleton className="h-8 w-72" />
        <Skeleton className="h-64 w-full" />
      </section>
    );
  }
  if (account.isError) {
    return (
      <section className="flex flex-col gap-4">
        <title>Bank account · Custody Console</title>
        <BackToBankAccounts />
        <h1 className="text-2xl font-semibold text-slate-900">Bank account</h1>
        <ErrorState
          title="This bank account could not be loaded"
          error={account.error}
          onRetry={() => void account.refetch()}
          retrying={account.isFetching}
        />
      </section>
    );
  }

  const data = account.data;
  const title = data.accountName || 'Bank account';
  return (
    // The first screen the server renders ends here (entry-server.tsx).
    <section
      id="bank-account-page"
      aria-labelledby="bank-account-title"
      className="flex flex-col gap-6"
    >
      <title>{`${title} · Bank accounts · Custody Console`}</title>
      <BackToBankAccounts />
      <div className="flex flex-wrap items-center gap-3">
        <h1 id="bank-account-title" className="text-2xl font-semibold text-slate-900">
          {title}
        </h1>
        <StatusBadge status={data.status} />
      </div>
      <Decision
        account={{ ...data, id: data.id ?? bankAccountId }}
        permissions={permissions}
        subOrgName={subOrgName}
        proposedBy={proposedBy}
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
      {extras}
      <section aria-labelledby="bank-account-history-title" className="flex flex-col gap-2">
        <h2 id="bank-account-history-title" className="text-lg font-semibold text-slate-900">
          History
        </h2>
        {history.isPending ? <Skeleton className="h-16 w-full" /> : null}
        {history.isError ? (
          <ErrorState
            title="The history could not be loaded"
            error={history.error}
            onRetry={() => void history.refetch()}
            retrying={history.isFetching}
          />
        ) : null}
        {history.data ? <BankAccountHistory history={history.data} /> : null}
      </section>
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

/**
 * Approve / Decline for an approver who did not propose the account, while
 * it is pending. Everyone else is told why there is nothing to do; the
 * server refuses the same cases whatever the page offers.
 */
const DECISIONS: ReadonlyArray<{
  action: ApprovalAction;
  variant: 'primary' | 'destructive';
  label: string;
}> = [
  { action: 'approve', variant: 'primary', label: 'Approve…' },
  { action: 'reject', variant: 'destructive', label: 'Decline…' },
];

function Decision({
  account,
  permissions,
  subOrgName,
  proposedBy,
}: {
  account: BankAccount & { id: string };
  permissions: BankAccountPermissions;
  subOrgName: string | undefined;
  proposedBy: string | undefined;
}) {
  const [action, setAction] = useState<ApprovalAction | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const outcomeRef = useRef<HTMLParagraphElement>(null);
  const outcomeId = useId();
  const decided = useRef(false);
  const opener = useRef<HTMLButtonElement | null>(null);
  const pending = account.status === 'PENDING';
  const ownProposal = Boolean(permissions.memberId) && account.createdById === permissions.memberId;

  const result = outcome ? (
    <p
      ref={outcomeRef}
      id={outcomeId}
      tabIndex={-1}
      role="status"
      className="rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900 focus:outline-2 focus:outline-blue-700"
    >
      {outcome}
    </p>
  ) : null;

  let body = null;
  if (pending && permissions.canApprove && ownProposal) {
    body = (
      <p className="rounded-md border border-slate-300 bg-white p-3 text-sm text-slate-800">
        You proposed this account, so another member must approve or decline it.
      </p>
    );
  } else if (pending && permissions.canApprove) {
    body = (
      <div className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-4">
        <p className="text-sm text-slate-900">
          This account is waiting for a decision. Check its details against the counterparty’s
          instructions before approving.
        </p>
        <div className="flex flex-wrap gap-2">
          {DECISIONS.map(({ action, variant, label }) => (
            <Button
              key={action}
              variant={variant}
              onClick={(event) => {
                // Focus returns here when the dialog closes.
                opener.current = event.currentTarget;
                setAction(action);
              }}
            >
              {label}
            </Button>
          ))}
        </div>
      </div>
    );
  }
  // The outcome keeps its place while the page refreshes, so focus stays on it.
  return (
    <>
      {result}
      {/* Opened from the approvals inbox: its previous and next items, and after a decision the next one to decide. */}
      <InboxItemNavigation
        current={{ kind: 'BANK_ACCOUNT', id: account.id, createdAt: account.createdAt }}
        decided={outcome !== null}
        outcomeId={outcomeId}
      />
      {body}
      {action ? (
        <DecideBankAccountDialog
          account={account}
          action={action}
          open
          onOpenChange={(open) => !open && setAction(null)}
          subOrgName={subOrgName}
          proposedBy={proposedBy}
          onCloseAutoFocus={(event) => {
            // Radix returns focus to a DialogTrigger, and this dialog has none (it is
            // mounted to open): left alone, focus would fall to <body>. Cancelled: back
            // to the button that opened it. Decided: those buttons are going, so to
            // what happened — unless the inbox's next item has taken it already (it is read
            // with the outcome).
            event.preventDefault();
            if (!decided.current) opener.current?.focus();
            else if (!document.activeElement || document.activeElement === document.body)
              outcomeRef.current?.focus();
          }}
          onDecided={(status) => {
            decided.current = true;
            setAction(null);
            setOutcome(
              `${humanize(status === 'REJECTED' ? 'DECLINED' : status)}: the decision is recorded.`,
            );
          }}
        />
      ) : null}
    </>
  );
}
