import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { Link, useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { useEffect } from 'react';
import { ErrorState } from './query-state.tsx';

/** Shown while a route's loader runs longer than the router's pending delay. */
export function RoutePending() {
  return (
    <div role="status" aria-live="polite" className="flex items-center gap-3 py-12 text-slate-700">
      <span
        aria-hidden="true"
        className="size-5 animate-spin rounded-full border-2 border-slate-300 border-t-blue-700"
      />
      Loading…
    </div>
  );
}

/** A route failed to load or render. Retry resets cached query errors and re-runs loaders. */
export function RouteError({ error }: ErrorComponentProps) {
  const router = useRouter();
  const queryErrorResetBoundary = useQueryErrorResetBoundary();

  useEffect(() => {
    queryErrorResetBoundary.reset();
  }, [queryErrorResetBoundary]);

  return (
    <ErrorState
      title="This page could not be loaded"
      error={error}
      onRetry={() => {
        void router.invalidate();
      }}
    />
  );
}

export function NotFound() {
  return (
    <section aria-labelledby="not-found-title" className="py-12">
      <title>Page not found · Custody Console</title>
      <h1 id="not-found-title" className="text-2xl font-semibold text-slate-900">
        Page not found
      </h1>
      <p className="mt-2 text-slate-700">There is nothing at this address.</p>
      <p className="mt-4">
        <Link
          to="/transactions"
          className="font-medium text-blue-800 underline hover:text-blue-900"
        >
          Go to transactions
        </Link>
      </p>
    </section>
  );
}
