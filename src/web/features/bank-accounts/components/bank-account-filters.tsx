import { useId } from 'react';
import { BANK_ACCOUNT_STATUSES, PAYMENT_METHODS } from '../../../../contract/enums.ts';
import type { FilterProps } from '../../../components/cursor-list.tsx';
import { FilterActions, FilterForm, useTextDrafts } from '../../../components/list-filters.tsx';
import { SelectFilters, enumOptions } from '../../../components/select-filter.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { humanize, paymentMethodLabel } from '../../../lib/labels.ts';
import type { BankAccountSearchFilters } from '../search.ts';

const STATUS_OPTIONS = enumOptions(BANK_ACCOUNT_STATUSES, humanize);
const PAYMENT_METHOD_OPTIONS = enumOptions(PAYMENT_METHODS, paymentMethodLabel);
const TYPED = ['country'] as const;

/** Status and payment method apply as they change; the country once it is a whole code. */
export function BankAccountFilters({
  value,
  onChange,
  onClear,
}: FilterProps<BankAccountSearchFilters>) {
  const id = useId();
  // Typed here; applied once it is a whole two-letter code (or cleared).
  const typed = useTextDrafts(value, TYPED);

  return (
    <FilterForm label="Bank account filters" className="flex flex-wrap items-end">
      <SelectFilters
        idPrefix={id}
        className="w-56"
        value={value}
        onChange={onChange}
        selects={[
          { name: 'status', label: 'Status', allLabel: 'All statuses', options: STATUS_OPTIONS },
          {
            name: 'paymentMethod',
            label: 'Payment method',
            allLabel: 'All payment methods',
            options: PAYMENT_METHOD_OPTIONS,
          },
        ]}
      />
      <Field id={`${id}-country`} label="Country" hint="Two-letter code, like DE" className="w-40">
        <Input
          id={`${id}-country`}
          aria-describedby={`${id}-country-hint`}
          value={typed.draft('country')}
          maxLength={2}
          autoComplete="off"
          className="uppercase"
          onChange={(e) => {
            const next = e.target.value.toUpperCase();
            typed.setDraft('country', next);
            if (next === '') onChange({ country: undefined });
            else if (/^[A-Z]{2}$/.test(next)) onChange({ country: next });
          }}
        />
      </Field>
      <FilterActions value={value} onClear={onClear} apply={false} />
    </FilterForm>
  );
}
