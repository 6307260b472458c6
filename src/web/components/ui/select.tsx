import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';
import { controlClass } from './input.tsx';

/** The native select: keyboard, screen-reader and mobile behaviour come for free. */
export function Select({ className, ...props }: ComponentProps<'select'>) {
  return <select className={cn(controlClass, 'pr-8', className)} {...props} />;
}
