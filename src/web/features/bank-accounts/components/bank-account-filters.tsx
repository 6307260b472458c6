import { useId } from 'react';
import { BANK_ACCOUNT_STATUSES, PAYMENT_METHODS } from '../../../../contract/enums.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { humanize, paymentMethodLabel } from '../../../lib/labels.ts';
import type { BankAccountSearchFilters } from '../search.ts';

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
  const anyActive = value.status !== undefined || value.paymentMethod !== undefined;

  return (
    <form
      role="search"
      aria-label="Bank account filters"
      onSubmit={(e) => e.preventDefault()}
      className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-300 bg-white p-4"
    >
      <Field id={`${id}-status`} label="Status" className="w-56">
        <Select
          id={`${id}-status`}
          value={value.status ?? ''}
          onChange={(e) =>
            onChange({
              status: (e.target.value || undefined) as BankAccountSearchFilters['status'],
            })
          }
        >
          <option value="">All statuses</option>
          {BANK_ACCOUNT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {humanize(s)}
            </option>
          ))}
        </Select>
      </Field>
      <Field id={`${id}-payment-method`} label="Payment method" className="w-56">
        <Select
          id={`${id}-payment-method`}
          value={value.paymentMethod ?? ''}
          onChange={(e) =>
            onChange({
              paymentMethod: (e.target.value ||
                undefined) as BankAccountSearchFilters['paymentMethod'],
            })
          }
        >
          <option value="">All payment methods</option>
          {PAYMENT_METHODS.map((m) => (
            <option key={m} value={m}>
              {paymentMethodLabel(m)}
            </option>
          ))}
        </Select>
      </Field>
      {anyActive ? (
        <Button variant="ghost" onClick={onClear}>
          Reset filters
        </Button>
      ) : null}
    </form>
  );
}
