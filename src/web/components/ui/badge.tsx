import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

export const badgeVariants = cva(
  'inline-flex items-center gap-1.5 rounded-full border px-2 py-0.5 text-xs font-medium',
  {
    variants: {
      tone: {
        neutral: 'border-slate-300 bg-slate-100 text-slate-800',
        info: 'border-blue-300 bg-blue-50 text-blue-900',
        success: 'border-green-300 bg-green-50 text-green-900',
        warning: 'border-amber-300 bg-amber-50 text-amber-900',
        danger: 'border-red-300 bg-red-50 text-red-900',
      },
      // A status reads as one unit; a sentence (a warning in a table cell)
      // wraps rather than widening its column past the screen.
      wrap: {
        false: 'whitespace-nowrap',
        true: 'whitespace-normal',
      },
    },
    defaultVariants: { tone: 'neutral', wrap: false },
  },
);

export type BadgeTone = NonNullable<VariantProps<typeof badgeVariants>['tone']>;

const dotClass: Record<BadgeTone, string> = {
  neutral: 'bg-slate-500',
  info: 'bg-blue-600',
  success: 'bg-green-600',
  warning: 'bg-amber-500',
  danger: 'bg-red-600',
};

export function Badge({
  className,
  tone,
  wrap,
  children,
  ...props
}: ComponentProps<'span'> & VariantProps<typeof badgeVariants>) {
  return (
    <span className={cn(badgeVariants({ tone, wrap }), className)} {...props}>
      <span
        aria-hidden="true"
        className={cn('size-1.5 rounded-full', dotClass[tone ?? 'neutral'])}
      />
      {children}
    </span>
  );
}
