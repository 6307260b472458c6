import type { ComponentProps } from 'react';
import type { FieldValues, Path, RegisterOptions, UseFormReturn } from 'react-hook-form';
import { Field, describedBy } from './ui/field.tsx';
import { Input, Textarea } from './ui/input.tsx';
import { SelectField, type Option } from './select-field.tsx';

/**
 * Controls bound to a react-hook-form field by name: the id, the error and
 * the ARIA wiring (aria-invalid, aria-describedby naming the hint and the
 * error) come from the form, so each form only says what is particular to a
 * field. Used by every form of the console (staff, bank accounts, the
 * transaction create forms).
 */

/** A form's own id for a field: `useId` keeps two forms on one page apart. */
export type FieldId = (name: string) => string;

/** What every field control takes: the form and its ids. */
export interface BoundForm<V extends FieldValues> {
  form: UseFormReturn<V, unknown, unknown>;
  fieldId: FieldId;
}

/**
 * The form as a shared field sees it: the fields it shows have the same
 * names and types in every form that shows them (the forms' schemas spread
 * the same shapes), so the wider form is read through those names alone.
 */
export function narrowForm<T extends FieldValues>(form: unknown) {
  return form as UseFormReturn<T, unknown, unknown>;
}

interface Bound<V extends FieldValues> extends BoundForm<V> {
  name: Path<V>;
}

const textareaClass =
  'min-h-24 w-full rounded-md border border-slate-400 bg-white px-3 py-2 font-mono text-sm text-slate-900 focus-visible:border-blue-700 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-700 aria-invalid:border-red-700';

/** The field's error and the props its control takes to be labelled, described and marked invalid. */
export function useBoundControl<V extends FieldValues>(
  { form, fieldId, name }: Bound<V>,
  hint: string | undefined,
  rules?: RegisterOptions<V, Path<V>>,
) {
  // Passing formState subscribes the form to errors, so a new one re-renders it.
  const { error } = form.getFieldState(name, form.formState);
  const id = fieldId(name);
  return {
    id,
    error: error?.message,
    control: {
      id,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': describedBy(id, { hint, error }),
      ...form.register(name, rules),
    },
  };
}

/** A labelled text input (or, `multiline`, a monospace textarea) for one field. */
export function TextField<V extends FieldValues>({
  form,
  fieldId,
  name,
  label,
  hint,
  className,
  multiline = false,
  maxChars,
  notice,
  ...input
}: Bound<V> & {
  label: string;
  hint?: string | undefined;
  className?: string;
  multiline?: boolean;
  /** Shows how many of these characters are used (the rule itself is the schema's). */
  maxChars?: number;
  /**
   * A remark on what was typed that does not block it (whose address this
   * is, whom it only looks like): announced as it appears, and part of the
   * control's description. Null: a field that may have one, none now (its
   * live region is in place before the first one appears, so it is read out).
   */
  notice?: FieldNotice | null | undefined;
} & Pick<ComponentProps<'input'>, 'inputMode' | 'spellCheck' | 'type' | 'autoComplete'>) {
  const { id, error, control } = useBoundControl({ form, fieldId, name }, hint);
  const describedBy = withNotice(
    withCounter(control['aria-describedby'], id, maxChars),
    id,
    !!notice,
  );
  return (
    <Field id={id} label={label} hint={hint} error={error} className={className}>
      {multiline ? (
        <Textarea
          className={textareaClass}
          spellCheck={input.spellCheck}
          {...control}
          aria-describedby={describedBy}
        />
      ) : (
        <Input autoComplete="off" {...input} {...control} aria-describedby={describedBy} />
      )}
      {maxChars ? <CharacterCount form={form} name={name} id={id} max={maxChars} /> : null}
      {notice === undefined ? null : (
        <span aria-live="polite" className="block">
          {notice ? (
            <span
              id={`${id}-notice`}
              data-tone={notice.tone}
              className={
                notice.tone === 'warning'
                  ? 'block rounded border border-amber-300 bg-amber-50 px-2 py-1 text-sm text-amber-900'
                  : 'block text-sm text-slate-800'
              }
            >
              {notice.tone === 'warning' ? <span aria-hidden="true">⚠ </span> : null}
              {notice.text}
            </span>
          ) : null}
        </span>
      )}
    </Field>
  );
}

/** A remark shown under a text field; `warning` when it may be a mistake. */
export interface FieldNotice {
  tone: 'info' | 'warning';
  text: string;
}

function withNotice(describedBy: string | undefined, id: string, shown: boolean) {
  return shown ? [describedBy, `${id}-notice`].filter(Boolean).join(' ') : describedBy;
}

function withCounter(describedBy: string | undefined, id: string, maxChars: number | undefined) {
  if (!maxChars) return describedBy;
  return [describedBy, `${id}-count`].filter(Boolean).join(' ');
}

/**
 * "23 of 500 characters": read with the field (aria-describedby), not
 * announced on every key; past the limit it says by how much.
 */
function CharacterCount<V extends FieldValues>({
  form,
  name,
  id,
  max,
}: {
  form: UseFormReturn<V, unknown, unknown>;
  name: Path<V>;
  id: string;
  max: number;
}) {
  const value: unknown = form.watch(name);
  const used = typeof value === 'string' ? value.length : 0;
  const over = used - max;
  return (
    <p
      id={`${id}-count`}
      className={over > 0 ? 'text-xs font-medium text-red-800' : 'text-xs text-slate-700'}
    >
      {over > 0
        ? `${used} of ${max} characters: ${over} too many.`
        : `${used} of ${max} characters.`}
    </p>
  );
}

/** A labelled select for one field, with a "choose…" first option. */
export function SelectFieldFor<V extends FieldValues>({
  form,
  fieldId,
  name,
  rules,
  ...select
}: Bound<V> & {
  label: string;
  hint?: string | undefined;
  placeholder?: string | undefined;
  options: Option[];
  rules?: RegisterOptions<V, Path<V>>;
}) {
  const { error } = form.getFieldState(name, form.formState);
  return (
    <SelectField
      id={fieldId(name)}
      error={error?.message}
      {...select}
      {...form.register(name, rules)}
    />
  );
}
