import { TRANSACTION_CATEGORIES, TRANSACTION_STATUSES } from '#contract/enums.ts';
import * as ListFilter from '../../../components/list-filters.tsx';
import { humanize } from '../../../lib/labels.ts';
import type { TransactionSearchFilters } from '../search.ts';

const STATUS_OPTIONS = ListFilter.enumOptions(TRANSACTION_STATUSES, humanize);
const CATEGORY_OPTIONS = ListFilter.enumOptions(TRANSACTION_CATEGORIES, humanize);

/**
 * Selects and dates apply as soon as they change; External ID applies on
 * "Apply filters" (or Enter), so typing does not fire a request per key.
 */
export function TransactionFilters({
  vaultOptions,
  assetOptions,
  ...filters
}: ListFilter.Props<TransactionSearchFilters> & {
  vaultOptions: ListFilter.Option[];
  assetOptions: ListFilter.Option[];
}) {
  const typed = ListFilter.useTextDrafts(filters.value, ['externalId']);
  return (
    <ListFilter.Form
      label="Transaction filters"
      onApply={() => typed.apply(filters.onChange)}
      className="grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))]"
    >
      <ListFilter.Selects
        {...filters}
        selects={[
          { name: 'status', label: 'Status', allLabel: 'All statuses', options: STATUS_OPTIONS },
          {
            name: 'category',
            label: 'Category',
            allLabel: 'All categories',
            options: CATEGORY_OPTIONS,
          },
          { name: 'asset', label: 'Asset', allLabel: 'All assets', options: assetOptions },
          { name: 'vaultId', label: 'Vault', allLabel: 'All vaults', options: vaultOptions },
        ]}
      />
      <ListFilter.DayRange
        {...filters}
        labels={['From', 'To']}
        range={['createdAtGte', 'createdAtLte']}
      />
      <div className="col-span-full flex flex-wrap items-end gap-2">
        <ListFilter.Text
          name="external-id"
          label="External ID"
          className="w-full sm:w-72"
          value={typed.draft('externalId')}
          onChange={(text) => typed.setDraft('externalId', text)}
        />
        <ListFilter.Actions {...filters} />
      </div>
    </ListFilter.Form>
  );
}
