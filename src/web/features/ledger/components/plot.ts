import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/**
 * The ledger's charts drawn by uPlot (a canvas), loaded only when a ledger
 * page draws its first chart: the page's tables carry the figures, the
 * picture is for the eye alone.
 */

export interface PlotSeries {
  label: string;
  color: string;
  /** Decimal strings, one per x label. */
  values: readonly string[];
}

export interface PlotSpec {
  kind: 'stacked-area' | 'bars';
  labels: readonly string[];
  series: readonly PlotSeries[];
}

/**
 * A figure as a height on the canvas. The only place the ledger turns a
 * decimal into a float: it places pixels, while every figure a person reads
 * (the tables, the statement) stays a decimal string.
 */
// eslint-disable-next-line no-restricted-syntax -- a pixel height for the chart alone, never a figure shown or summed
const height = (value: string): number => Number(value) || 0;

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** Stacked: each series drawn as the running total of itself and those before it, topmost first. */
function stackedData(spec: PlotSpec): uPlot.AlignedData {
  const x = spec.labels.map((_, i) => i);
  const running = spec.labels.map(() => 0);
  const stacked = spec.series.map((s) =>
    s.values.map((v, i) => {
      running[i] = (running[i] ?? 0) + height(v);
      return running[i] ?? 0;
    }),
  );
  return [x, ...stacked.reverse()];
}

export function drawPlot(target: HTMLElement, spec: PlotSpec, width: number): uPlot {
  const stacked = spec.kind === 'stacked-area';
  const series = stacked ? [...spec.series].reverse() : spec.series;
  const bars = uPlot.paths.bars?.({ size: [0.7, 24], align: 0 });
  const opts: uPlot.Options = {
    width,
    height: 220,
    legend: { show: false },
    cursor: { show: false },
    scales: { x: { time: false } },
    axes: [
      {
        stroke: '#64748b',
        grid: { show: false },
        values: (_u, splits) => splits.map((i) => spec.labels[i] ?? ''),
      },
      {
        stroke: '#64748b',
        grid: { stroke: '#94a3b833' },
        values: (_u, splits) => splits.map((v) => compact.format(v)),
      },
    ],
    series: [
      {},
      ...series.map((s) => ({
        label: s.label,
        stroke: s.color,
        fill: stacked ? s.color : `${s.color}cc`,
        width: stacked ? 1 : 0,
        points: { show: false },
        ...(stacked || !bars ? {} : { paths: bars }),
      })),
    ],
  };
  const data: uPlot.AlignedData = stacked
    ? stackedData(spec)
    : [spec.labels.map((_, i) => i), ...spec.series.map((s) => s.values.map(height))];
  return new uPlot(opts, data, target);
}
