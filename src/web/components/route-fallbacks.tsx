import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { Link, useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { useEffect, useState, type ReactNode } from 'react';
import { isChunkLoadError, reloadWhenReachable } from '../lib/chunk-errors.ts';
import { ErrorState } from './query-state.tsx';
import { Button } from './ui/button.tsx';

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

  if (isChunkLoadError(error)) return <PageCodeUnavailable />;
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

/**
 * The page's code could not be fetched (lib/chunk-errors.ts): most often the
 * server is unreachable, sometimes the console was updated since the tab
 * opened. Nothing on the server changed; retrying reloads the tab once the
 * server answers.
 */
function PageCodeUnavailable() {
  const [state, setState] = useState<'idle' | 'checking' | 'unreachable'>('idle');
  return (
    <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-900">
      <h2 className="font-semibold">This page could not be loaded</h2>
      <p className="mt-1 text-sm">
        Its code could not be fetched from the console server. The server may be unreachable, or the
        console was updated since this tab was opened. Nothing was sent.
      </p>
      {state === 'unreachable' ? (
        <p className="mt-1 text-sm font-medium">
          The console server still cannot be reached. Check your connection and try again.
        </p>
      ) : null}
      <div className="mt-3">
        <Button
          size="sm"
          disabled={state === 'checking'}
          onClick={() => {
            setState('checking');
            void reloadWhenReachable().then((reloading) => {
              if (!reloading) setState('unreachable');
            });
          }}
        >
          {state === 'checking' ? 'Checking the server…' : 'Try again'}
        </Button>
      </div>
    </div>
  );
}

export function NotFound() {
  return (
    <DeadEnd id="not-found" documentTitle="Page not found" heading="Page not found">
      There is nothing at this address.
    </DeadEnd>
  );
}

/** A page that leads nowhere (nothing here, or not for this role): say why, and offer a way on. */
export function DeadEnd({
  id,
  documentTitle,
  heading,
  children,
}: {
  /** Prefix of the heading's id. */
  id: string;
  documentTitle: string;
  heading: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="py-12">
      <title>{`${documentTitle} · Custody Console`}</title>
      <h1 id={`${id}-title`} className="text-2xl font-semibold text-slate-900">
        {heading}
      </h1>
      <p className="mt-2 text-slate-700">{children}</p>
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
