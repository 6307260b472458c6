import type { ReactNode } from 'react';
import { cn } from '../../lib/cn.ts';
import { Label } from './label.tsx';

/** The ids a control inside a Field should name in `aria-describedby`. */
export function describedBy(id: string, { hint, error }: { hint?: unknown; error?: unknown }) {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/**
 * A visible label above its control, with an optional hint and error tied
 * to it by id (`${id}-hint`, `${id}-error`); the error is announced as it
 * appears. The control itself sets `aria-invalid` and `aria-describedby`
 * (see `describedBy`).
 */
export function Field({
  id,
  label,
  hint,
  error,
  className,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string | undefined;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('flex min-w-0 flex-col gap-1', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/**
 * What follows a control (or a fieldset's boxes): its hint as `${id}-hint`,
 * then its error (`FieldError`); the ids `describedBy` names.
 */
export function FieldNotes({
  id,
  hint,
  error,
}: {
  id: string;
  hint?: string | undefined;
  error: string | undefined;
}) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-700">
          {hint}
        </p>
      ) : null}
      <FieldError id={id} error={error} />
    </>
  );
}

/**
 * A control's error (or a fieldset's), tied to it as `${id}-error` for its
 * `aria-describedby` and announced as it appears; nothing without one.
 */
export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p id={`${id}-error`} role="alert" className="text-sm text-red-800">
      {error}
    </p>
  ) : null;
}
