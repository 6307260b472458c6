import { Textarea, controlVariants } from './ui/input.tsx';

const REASON_MAX = 500;

/**
 * The reason a decline of a proposal (a bank account, a contact) carries,
 * which the proposer reads: required, at most 500 characters, its error
 * announced and tied to the field. `id` is the textarea's; an empty reason's
 * error is the caller's to set (and focus `id`).
 */
export function DeclineReasonField({
  id,
  value,
  error,
  onChange,
}: {
  id: string;
  value: string;
  error: string | null;
  /** Called with each edit; a non-blank one should clear `error`. */
  onChange: (value: string) => void;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        Reason for declining
      </label>
      <Textarea
        id={id}
        value={value}
        maxLength={REASON_MAX}
        rows={3}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        className={controlVariants({ placement: 'multiline' })}
      />
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-800">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-xs text-slate-700">
          Required, at most {REASON_MAX} characters.
        </p>
      )}
    </div>
  );
}
