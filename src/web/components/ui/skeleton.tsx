import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

/** A placeholder bar; the caller gives its height and width. */
export function Skeleton({ className, ...props }: ComponentProps<'span'>) {
  return (
    <span
      aria-hidden="true"
      className={cn('block animate-pulse rounded bg-slate-200', className)}
      {...props}
    />
  );
}
