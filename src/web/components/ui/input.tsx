import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';

/**
 * A text control's look. Its size and border depend on where it sits, so
 * they are variants rather than classes a caller overrides (cn does not merge
 * conflicting classes); a caller adds a width where the control is not full width.
 */
export const controlVariants = cva(
  'rounded-md border bg-white px-3 text-sm text-slate-900 placeholder:text-slate-600 focus-visible:border-blue-700 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-700 disabled:cursor-not-allowed disabled:bg-slate-100 aria-invalid:border-red-700',
  {
    variants: {
      placement: {
        /** A form's or a filter's field: full width of its column. */
        field: 'h-10 w-full border-slate-400',
        /** A textarea: as tall as its rows. */
        multiline: 'w-full border-slate-400 py-2',
        /** In the dark page header (the scope switcher); the caller sets the width. */
        toolbar: 'h-9 border-slate-500',
        /** Inside a table row; the caller sets the width. */
        row: 'h-8 border-slate-400',
      },
    },
    defaultVariants: { placement: 'field' },
  },
);

export const controlClass = controlVariants();

export type ControlPlacement = NonNullable<VariantProps<typeof controlVariants>['placement']>;

export function Input({ className, disabled, ...props }: ComponentProps<'input'>) {
  // What is typed before the browser takes a server-rendered page over would be
  // lost when it does: the control waits for it (use-hydrated.ts).
  const live = useHydrated();
  // A read-only input (a value the rail fixes) looks like a disabled one.
  return (
    <input
      className={cn(controlClass, 'read-only:bg-slate-100', className)}
      disabled={disabled || !live}
      {...props}
    />
  );
}

/** A multi-line text control: waits for the browser as Input does. */
export function Textarea({ disabled, ...props }: ComponentProps<'textarea'>) {
  const live = useHydrated();
  return <textarea disabled={disabled || !live} {...props} />;
}

/**
 * A checkbox or radio button. A server-rendered page shows it before its
 * script runs; ticked then, React takes the page over with its own state and
 * the tick is lost (or a controlled box is set back), so it waits as Input does.
 */
export function Choice({
  disabled,
  ...props
}: ComponentProps<'input'> & { type: 'checkbox' | 'radio' }) {
  const live = useHydrated();
  return <input disabled={disabled || !live} {...props} />;
}
