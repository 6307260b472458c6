import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';

export const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 rounded-md border text-sm font-medium whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:cursor-not-allowed disabled:opacity-60',
  {
    variants: {
      variant: {
        primary: 'border-blue-700 bg-blue-700 text-white hover:bg-blue-800',
        secondary: 'border-slate-300 bg-white text-slate-900 hover:bg-slate-100',
        ghost: 'border-transparent bg-transparent text-slate-800 hover:bg-slate-100',
        destructive: 'border-red-700 bg-red-700 text-white hover:bg-red-800',
      },
      size: {
        sm: 'h-8 px-3',
        md: 'h-10 px-4',
      },
    },
    defaultVariants: { variant: 'secondary', size: 'md' },
  },
);

export type ButtonProps = ComponentProps<'button'> & VariantProps<typeof buttonVariants>;

export function Button({
  className,
  variant,
  size,
  type = 'button',
  disabled,
  ...props
}: ButtonProps) {
  // Not live until the browser has taken a server-rendered page over (use-hydrated.ts).
  const live = useHydrated();
  return (
    <button
      type={type}
      className={cn(buttonVariants({ variant, size }), className)}
      disabled={disabled || !live}
      {...props}
    />
  );
}
