import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { controlVariants, type ControlPlacement } from './input.tsx';

/** The native select: keyboard, screen-reader and mobile behaviour come for free. */
export function Select({
  className,
  placement,
  disabled,
  ...props
}: ComponentProps<'select'> & { placement?: ControlPlacement }) {
  // A choice made before the browser takes a server-rendered page over would
  // be undone when it does: the control waits for it (use-hydrated.ts).
  const live = useHydrated();
  return (
    <select
      className={cn(controlVariants({ placement }), 'pr-8', className)}
      disabled={disabled || !live}
      {...props}
    />
  );
}
