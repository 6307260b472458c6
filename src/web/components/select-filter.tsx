import { Field } from './ui/field.tsx';
import { Select } from './ui/select.tsx';

export interface FilterOption {
  value: string;
  label: string;
}

/** Enum values as options, each labelled by `label` (e.g. `humanize`). */
export function enumOptions(
  values: readonly string[],
  label: (value: string) => string,
): FilterOption[] {
  return values.map((value) => ({ value, label: label(value) }));
}

/**
 * A list filter as a labelled native select whose first option clears it
 * ("All statuses"). The URL's current value stays selectable even when the
 * options do not (yet) hold it — a bookmark naming a vault still loading.
 * Applies as soon as it changes.
 */
export function SelectFilter<V extends string>({
  id,
  label,
  allLabel,
  value,
  options,
  onChange,
  className,
}: {
  id: string;
  label: string;
  allLabel: string;
  value: V | undefined;
  options: readonly FilterOption[];
  onChange: (value: V | undefined) => void;
  className?: string;
}) {
  const shown =
    value && !options.some((o) => o.value === value)
      ? [...options, { value, label: value }]
      : options;
  return (
    <Field id={id} label={label} className={className}>
      <Select
        id={id}
        value={value ?? ''}
        onChange={(e) => onChange((e.target.value || undefined) as V | undefined)}
      >
        <option value="">{allLabel}</option>
        {shown.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
    </Field>
  );
}

/** One select of a filter form: which filter it sets, its label, its "All …" option, its options. */
export interface SelectFilterSpec<Filters> {
  name: keyof Filters & string;
  label: string;
  allLabel: string;
  options: readonly FilterOption[];
}

/**
 * A filter form's selects, in order, each applying its own filter as it
 * changes; ids are `${idPrefix}-${name}`.
 */
export function SelectFilters<Filters extends object>({
  idPrefix,
  selects,
  value,
  onChange,
  className,
}: {
  idPrefix: string;
  selects: readonly SelectFilterSpec<Filters>[];
  value: Filters;
  onChange: (patch: Partial<Filters>) => void;
  /** Each select's width, where the form is not a grid. */
  className?: string;
}) {
  return selects.map(({ name, ...select }) => (
    <SelectFilter
      key={name}
      id={`${idPrefix}-${name}`}
      {...select}
      className={className}
      value={value[name] as string | undefined}
      onChange={(next) => onChange({ [name]: next } as Partial<Filters>)}
    />
  ));
}
