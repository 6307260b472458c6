import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Panel } from './panel.tsx';
import { ErrorState } from './query-state.tsx';
import { Skeleton } from './ui/skeleton.tsx';
import { StatusBadge } from './ui/status-badge.tsx';

/**
 * The frame a proposal's page (a bank account, a contact) shares: its
 * loading and failed states, its heading with the status, and its history
 * panel. What the page shows in between is its own.
 */

export function DetailLoading({ label }: { label: string }) {
  return (
    <section aria-busy="true" aria-label={label} className="flex flex-col gap-3">
      <Skeleton className="h-8 w-72" />
      <Skeleton className="h-64 w-full" />
    </section>
  );
}

/** The page when its record could not be read: the way back, and the error with a retry. */
export function DetailFailed({
  kind,
  back,
  query,
}: {
  /** "Bank account", "Contact": the heading, and the words of the error. */
  kind: string;
  back: ReactNode;
  query: Pick<UseQueryResult, 'error' | 'refetch' | 'isFetching'>;
}) {
  return (
    <section className="flex flex-col gap-4">
      <title>{`${kind} · Custody Console`}</title>
      {back}
      <h1 className="text-2xl font-semibold text-slate-900">{kind}</h1>
      <ErrorState
        title={`This ${kind.toLowerCase()} could not be loaded`}
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    </section>
  );
}

/** The page's heading: its name, its status, and any badge beside them. */
export function DetailHeading({
  id,
  title,
  status,
  children,
}: {
  id: string;
  title: string;
  status: string | undefined;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <h1 id={id} className="text-2xl font-semibold break-words text-slate-900">
        {title}
      </h1>
      <StatusBadge status={status} />
      {children}
    </div>
  );
}

/** Who proposed and decided what, once read. */
export function HistoryPanel<T>({
  query,
  children,
}: {
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
}) {
  return (
    <Panel title="History">
      <div className="mt-3">
        {query.isPending ? <Skeleton className="h-16 w-full" /> : null}
        {query.isError ? (
          <ErrorState
            title="The history could not be loaded"
            error={query.error}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        ) : null}
        {query.data ? children(query.data) : null}
      </div>
    </Panel>
  );
}
