import { useQuery } from '@tanstack/react-query';
import type { ChangeRequestRecord } from '#contract/change-request.ts';
import { chainLabel } from '#contract/chains.ts';
import { ChangeRequestHistoryList } from '../../../components/change-request-history.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import {
  DetailFailed,
  DetailHeading,
  DetailLoading,
  HistoryPanel,
} from '../../../components/detail-page.tsx';
import { Fact } from '../../../components/fact.tsx';
import { Panel } from '../../../components/panel.tsx';
import { ProposalDecision } from '../../../components/proposal-decision.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { contactQueries } from '../api/contact-queries.ts';
import { assetsText } from './assets-text.ts';
import { BackToContacts } from './back-to-contacts.tsx';
import { ChangeAssetsForm } from './change-assets-form.tsx';
import { onDemand } from '../../../components/on-demand.tsx';
import { SignaturesPanel } from '../../../components/signatures-panel.tsx';

// With the dialog, passkey and card-signing code: loaded when an approver opens it.
const decideContactDialog = onDemand(() => import('./decide-contact-dialog.tsx'));

export interface ContactPermissions {
  /** The member's id: a member never decides what they proposed. */
  memberId: string | undefined;
  canApprove: boolean;
  canPropose: boolean;
}

/** What a record proposed: the contact, or a new asset list for it. */
function proposal(record: ChangeRequestRecord): string {
  const list = record.proposedChange?.assetList;
  if (!record.proposedChange) return 'Contact proposed';
  return `Assets ${list && list.length > 0 ? list.join(', ') : 'any asset'} proposed`;
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

  if (contact.isPending) return <DetailLoading label="Loading the contact" />;
  if (contact.isError)
    return <DetailFailed kind="Contact" back={<BackToContacts />} query={contact} />;

  const data = { ...contact.data, id: contact.data.id ?? contactId };
  const title = data.name || 'Contact';
  const subOrgName = subOrgs.data?.results.find((s) => s.id === data.subOrgId)?.name;
  // Who proposed what waits now (the contact, or a change to it): four eyes are about them.
  const waiting = history.data?.results.findLast((r) => r.status === 'PENDING');
  const proposedById =
    waiting?.proposedBy?.id ?? (data.status === 'PENDING' ? data.createdById : undefined);
  return (
    // The first screen the server renders ends here (entry-server.tsx).
    <section id="contact-page" aria-labelledby="contact-title" className="flex flex-col gap-6">
      <title>{`${title} · Address book · Custody Console`}</title>
      <BackToContacts />
      <DetailHeading id="contact-title" title={title} status={data.status}>
        {data.pendingAssetList ? <Badge tone="warning">Asset change waiting</Badge> : null}
      </DetailHeading>
      <ProposalDecision
        current={{ kind: 'CONTACT', id: data.id, createdAt: data.createdAt }}
        waiting={data.status === 'PENDING' || Boolean(data.pendingAssetList)}
        canApprove={permissions.canApprove}
        own={Boolean(permissions.memberId) && proposedById === permissions.memberId}
        memberId={permissions.memberId}
        prompt={`${data.pendingAssetList ? 'This change to its assets' : 'This contact'} is waiting for a decision. Check the chain and the whole address against the counterparty’s own instructions before approving.`}
        dialogs={decideContactDialog}
        dialog={(m, controls) => <m.DecideContactDialog contact={data} {...controls} />}
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
          <Fact term="Assets it may receive">{assetsText(data.assetList)}</Fact>
          {data.pendingAssetList ? (
            <Fact term="Assets proposed">
              {assetsText(data.pendingAssetList)} (waiting for approval)
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
      <SignaturesPanel
        entityId={data.id}
        revision={`${data.status ?? ''}:${data.pendingAssetList ? 'asset change' : ''}`}
      />
      <HistoryPanel query={history}>
        {(found) => <ChangeRequestHistoryList history={found} proposed={proposal} />}
      </HistoryPanel>
    </section>
  );
}
