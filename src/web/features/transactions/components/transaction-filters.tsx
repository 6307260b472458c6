import { useId } from 'react';
import { TRANSACTION_CATEGORIES, TRANSACTION_STATUSES } from '../../../../contract/enums.ts';
import type { FilterProps } from '../../../components/cursor-list.tsx';
import {
  DayRangeFilter,
  FilterActions,
  FilterForm,
  TextFilter,
  useTextDrafts,
} from '../../../components/list-filters.tsx';
import {
  SelectFilters,
  enumOptions,
  type FilterOption,
} from '../../../components/select-filter.tsx';
import { humanize } from '../../../lib/labels.ts';
import type { TransactionSearchFilters } from '../search.ts';

const STATUS_OPTIONS = enumOptions(TRANSACTION_STATUSES, humanize);
const CATEGORY_OPTIONS = enumOptions(TRANSACTION_CATEGORIES, humanize);
const TYPED = ['externalId'] as const;

/**
 * Selects and dates apply as soon as they change; External ID applies on
 * "Apply filters" (or Enter), so typing does not fire a request per key.
 */
export function TransactionFilters({
  value,
  vaultOptions,
  assetOptions,
  onChange,
  onClear,
}: FilterProps<TransactionSearchFilters> & {
  vaultOptions: FilterOption[];
  assetOptions: FilterOption[];
}) {
  const id = useId();
  const typed = useTextDrafts(value, TYPED);
  return (
    <FilterForm
      label="Transaction filters"
      onApply={() => typed.apply(onChange)}
      className="grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))]"
    >
      <SelectFilters
        idPrefix={id}
        value={value}
        onChange={onChange}
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
      <DayRangeFilter
        idPrefix={id}
        labels={['From', 'To']}
        hint="UTC day, inclusive"
        range={['createdAtGte', 'createdAtLte']}
        value={value}
        onChange={onChange}
      />
      <div className="col-span-full flex flex-wrap items-end gap-2">
        <TextFilter
          id={`${id}-external-id`}
          label="External ID"
          className="w-full sm:w-72"
          value={typed.draft('externalId')}
          onChange={(text) => typed.setDraft('externalId', text)}
        />
        <FilterActions value={value} onClear={onClear} />
      </div>
    </FilterForm>
  );
}
