import { useId, useState } from 'react';
import { BANK_ACCOUNT_STATUSES, PAYMENT_METHODS } from '../../../../contract/enums.ts';
import { SelectFilter, enumOptions } from '../../../components/select-filter.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { humanize, paymentMethodLabel } from '../../../lib/labels.ts';
import type { BankAccountSearchFilters } from '../search.ts';

const STATUS_OPTIONS = enumOptions(BANK_ACCOUNT_STATUSES, humanize);
const PAYMENT_METHOD_OPTIONS = enumOptions(PAYMENT_METHODS, paymentMethodLabel);

export function BankAccountFilters({
  value,
  onChange,
  onClear,
}: {
  value: BankAccountSearchFilters;
  onChange: (patch: Partial<BankAccountSearchFilters>) => void;
  onClear: () => void;
}) {
  const id = useId();
  const anyActive =
    value.status !== undefined || value.paymentMethod !== undefined || value.country !== undefined;
  // Typed here; applied once it is a whole two-letter code (or cleared).
  const [country, setCountry] = useState(value.country ?? '');
  const [shown, setShown] = useState(value.country);
  if (shown !== value.country) {
    setShown(value.country);
    setCountry(value.country ?? '');
  }

  return (
    <form
      role="search"
      aria-label="Bank account filters"
      onSubmit={(e) => e.preventDefault()}
      className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-300 bg-white p-4"
    >
      <SelectFilter
        id={`${id}-status`}
        label="Status"
        allLabel="All statuses"
        className="w-56"
        value={value.status}
        options={STATUS_OPTIONS}
        onChange={(status) => onChange({ status })}
      />
      <SelectFilter
        id={`${id}-payment-method`}
        label="Payment method"
        allLabel="All payment methods"
        className="w-56"
        value={value.paymentMethod}
        options={PAYMENT_METHOD_OPTIONS}
        onChange={(paymentMethod) => onChange({ paymentMethod })}
      />
      <Field id={`${id}-country`} label="Country" hint="Two-letter code, like DE" className="w-40">
        <Input
          id={`${id}-country`}
          aria-describedby={`${id}-country-hint`}
          value={country}
          maxLength={2}
          autoComplete="off"
          className="uppercase"
          onChange={(e) => {
            const next = e.target.value.toUpperCase();
            setCountry(next);
            if (next === '') onChange({ country: undefined });
            else if (/^[A-Z]{2}$/.test(next)) onChange({ country: next });
          }}
        />
      </Field>
      {anyActive ? (
        <Button variant="ghost" onClick={onClear}>
          Reset filters
        </Button>
      ) : null}
    </form>
  );
}
