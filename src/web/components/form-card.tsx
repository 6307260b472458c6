import { useCallback, useId, type FormEvent, type ReactNode } from 'react';
import { cn } from '../lib/cn.ts';
import { panelVariants } from './panel.tsx';
import { Button, type ButtonProps } from './ui/button.tsx';

/**
 * A form's frame: a heading that names it (`aria-labelledby`, so assistive
 * technology and the tests find the form by its title), then the refusal
 * that is about the whole form, announced as it appears, then its fields.
 * Without `onSubmit` it is a `<section>` of the same look (a create form's
 * review step, whose buttons do not submit); `focusTitle` moves focus to the
 * heading when it appears, so a screen reader starts reading there.
 * Validation is the form's own (`noValidate`): react-hook-form and the
 * contract's schemas say what is wrong, in the house's words.
 */
export function FormCard({
  title,
  titleHidden = false,
  focusTitle = false,
  onSubmit,
  error,
  frame = 'card',
  roomy = false,
  className,
  children,
}: {
  title: string;
  /** The heading is read by screen readers only (the page's own heading already says it). */
  titleHidden?: boolean;
  focusTitle?: boolean;
  onSubmit?: (event: FormEvent<HTMLFormElement>) => unknown;
  /** What went wrong with the form as a whole; nothing is shown when empty. */
  error?: ReactNode;
  /** `plain`: no border of its own (the sign-in page's form sits in the page's card). */
  frame?: 'card' | 'plain';
  /** More room between its parts, and around them on wider screens (a long form of several fieldsets). */
  roomy?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const titleId = useId();
  // One ref for the form's life: a new callback each render would focus the heading again on
  // every render, taking focus from a field as the member types in it.
  const focusOnce = useCallback((el: HTMLHeadingElement | null) => el?.focus(), []);
  const body = (
    <>
      <h2
        id={titleId}
        className={titleHidden ? 'sr-only' : 'text-lg font-semibold text-slate-900'}
        {...(focusTitle ? { tabIndex: -1, ref: focusOnce } : {})}
      >
        {title}
      </h2>
      {error ? <FormError>{error}</FormError> : null}
      {children}
    </>
  );
  // cn does not merge conflicting classes (lib/cn.ts): the spacing is chosen here, never overridden.
  const frameClass = cn(
    'flex flex-col',
    roomy ? 'gap-6' : 'gap-4',
    frame === 'card' && panelVariants(),
    frame === 'card' && roomy && 'sm:p-6',
    className,
  );
  if (!onSubmit) {
    return (
      <section aria-labelledby={titleId} className={frameClass}>
        {body}
      </section>
    );
  }
  return (
    <form
      noValidate
      aria-labelledby={titleId}
      onSubmit={(e) => void onSubmit(e)}
      className={frameClass}
    >
      {body}
    </form>
  );
}

/**
 * A refusal about the whole form (not one field), announced as it appears.
 * Field errors stay beside their controls (`components/ui/field.tsx`).
 */
export function FormError({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <div
      role="alert"
      id={id}
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900"
    >
      {children}
    </div>
  );
}

/** The row of a form's buttons, the submit first. */
export function FormActions({ className, children }: { className?: string; children: ReactNode }) {
  return <div className={cn('flex flex-wrap items-center gap-3', className)}>{children}</div>;
}

/**
 * The form's submit button: disabled while its request is in flight, saying
 * so in its label, so a second press cannot send twice.
 */
export function SubmitButton({
  pending = false,
  pendingLabel,
  children,
  ...button
}: {
  pending?: boolean;
  /** Its label while the request is in flight ("Adding…"). */
  pendingLabel?: string;
} & Omit<ButtonProps, 'type' | 'variant' | 'disabled'>) {
  return (
    <Button type="submit" variant="primary" disabled={pending} {...button}>
      {pending && pendingLabel ? pendingLabel : children}
    </Button>
  );
}
