import { useId } from 'react';
import { BANK_ACCOUNT_STATUSES, PAYMENT_METHODS } from '#contract/enums.ts';
import * as ListFilter from '../../../components/list-filters.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { humanize, paymentMethodLabel } from '../../../lib/labels.ts';
import type { BankAccountSearchFilters } from '../search.ts';

const SELECTS: ListFilter.SelectSpec<BankAccountSearchFilters>[] = [
  {
    name: 'status',
    label: 'Status',
    allLabel: 'All statuses',
    options: ListFilter.enumOptions(BANK_ACCOUNT_STATUSES, humanize),
  },
  {
    name: 'paymentMethod',
    label: 'Payment method',
    allLabel: 'All payment methods',
    options: ListFilter.enumOptions(PAYMENT_METHODS, paymentMethodLabel),
  },
];

/** Status and payment method apply as they change; the country once it is a whole code. */
export function BankAccountFilters(filters: ListFilter.Props<BankAccountSearchFilters>) {
  const id = useId();
  const { onChange } = filters;
  // Typed here; applied once it is a whole two-letter code (or cleared).
  const typed = ListFilter.useTextDrafts(filters.value, ['country']);
  return (
    <ListFilter.Form label="Bank account filters" className="flex flex-wrap items-end">
      <ListFilter.Selects className="w-56" {...filters} selects={SELECTS} />
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
      <ListFilter.Actions {...filters} apply={false} />
    </ListFilter.Form>
  );
}
