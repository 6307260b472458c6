import { useEffect, useRef, type ReactNode } from 'react';
import type { PlotSpec } from './plot.ts';

/**
 * One chart and its table: the picture (a uPlot canvas, drawn once the
 * browser has the page and only there, hidden from screen readers) above a
 * one-line summary in words and the table of the same figures, which is
 * what keyboard and screen-reader users read. The charting code loads with
 * the first chart drawn, never with another page.
 */
export function LedgerChart({
  id,
  title,
  summary,
  spec,
  legend,
  table,
}: {
  id: string;
  title: string;
  /** The chart in one sentence, for everyone: what it shows and its latest figure. */
  summary: string;
  spec: PlotSpec;
  legend: boolean;
  table: ReactNode;
}) {
  const canvas = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const target = canvas.current;
    if (!target) return;
    let plot: { destroy(): void; setSize(s: { width: number; height: number }): void } | undefined;
    let cancelled = false;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) plot?.setSize({ width: Math.floor(entry.contentRect.width), height: 220 });
    });
    void import('./plot.ts').then(({ drawPlot }) => {
      if (cancelled) return;
      plot = drawPlot(target, spec, target.clientWidth || 600);
      observer.observe(target);
    });
    return () => {
      cancelled = true;
      observer.disconnect();
      plot?.destroy();
    };
  }, [spec]);
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="rounded-lg border border-slate-300 bg-white p-4"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <p id={`${id}-summary`} className="mt-1 text-sm text-slate-700">
        {summary}
      </p>
      <div aria-hidden="true" className="mt-3">
        <div ref={canvas} data-testid={`${id}-chart`} className="min-h-[220px] w-full" />
        {legend && spec.series.length > 0 ? (
          <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700">
            {spec.series.map((s) => (
              <li key={s.label} className="flex items-center gap-1">
                <svg width="10" height="10" viewBox="0 0 10 10">
                  <rect width="10" height="10" fill={s.color} />
                </svg>
                {s.label}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <details className="mt-3">
        <summary className="cursor-pointer text-sm font-medium text-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700">
          {`${title}: the figures as a table`}
        </summary>
        <div className="mt-2">{table}</div>
      </details>
    </section>
  );
}
