import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId, useRef, useState } from 'react';
import type { ApprovalAction } from '#contract/approvals.ts';
import { chainLabel } from '#contract/chains.ts';
import type { Contact } from '#contract/reference.ts';
import { CopyButton } from '../../../components/copy-button.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { Fact } from '../../../components/fact.tsx';
import { InboxItemNavigation } from '../../../components/inbox-item-navigation.tsx';
import { Panel } from '../../../components/panel.tsx';
import { ErrorState } from '../../../components/query-state.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { humanize } from '../../../lib/labels.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { contactQueries } from '../api/contact-queries.ts';
import { ChangeAssetsForm } from './change-assets-form.tsx';
import { ContactHistory } from './contact-history.tsx';
import { DecideContactDialog } from './decide-contact-dialog.tsx';

export interface ContactPermissions {
  /** The member's id: a member never decides what they proposed. */
  memberId: string | undefined;
  canApprove: boolean;
  canPropose: boolean;
}

const assets = (list: readonly string[] | null | undefined) =>
  list && list.length > 0 ? list.join(', ') : 'Any asset of its chain';

function BackToContacts() {
  return (
    <p>
      <Link
        to="/contacts"
        className="text-sm font-medium text-blue-800 underline hover:text-blue-900"
      >
        Back to the address book
      </Link>
    </p>
  );
}

/** `/contacts/$contactId`: every field, what waits on it and the decision when it is the member's to make, its history. */
export function ContactDetailPage({
  contactId,
  permissions,
}: {
  contactId: string;
  permissions: ContactPermissions;
}) {
  const contact = useQuery(contactQueries.detail(contactId));
  const history = useQuery(contactQueries.history(contactId));
  const subOrgs = useQuery(referenceQueries.subOrgs());

  if (contact.isPending) {
    return (
      <section aria-busy="true" aria-label="Loading the contact" className="flex flex-col gap-3">
        <Skeleton className="h-8 w-72" />
        <Skeleton className="h-64 w-full" />
      </section>
    );
  }
  if (contact.isError) {
    return (
      <section className="flex flex-col gap-4">
        <title>Contact · Custody Console</title>
        <BackToContacts />
        <h1 className="text-2xl font-semibold text-slate-900">Contact</h1>
        <ErrorState
          title="This contact could not be loaded"
          error={contact.error}
          onRetry={() => void contact.refetch()}
          retrying={contact.isFetching}
        />
      </section>
    );
  }

  const data = { ...contact.data, id: contact.data.id ?? contactId };
  const title = data.name || 'Contact';
  const subOrgName = subOrgs.data?.results.find((s) => s.id === data.subOrgId)?.name;
  // Who proposed what waits now (the contact, or a change to it): four eyes are about them.
  const waiting = history.data?.results.findLast((r) => r.status === 'PENDING');
  const waitingFor = data.status === 'PENDING' || Boolean(data.pendingAssetList);
  return (
    // The first screen the server renders ends here (entry-server.tsx).
    <section id="contact-page" aria-labelledby="contact-title" className="flex flex-col gap-6">
      <title>{`${title} · Address book · Custody Console`}</title>
      <BackToContacts />
      <div className="flex flex-wrap items-center gap-3">
        <h1 id="contact-title" className="text-2xl font-semibold break-words text-slate-900">
          {title}
        </h1>
        <StatusBadge status={data.status} />
        {data.pendingAssetList ? <Badge tone="warning">Asset change waiting</Badge> : null}
      </div>
      <Decision
        contact={data}
        permissions={permissions}
        waiting={waitingFor}
        proposedById={
          waiting?.proposedBy?.id ?? (data.status === 'PENDING' ? data.createdById : undefined)
        }
      />
      <Panel title="Details">
        <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
          <Fact term="Chain">{chainLabel(data.blockChain)}</Fact>
          <Fact term="Address">
            <span className="flex flex-wrap items-center gap-2">
              <span className="font-mono break-all" data-testid="contact-address">
                {data.address}
              </span>
              {data.address ? (
                <CopyButton value={data.address} label={`Copy the address of ${title}`} />
              ) : null}
            </span>
          </Fact>
          <Fact term="Assets it may receive">{assets(data.assetList)}</Fact>
          {data.pendingAssetList ? (
            <Fact term="Assets proposed">
              {assets(data.pendingAssetList)} (waiting for approval)
            </Fact>
          ) : null}
          <Fact term="Smart contract">{data.isSmartContractAddress ? 'Yes' : 'No'}</Fact>
          <Fact term="Sub-organization">
            {data.subOrgId ? (subOrgName ?? data.subOrgId) : 'Whole organization'}
          </Fact>
          <Fact term="Tags">{data.tags && data.tags.length > 0 ? data.tags.join(', ') : '—'}</Fact>
          <Fact term="Your reference">{data.externalId || '—'}</Fact>
          <Fact term="Proposed">{data.createdAt ? <DateTime iso={data.createdAt} /> : '—'}</Fact>
        </dl>
      </Panel>
      {permissions.canPropose && data.status === 'APPROVED' && !data.pendingAssetList ? (
        <ChangeAssetsForm contact={data} />
      ) : null}
      <Panel title="History">
        <div className="mt-3">
          {history.isPending ? <Skeleton className="h-16 w-full" /> : null}
          {history.isError ? (
            <ErrorState
              title="The history could not be loaded"
              error={history.error}
              onRetry={() => void history.refetch()}
              retrying={history.isFetching}
            />
          ) : null}
          {history.data ? <ContactHistory history={history.data} /> : null}
        </div>
      </Panel>
    </section>
  );
}

const DECISIONS: ReadonlyArray<{
  action: ApprovalAction;
  variant: 'primary' | 'destructive';
  label: string;
}> = [
  { action: 'approve', variant: 'primary', label: 'Approve…' },
  { action: 'reject', variant: 'destructive', label: 'Decline…' },
];

/**
 * Approve / Decline for an approver who did not propose what waits (the
 * contact, or a change to its assets). Everyone else is told why there is
 * nothing to do; the server refuses the same cases whatever the page offers.
 */
function Decision({
  contact,
  permissions,
  waiting,
  proposedById,
}: {
  contact: Contact & { id: string };
  permissions: ContactPermissions;
  waiting: boolean;
  proposedById: string | undefined;
}) {
  const [action, setAction] = useState<ApprovalAction | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const outcomeRef = useRef<HTMLParagraphElement>(null);
  const outcomeId = useId();
  const decided = useRef(false);
  const opener = useRef<HTMLButtonElement | null>(null);
  const own = Boolean(permissions.memberId) && proposedById === permissions.memberId;
  const what = contact.pendingAssetList ? 'This change to its assets' : 'This contact';

  let body = null;
  if (waiting && permissions.canApprove && own) {
    body = (
      <p className="rounded-md border border-slate-300 bg-white p-3 text-sm text-slate-800">
        You proposed this, so another member must approve or decline it.
      </p>
    );
  } else if (waiting && permissions.canApprove) {
    body = (
      <div className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-4">
        <p className="text-sm text-slate-900">
          {what} is waiting for a decision. Check the chain and the whole address against the
          counterparty’s own instructions before approving.
        </p>
        <div className="flex flex-wrap gap-2">
          {DECISIONS.map(({ action, variant, label }) => (
            <Button
              key={action}
              variant={variant}
              onClick={(event) => {
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
  return (
    <>
      {outcome ? (
        <p
          ref={outcomeRef}
          id={outcomeId}
          tabIndex={-1}
          role="status"
          className="rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900 focus:outline-2 focus:outline-blue-700"
        >
          {outcome}
        </p>
      ) : null}
      {/* Opened from the approvals inbox: its previous and next items, and after a decision the next one. */}
      <InboxItemNavigation
        current={{ kind: 'CONTACT', id: contact.id, createdAt: contact.createdAt }}
        decided={outcome !== null}
        outcomeId={outcomeId}
      />
      {outcome ? null : body}
      {action ? (
        <DecideContactDialog
          contact={contact}
          action={action}
          onClose={() => {
            setAction(null);
            opener.current?.focus();
          }}
          onDecided={(status) => {
            decided.current = true;
            setAction(null);
            setOutcome(
              `${humanize(status === 'REJECTED' ? 'DECLINED' : status)}: the decision is recorded.`,
            );
            // The buttons are gone: focus goes to what happened.
            queueMicrotask(() => outcomeRef.current?.focus());
          }}
        />
      ) : null}
    </>
  );
}
