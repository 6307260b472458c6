import type { Bar } from './charts.tsx';

/**
 * The overview's two small charts, drawn as SVG by hand: bars sized by the
 * server's `share` (a percentage, a decimal string used as an SVG length, so
 * no amount becomes a JS number). Each chart is a picture with a one-line
 * description for screen readers, and the same figures follow it as a table
 * (charts.tsx). Loaded on its own, after the page's figures and tables.
 */

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
