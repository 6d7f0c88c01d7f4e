import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatNumber } from '../lib/time';

export interface Series {
  label: string;
  values: number[];
  /** CSS custom property holding the colour, e.g. '--allow'. */
  colorVar: string;
  dash?: number[];
}

/** A uPlot line chart with a "view as table" switch; the table is the accessible form of the same data. */
export function TimeChart({
  title,
  xs,
  series,
  xLabel,
  firstColumn = 'Hour',
}: {
  title: string;
  xs: number[];
  series: Series[];
  xLabel: (t: number) => string;
  firstColumn?: string;
}) {
  const el = useRef<HTMLDivElement>(null);
  const [asTable, setAsTable] = useState(false);
  useEffect(() => {
    if (asTable || !el.current) return;
    const css = getComputedStyle(document.documentElement);
    const color = (v: string) => css.getPropertyValue(v).trim() || '#888';
    const axis = {
      stroke: color('--muted'),
      grid: { stroke: color('--line'), width: 1 },
      ticks: { stroke: color('--line') },
    };
    const plot = new uPlot(
      {
        width: el.current.clientWidth || 600,
        height: 220,
        series: [
          { label: firstColumn, value: (_u: uPlot, v: number | null) => (v === null ? '—' : xLabel(v)) },
          ...series.map((s) => ({
            label: s.label,
            stroke: color(s.colorVar),
            width: 2,
            dash: s.dash,
            points: { show: false },
            value: (_u: uPlot, v: number | null) => (v === null ? '—' : formatNumber(v)),
          })),
        ],
        axes: [{ ...axis, values: (_u: uPlot, ticks: number[]) => ticks.map((t) => xLabel(t)) }, axis],
        scales: { x: { time: false } },
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
      },
      [xs, ...series.map((s) => s.values)],
      el.current,
    );
    const ro = new ResizeObserver(() => el.current && plot.setSize({ width: el.current.clientWidth, height: 220 }));
    ro.observe(el.current);
    return () => {
      ro.disconnect();
      plot.destroy();
    };
  }, [asTable, xs, series, xLabel, firstColumn]);
  return (
    <figure className="space-y-2">
      <div className="flex items-center justify-between gap-2">
        <figcaption className="font-semibold">{title}</figcaption>
        <button type="button" className="btn btn-sm" aria-pressed={asTable} onClick={() => setAsTable(!asTable)}>
          {asTable ? 'View as chart' : 'View as table'}
        </button>
      </div>
      {asTable ? (
        <div className="max-h-72 overflow-auto" role="region" aria-label={`${title} as a table`} tabIndex={0}>
          <table className="data">
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{firstColumn}</th>
                {series.map((s) => (
                  <th key={s.label} scope="col" className="text-right">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {xs.map((x, i) => (
                <tr key={x}>
                  <th scope="row" className="font-normal">
                    {xLabel(x)}
                  </th>
                  {series.map((s) => (
                    <td key={s.label} className="num">
                      {formatNumber(s.values[i])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <div ref={el} aria-hidden="true" />
      )}
    </figure>
  );
}
