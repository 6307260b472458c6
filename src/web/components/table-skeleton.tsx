import { Skeleton } from './ui/skeleton.tsx';

/**
 * Placeholder rows while a list's first page loads. Deliberately not a
 * <table>: the named table only exists once there are real rows to read.
 * The page's status line says what is loading.
 */
export function TableSkeleton({ rows = 8, columns }: { rows?: number; columns: number }) {
  return (
    <div className="overflow-hidden rounded-lg border border-slate-300 bg-white">
      <div aria-hidden="true" className="divide-y divide-slate-200">
        <div className="h-9 bg-slate-100" />
        {Array.from({ length: rows }, (_, row) => (
          <div key={row} className="flex gap-6 px-3 py-3">
            {Array.from({ length: columns }, (_, column) => (
              <Skeleton key={column} className="h-4 w-20 flex-1" />
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}
