import { createContext, useContext, useId, useState, type FormEvent, type ReactNode } from 'react';
import { cn } from '../lib/cn.ts';
import { useTimeZone } from '../lib/display.tsx';
import { DayInput } from './day-input.tsx';
import { Button } from './ui/button.tsx';
import { describedBy, Field } from './ui/field.tsx';
import { Input } from './ui/input.tsx';
import { Select as NativeSelect } from './ui/select.tsx';

/**
 * The pieces a list's filter form is built from, used as a namespace
 * (`import * as ListFilter`): `ListFilter.Form` around `ListFilter.Selects`,
 * `ListFilter.DayRange`, `ListFilter.Text` and `ListFilter.Actions`. Selects
 * and days apply as they change; typed text on "Apply filters" (or Enter),
 * so typing does not fire a request per key.
 */

/** A filter form's props: the filters now in the URL, and the ways to change or clear them. */
export interface Props<Filters> {
  value: Filters;
  /** Applies a change; the list starts again from its first page. */
  onChange: (patch: Partial<Filters>) => void;
  onClear: () => void;
}

// The form's id prefix, so each control's id (`${prefix}-${name}`) is unique on the page.
const IdPrefix = createContext('filter');

/** The id of the form's control for `name`. */
export function useFieldId(name: string): string {
  return `${useContext(IdPrefix)}-${name}`;
}

export interface Option {
  value: string;
  label: string;
}

/** Enum values as options, each labelled by `label` (e.g. `humanize`). */
export function enumOptions(values: readonly string[], label: (value: string) => string): Option[] {
  return values.map((value) => ({ value, label: label(value) }));
}

/**
 * A list filter as a labelled native select whose first option clears it
 * ("All statuses"). The URL's current value stays selectable even when the
 * options do not (yet) hold it — a bookmark naming a vault still loading.
 * Applies as soon as it changes.
 */
export function Select<V extends string>({
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
  options: readonly Option[];
  onChange: (value: V | undefined) => void;
  className?: string;
}) {
  const shown =
    value && !options.some((o) => o.value === value)
      ? [...options, { value, label: value }]
      : options;
  return (
    <Field id={id} label={label} className={className}>
      <NativeSelect
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
      </NativeSelect>
    </Field>
  );
}

/** One select of a filter form: which filter it sets, its label, its "All …" option, its options. */
export interface SelectSpec<Filters> {
  name: keyof Filters & string;
  label: string;
  allLabel: string;
  options: readonly Option[];
}

/** A filter form's selects, in order, each applying its own filter as it changes. */
export function Selects<Filters extends object>({
  selects,
  value,
  onChange,
  className,
}: {
  selects: readonly SelectSpec<Filters>[];
  value: Filters;
  onChange: (patch: Partial<Filters>) => void;
  /** Each select's width, where the form is not a grid. */
  className?: string;
}) {
  const prefix = useContext(IdPrefix);
  return selects.map(({ name, ...select }) => (
    <Select
      key={name}
      id={`${prefix}-${name}`}
      {...select}
      className={className}
      value={value[name] as string | undefined}
      onChange={(next) => onChange({ [name]: next } as Partial<Filters>)}
    />
  ));
}

/** The form: a named search landmark; Enter applies the typed filters through `onApply`. */
export function Form({
  label,
  onApply,
  className,
  children,
}: {
  label: string;
  onApply?: () => void;
  className?: string;
  children: ReactNode;
}) {
  const id = useId();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    onApply?.();
  };
  return (
    <form
      role="search"
      aria-label={label}
      onSubmit={onSubmit}
      className={cn('gap-3 rounded-lg border border-slate-300 bg-white p-4', className)}
    >
      <IdPrefix value={id}>{children}</IdPrefix>
    </form>
  );
}

/** "Apply filters" where some filter is typed, and "Reset filters" once any filter is set. */
export function Actions({
  value,
  onClear,
  apply = true,
}: {
  value: object;
  onClear: () => void;
  apply?: boolean;
}) {
  const anyActive = Object.values(value).some((v) => v !== undefined);
  return (
    <>
      {apply ? (
        <Button type="submit" variant="primary">
          Apply filters
        </Button>
      ) : null}
      {anyActive ? (
        <Button variant="ghost" onClick={onClear}>
          Reset filters
        </Button>
      ) : null}
    </>
  );
}

type TextKeys<Filters> = {
  [K in keyof Filters & string]: Filters[K] extends string | undefined ? K : never;
}[keyof Filters & string];

/**
 * The typed text of a form's text filters, kept until applied. When the URL
 * changes one of them under the form (Reset, Back) the drafts show what it
 * now says; a select or a day applying meanwhile keeps what is being typed.
 */
export function useTextDrafts<Filters extends object, K extends TextKeys<Filters>>(
  value: Filters,
  keys: readonly K[],
) {
  const read = () => keys.map((key) => (value[key] as string | undefined) ?? '');
  const [drafts, setDrafts] = useState(read);
  const [shown, setShown] = useState(read);
  const now = read();
  if (now.some((v, i) => v !== shown[i])) {
    setShown(now);
    setDrafts(now);
  }
  return {
    draft: (key: K) => drafts[keys.indexOf(key)] ?? '',
    setDraft: (key: K, text: string) =>
      setDrafts((d) => d.map((v, i) => (keys[i] === key ? text : v))),
    /** Applies the trimmed drafts that differ from the URL (an empty one clears its filter), if any. */
    apply: (onChange: (patch: Partial<Filters>) => void) => {
      const patch: Record<string, string | undefined> = {};
      keys.forEach((key, i) => {
        const next = drafts[i]?.trim() || undefined;
        if (next !== value[key]) patch[key] = next;
      });
      if (Object.keys(patch).length > 0) onChange(patch as Partial<Filters>);
    },
  };
}

/** A typed filter, applied with the form. */
export function Text({
  name,
  label,
  value,
  onChange,
  className,
}: {
  /** Names its control's id. */
  name: string;
  label: string;
  value: string;
  onChange: (text: string) => void;
  className?: string;
}) {
  const id = useFieldId(name);
  return (
    <Field id={id} label={label} className={className}>
      <Input
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        spellCheck={false}
        autoComplete="off"
      />
    </Field>
  );
}

/**
 * From and To as whole days in the member's time zone, setting the filters
 * named in `range` to days (`YYYY-MM-DD`): the list reads From as the start
 * of its day and To as the end of its, there (lib/list-search.ts), so both
 * days are included; the hint names the zone. Neither may cross the other: a
 * day that would (typed, since the picker's min and max do not stop typing)
 * is kept in its field with an error naming the rule and not applied, rather
 * than listing nothing; a crossed range in the URL (an old bookmark) is named
 * the same way.
 */
export function DayRange<Filters extends object, K extends TextKeys<Filters>>({
  labels: [fromLabel, toLabel],
  range: [fromKey, toKey],
  value,
  onChange,
}: {
  labels: readonly [string, string];
  /** The filters holding the range, as days: its start and its end. */
  range: readonly [K, K];
  value: Filters;
  onChange: (patch: Partial<Filters>) => void;
}) {
  const prefix = useContext(IdPrefix);
  const hint = `Days in ${useTimeZone()}, both included`;
  const fromDay = (value[fromKey] as string | undefined) ?? '';
  const toDay = (value[toKey] as string | undefined) ?? '';
  // A day typed that would cross the other end, held back: which end, and the day.
  const [refused, setRefused] = useState<{ end: 'from' | 'to'; day: string } | null>(null);
  const crossedInUrl = fromDay !== '' && toDay !== '' && fromDay > toDay;
  const errorOf = (end: 'from' | 'to'): string | undefined => {
    if (refused?.end === end)
      return end === 'from'
        ? `${fromLabel} must be on or before ${toLabel} (${toDay}).`
        : `${toLabel} must be on or after ${fromLabel} (${fromDay}).`;
    if (crossedInUrl && end === 'to')
      return `${toLabel} is before ${fromLabel}: nothing can match. Change either day.`;
    return undefined;
  };
  const ends = [
    { key: fromKey, end: 'from', label: fromLabel, day: fromDay, max: toDay },
    { key: toKey, end: 'to', label: toLabel, day: toDay, min: fromDay },
  ];
  return ends.map(({ key, end, label, day: shown, min, max }) => {
    const id = `${prefix}-${end}`;
    const error = errorOf(end as 'from' | 'to');
    return (
      <Field key={end} id={id} label={label} hint={hint} error={error}>
        <DayInput
          id={id}
          aria-describedby={describedBy(id, { hint, error })}
          aria-invalid={error ? true : undefined}
          value={shown}
          min={min || undefined}
          max={max || undefined}
          onDayChange={(day) => {
            const crosses = day !== '' && ((min && day < min) || (max && day > max));
            if (crosses) {
              setRefused({ end: end as 'from' | 'to', day });
              return;
            }
            setRefused(null);
            onChange({ [key]: day || undefined } as Partial<Filters>);
          }}
        />
      </Field>
    );
  });
}
