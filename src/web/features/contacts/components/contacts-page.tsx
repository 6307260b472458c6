import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { CHAINS, chainLabel } from '#contract/chains.ts';
import { CONTACT_STATUSES } from '#contract/enums.ts';
import type { Contact } from '#contract/reference.ts';
import { CopyButton } from '../../../components/copy-button.tsx';
import { CursorListPage, type ListPageProps } from '../../../components/cursor-list.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import * as ListFilter from '../../../components/list-filters.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { buttonVariants } from '../../../components/ui/button.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { TableCell, TableRow } from '../../../components/ui/table.tsx';
import { shortAddress } from '../../../lib/approval-inbox-items.ts';
import { humanize } from '../../../lib/labels.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { contactQueries } from '../api/contact-queries.ts';
import { contactSearch, type ContactSearch, type ContactSearchFilters } from '../search.ts';

const CONTACTS_LIST = {
  id: 'contacts',
  nouns: { list: 'contacts', title: 'Address book', one: 'contact', many: 'contacts' },
  search: contactSearch,
  table: {
    label: 'Contacts',
    caption: 'Contacts (approved destinations), newest first',
    columns: ['Name', 'Status', 'Chain', 'Address', 'Assets', 'Sub-organization', 'Proposed'],
  },
};

const SELECTS: ListFilter.SelectSpec<ContactSearchFilters>[] = [
  {
    name: 'status',
    label: 'Status',
    allLabel: 'All statuses',
    options: ListFilter.enumOptions(CONTACT_STATUSES, humanize),
  },
  {
    name: 'blockChain',
    label: 'Chain',
    allLabel: 'All chains',
    options: CHAINS.map((c) => ({ value: c.value, label: c.label })),
  },
];

function ContactFilters(filters: ListFilter.Props<ContactSearchFilters>) {
  const typed = ListFilter.useTextDrafts(filters.value, ['name']);
  return (
    <ListFilter.Form
      label="Contact filters"
      onApply={() => typed.apply(filters.onChange)}
      className="grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] items-end"
    >
      <ListFilter.Text
        name="name"
        label="Name contains"
        value={typed.draft('name')}
        onChange={(text) => typed.setDraft('name', text)}
      />
      <ListFilter.Selects {...filters} selects={SELECTS} />
      <div className="flex gap-2">
        <ListFilter.Actions {...filters} />
      </div>
    </ListFilter.Form>
  );
}

const dash = <span className="text-slate-700">—</span>;
const assets = (list: readonly string[] | null | undefined) =>
  list && list.length > 0 ? list.join(', ') : 'Any asset';

function ContactRow({ contact, subOrgName }: { contact: Contact; subOrgName: string | undefined }) {
  const name = contact.name || 'Contact';
  return (
    <TableRow data-contact-id={contact.id}>
      <TableCell className="font-medium">
        {contact.id ? (
          <Link
            to="/contacts/$contactId"
            params={{ contactId: contact.id }}
            search={(prev) => ({ subOrg: (prev as { subOrg?: string }).subOrg })}
            className="text-blue-800 underline hover:text-blue-900"
          >
            {name}
          </Link>
        ) : (
          name
        )}
      </TableCell>
      <TableCell>
        <span className="flex flex-col items-start gap-1">
          <StatusBadge status={contact.status} />
          {contact.pendingAssetList ? <Badge tone="warning">Asset change waiting</Badge> : null}
        </span>
      </TableCell>
      <TableCell className="whitespace-nowrap">{chainLabel(contact.blockChain) || dash}</TableCell>
      <TableCell className="whitespace-nowrap">
        {contact.address ? (
          <span className="flex items-center gap-1">
            <span className="font-mono" title={contact.address}>
              {shortAddress(contact.address)}
            </span>
            <CopyButton value={contact.address} label={`Copy the address of ${name}`} />
          </span>
        ) : (
          dash
        )}
      </TableCell>
      <TableCell>{assets(contact.assetList)}</TableCell>
      <TableCell>
        {contact.subOrgId ? (subOrgName ?? contact.subOrgId) : 'Whole organization'}
      </TableCell>
      <TableCell className="whitespace-nowrap">
        {contact.createdAt ? <DateTime iso={contact.createdAt} /> : dash}
      </TableCell>
    </TableRow>
  );
}

/** `/contacts`: the address book; the URL search is the page's whole state (see CursorListPage). */
export function ContactsPage({
  canPropose = false,
  ...props
}: ListPageProps<ContactSearch> & { canPropose?: boolean }) {
  const query = useQuery(contactQueries.list(contactSearch.toListParams(props.search)));
  const subOrgs = useQuery(referenceQueries.subOrgs());
  const subOrgName = (id: string | null | undefined) =>
    subOrgs.data?.results.find((s) => s.id === id)?.name;
  return (
    <CursorListPage
      spec={CONTACTS_LIST}
      query={query}
      {...props}
      intro={
        <>
          <p className="text-sm text-slate-700">
            Transfers go only to approved contacts, and only in the assets approved for them. Each
            is proposed, then approved or declined by another member.
          </p>
          {canPropose ? (
            <p>
              <Link
                to="/contacts/new"
                search={{ subOrg: props.search.subOrg }}
                className={buttonVariants({ variant: 'primary' })}
              >
                Propose contact
              </Link>
            </p>
          ) : null}
        </>
      }
      filters={(filters) => <ContactFilters {...filters} />}
    >
      {(contact) => <ContactRow contact={contact} subOrgName={subOrgName(contact.subOrgId)} />}
    </CursorListPage>
  );
}
