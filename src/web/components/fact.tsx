import type { ReactNode } from 'react';

/**
 * One fact of a summary a person checks before deciding (a decision's
 * summary, a bulk approval's items): its term and what it says, as a
 * `<dt>`/`<dd>` pair inside the caller's `<dl>` grid.
 */
export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-700">{term}</dt>
      <dd className="min-w-0">{children}</dd>
    </>
  );
}
