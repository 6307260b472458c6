import { cva, type VariantProps } from 'class-variance-authority';
import { useId, type ReactNode } from 'react';

/** The look of a titled card: a detail page's panel, a form's frame (`form-card.tsx`). */
export const panelVariants = cva('rounded-lg border p-4', {
  variants: {
    tone: {
      default: 'border-slate-300 bg-white',
      /** Something waits on the reader (a decision to make). */
      attention: 'border-amber-300 bg-amber-50',
    },
  },
  defaultVariants: { tone: 'default' },
});

/**
 * A titled part of a detail page: a region named by its heading, so a screen
 * reader lists it among the page's landmarks. What follows the heading keeps
 * its own spacing.
 */
export function Panel({
  title,
  tone,
  id,
  children,
}: {
  title: string;
  children: ReactNode;
  /** A link's target within the page. */
  id?: string;
} & VariantProps<typeof panelVariants>) {
  const titleId = useId();
  return (
    <section id={id} aria-labelledby={titleId} className={panelVariants({ tone })}>
      <h2 id={titleId} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}
