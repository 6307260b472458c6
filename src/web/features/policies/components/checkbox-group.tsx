import { useController, type Control, type FieldPath } from 'react-hook-form';
import { describedBy, FieldNotes } from '../../../components/ui/field.tsx';
import type { PolicyForm } from '../policy-form.ts';
import { Choice } from '../../../components/ui/input.tsx';

export interface CheckboxOption {
  value: string;
  label: string;
  /** What choosing it means, said under the label and read with the box. */
  description?: string;
}

/**
 * A list condition as a group of checkboxes: a fieldset named by its legend,
 * the hint and the contract's refusal tied to it, the first box taking focus
 * when the refusal is the form's first. None chosen: the hint says what that means.
 */
export function CheckboxGroup({
  control,
  name,
  id,
  legend,
  hint,
  options,
}: {
  control: Control<PolicyForm, unknown, unknown>;
  name: FieldPath<PolicyForm>;
  id: string;
  legend: string;
  hint?: string;
  options: CheckboxOption[];
}) {
  const { field, fieldState } = useController({ control, name });
  const chosen = Array.isArray(field.value) ? (field.value as string[]) : [];
  const error = fieldState.error?.message;
  const described = options.some((option) => option.description);
  return (
    <fieldset
      className="flex min-w-0 flex-col gap-1"
      aria-describedby={describedBy(id, { hint, error })}
      aria-invalid={error ? true : undefined}
    >
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <div
        className={
          described ? 'grid gap-x-4 gap-y-2 sm:grid-cols-2' : 'flex flex-wrap gap-x-4 gap-y-1'
        }
      >
        {options.map((option, index) => {
          const aboutId = option.description ? `${id}-${option.value}-about` : undefined;
          const box = (
            <label className="flex items-center gap-2 text-sm">
              <Choice
                type="checkbox"
                className="size-4"
                ref={index === 0 ? field.ref : undefined}
                name={field.name}
                value={option.value}
                aria-describedby={aboutId}
                checked={chosen.includes(option.value)}
                onBlur={field.onBlur}
                onChange={(event) =>
                  field.onChange(
                    event.target.checked
                      ? [...chosen, option.value]
                      : chosen.filter((v) => v !== option.value),
                  )
                }
              />
              {option.label}
            </label>
          );
          if (!aboutId) return <div key={option.value}>{box}</div>;
          return (
            <div key={option.value} className="flex min-w-0 flex-col">
              {box}
              <p id={aboutId} className="ml-6 text-xs text-slate-700">
                {option.description}
              </p>
            </div>
          );
        })}
      </div>
      <FieldNotes id={id} hint={hint} error={error} />
    </fieldset>
  );
}
