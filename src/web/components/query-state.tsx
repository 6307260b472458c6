import type { ReactNode } from 'react';
import { describeError } from '../lib/api-errors.ts';
import { Button } from './ui/button.tsx';

/** A failed load: what the API said, and a way to try again. */
export function ErrorState({
  title,
  error,
  onRetry,
  retrying = false,
  children,
}: {
  title: string;
  error: unknown;
  onRetry?: () => void;
  retrying?: boolean;
  children?: ReactNode;
}) {
  return (
    <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-900">
      <h2 className="font-semibold">{title}</h2>
      <p className="mt-1 text-sm">{describeError(error)}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        {onRetry ? (
          <Button size="sm" onClick={onRetry} disabled={retrying}>
            {retrying ? 'Retrying…' : 'Retry'}
          </Button>
        ) : null}
        {children}
      </div>
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-400 bg-white p-8 text-center">
      <p className="font-medium text-slate-900">{title}</p>
      {children ? <div className="mt-3 flex justify-center gap-2">{children}</div> : null}
    </div>
  );
}
