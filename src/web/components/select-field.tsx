import type { ComponentProps } from 'react';
import { Field, describedBy } from './ui/field.tsx';
import { Select } from './ui/select.tsx';

export interface Option {
  value: string;
  label: string;
}

/** A labelled select with a "choose…" first option, its hint and its error tied to it. */
export function SelectField({
  id,
  label,
  hint,
  error,
  placeholder,
  options,
  ...select
}: {
  id: string;
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  placeholder?: string | undefined;
  options: Option[];
} & Omit<ComponentProps<'select'>, 'id'>) {
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      <Select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { hint, error })}
        {...select}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
    </Field>
  );
}
