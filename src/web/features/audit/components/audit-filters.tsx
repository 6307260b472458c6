import { useId } from 'react';
import { AUDIT_OUTCOMES } from '../../../../contract/auth.ts';
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
import type { AuditSearchFilters } from '../search.ts';

const TEXT_FIELDS = [
  { name: 'action', label: 'Action' },
  { name: 'entityId', label: 'Entity ID' },
] as const;
const TYPED = TEXT_FIELDS.map((field) => field.name);

const OUTCOME_OPTIONS = enumOptions(AUDIT_OUTCOMES, humanize);

/**
 * Actor, outcome and dates apply as they change; the text filters on "Apply
 * filters" (or Enter), so typing does not fire a request per key.
 */
export function AuditFilters({
  value,
  actorOptions,
  onChange,
  onClear,
}: FilterProps<AuditSearchFilters> & {
  /** Staff members by name; an actor id from the URL that is not among them stays selectable. */
  actorOptions: FilterOption[];
}) {
  const id = useId();
  const typed = useTextDrafts(value, TYPED);
  return (
    <FilterForm
      label="Audit log filters"
      onApply={() => typed.apply(onChange)}
      className="grid grid-cols-[repeat(auto-fill,minmax(11rem,1fr))] items-end"
    >
      {TEXT_FIELDS.map(({ name, label }) => (
        <TextFilter
          key={name}
          id={`${id}-${name}`}
          label={label}
          value={typed.draft(name)}
          onChange={(text) => typed.setDraft(name, text)}
        />
      ))}
      <SelectFilters
        idPrefix={id}
        value={value}
        onChange={onChange}
        selects={[
          { name: 'actorId', label: 'Actor', allLabel: 'All actors', options: actorOptions },
          { name: 'outcome', label: 'Outcome', allLabel: 'All outcomes', options: OUTCOME_OPTIONS },
        ]}
      />
      <DayRangeFilter
        idPrefix={id}
        labels={['From (UTC day)', 'To (UTC day)']}
        range={['atGte', 'atLte']}
        value={value}
        onChange={onChange}
      />
      <div className="flex gap-2">
        <FilterActions value={value} onClear={onClear} />
      </div>
    </FilterForm>
  );
}
