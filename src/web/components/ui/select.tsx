import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';
import { controlVariants, type ControlPlacement } from './input.tsx';

/** The native select: keyboard, screen-reader and mobile behaviour come for free. */
export function Select({
  className,
  placement,
  ...props
}: ComponentProps<'select'> & { placement?: ControlPlacement }) {
  return <select className={cn(controlVariants({ placement }), 'pr-8', className)} {...props} />;
}
