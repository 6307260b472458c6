import { useId, type ReactNode } from 'react';

/**
 * The overview's two small charts, drawn as SVG by hand: bars sized by the
 * server's `share` (a percentage, a decimal string used as an SVG length, so
 * no amount becomes a JS number). Each chart is a picture with a one-line
 * description for screen readers, and the same figures follow it as a table
 * (shown on request: a disclosure any keyboard opens).
 */

export interface Bar {
  key: string;
  label: string;
  /** Percent of the chart's whole bar, "0.00"–"100.00". */
  share: string;
  /** The figure the bar stands for, as shown in the table. */
  value: string;
}

/** One horizontal bar per item, its label and value beside it. */
export function HorizontalBars({ bars, description }: { bars: Bar[]; description: string }) {
  const row = 28;
  return (
    <svg
      role="img"
      aria-label={description}
      width="100%"
      height={bars.length * row}
      className="block text-slate-900"
    >
      {bars.map((bar, i) => (
        <g key={bar.key} transform={`translate(0 ${i * row})`}>
          <text x="0" y={row / 2} dominantBaseline="middle" className="fill-current text-xs">
            {bar.label}
          </text>
          <svg x="22%" width="50%" height={row}>
            <rect x="0" y="6" width="100%" height={row - 12} className="fill-slate-200" />
            <rect x="0" y="6" width={`${bar.share}%`} height={row - 12} className="fill-blue-700" />
          </svg>
          <text
            x="100%"
            y={row / 2}
            dominantBaseline="middle"
            textAnchor="end"
            className="fill-current text-xs tabular-nums"
          >
            {bar.value}
          </text>
        </g>
      ))}
    </svg>
  );
}

/** One column per item, oldest on the left, the first and last items named beneath. */
export function Columns({ bars, description }: { bars: Bar[]; description: string }) {
  const width = 10;
  const height = 100;
  return (
    <div>
      <svg
        role="img"
        aria-label={description}
        viewBox={`0 0 ${bars.length * width} ${height}`}
        preserveAspectRatio="none"
        className="block h-32 w-full text-slate-900"
      >
        <line
          x1="0"
          x2={bars.length * width}
          y1={height}
          y2={height}
          className="stroke-slate-400"
          strokeWidth="1"
          vectorEffect="non-scaling-stroke"
        />
        {bars.map((bar, i) => (
          <svg key={bar.key} x={i * width + 1} y="0" width={width - 2} height={height}>
            {/* Drawn down from the top, then flipped to stand on the axis. */}
            <rect
              x="0"
              y="0"
              width="100%"
              height={`${bar.share}%`}
              transform={`matrix(1 0 0 -1 0 ${height})`}
              className="fill-blue-700"
            >
              <title>{`${bar.label}: ${bar.value}`}</title>
            </rect>
          </svg>
        ))}
      </svg>
      {bars.length > 0 ? (
        <p aria-hidden="true" className="mt-1 flex justify-between text-xs text-slate-700">
          <span>{bars[0]?.label}</span>
          <span>{bars.at(-1)?.label}</span>
        </p>
      ) : null}
    </div>
  );
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
