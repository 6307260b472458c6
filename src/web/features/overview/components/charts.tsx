import { useId, type ReactNode } from 'react';

/**
 * The overview's figures as tables: each chart's (shown on request, a
 * disclosure any keyboard opens) and the holdings' own. The charts
 * themselves are drawn by chart-drawings.tsx, loaded once the page is there
 * (overview-page.tsx), so they never hold its first screen back.
 */

export interface Bar {
  key: string;
  label: string;
  /** Percent of the chart's whole bar, "0.00"–"100.00". */
  share: string;
  /** The figure the bar stands for, as shown in the table. */
  value: string;
}

/**
 * A table of figures: the first column names each row (a row header); the
 * next `textColumns - 1` are text; the rest are figures, right-aligned in
 * tabular digits. The charts' tables and the overview's holdings tables.
 */
export function FiguresGrid({
  caption,
  captionId,
  headers,
  rows,
  textColumns = 1,
}: {
  caption: string;
  /** For a region labelled by the caption. */
  captionId?: string;
  headers: [string, ...string[]];
  rows: Array<{ key: string; cells: ReactNode[] }>;
  textColumns?: number;
}) {
  const figure = (i: number) => i >= textColumns;
  return (
    <table className="w-full border-collapse text-left text-sm">
      <caption id={captionId} className="sr-only">
        {caption}
      </caption>
      <thead className="bg-slate-100">
        <tr>
          {headers.map((h, i) => (
            <th
              key={h}
              scope="col"
              className={`px-2 py-1 font-medium text-slate-700 ${figure(i) ? 'text-right' : ''}`}
            >
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} className="border-b border-slate-200 last:border-0">
            {row.cells.map((cell, i) =>
              i === 0 ? (
                <th key={i} scope="row" className="px-2 py-1 font-normal">
                  {cell}
                </th>
              ) : (
                <td key={i} className={`px-2 py-1 ${figure(i) ? 'text-right tabular-nums' : ''}`}>
                  {cell}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The chart's figures as a table, behind a disclosure. */
export function FiguresTable({
  summary,
  caption,
  headers,
  rows,
}: {
  summary: string;
  caption: string;
  headers: [string, ...string[]];
  rows: Array<{ key: string; cells: ReactNode[] }>;
}) {
  const id = useId();
  return (
    <details className="mt-3 text-sm">
      <summary className="cursor-pointer font-medium text-blue-800 underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700">
        {summary}
      </summary>
      <div className="mt-2 overflow-x-auto" role="region" aria-labelledby={id} tabIndex={0}>
        <FiguresGrid caption={caption} captionId={id} headers={headers} rows={rows} />
      </div>
    </details>
  );
}
