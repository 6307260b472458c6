import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn.ts';

export const controlClass =
  'h-10 w-full rounded-md border border-slate-400 bg-white px-3 text-sm text-slate-900 placeholder:text-slate-600 focus-visible:border-blue-700 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-700 disabled:cursor-not-allowed disabled:bg-slate-100 aria-invalid:border-red-700';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={cn(controlClass, className)} {...props} />;
}
