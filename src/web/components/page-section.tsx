import type { ReactNode } from 'react';
import { cn } from '../lib/cn.ts';

/**
 * A signed-in page's outermost element: `<name>-page`, the id its
 * server-rendered first screen ends at (`SERVER_RENDERED_ROUTES` in
 * entry-server.tsx), named by its h1 (`<name>-title`), with the document's
 * title (the heading's words unless `documentTitle` says otherwise).
 * `className` sets the gap between its parts.
 */
export function PageSection({
  name,
  heading,
  documentTitle = heading,
  className,
  children,
}: {
  name: string;
  heading: string;
  documentTitle?: string;
  className: string;
  children: ReactNode;
}) {
  return (
    // The first screen the server renders ends here (entry-server.tsx).
    <section
      id={`${name}-page`}
      aria-labelledby={`${name}-title`}
      className={cn('flex flex-col', className)}
    >
      <title>{`${documentTitle} · Custody Console`}</title>
      <h1 id={`${name}-title`} className="text-2xl font-semibold text-slate-900">
        {heading}
      </h1>
      {children}
    </section>
  );
}
