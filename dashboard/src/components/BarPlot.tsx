/**
 * Counts per category as bars (uPlot): one or two series, the second drawn beside the first, with
 * a legend under the plot when there are two. The same numbers are always in a table next to it;
 * the plot is their picture.
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface BarSeries {
  readonly label: string;
  readonly counts: readonly number[];
  readonly colour: string;
}

const HEIGHT = 180;

export function BarPlot({ categories, series, label }: { categories: readonly string[]; series: readonly BarSeries[]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    const xs = categories.map((_, i) => i);
    const bars = uPlot.paths.bars!;
    const plot = new uPlot(
      {
        width: Math.max(240, element.clientWidth),
        height: HEIGHT,
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: false, range: [-0.5, categories.length - 0.5] }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        series: [
          {},
          ...series.map((s, i) => ({
            label: s.label,
            stroke: s.colour,
            fill: s.colour,
            width: 0,
            paths: bars({ size: [series.length > 1 ? 0.4 : 0.7, 48], align: series.length > 1 ? (i === 0 ? -1 : 1) : 0 }),
            points: { show: false },
          })),
        ],
        axes: [
          { stroke: '#555', splits: () => xs, values: (_u, splits) => splits.map((i) => categories[i] ?? ''), gap: 4 },
          { stroke: '#555', size: 40, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000] },
        ],
      },
      [xs, ...series.map((s) => [...s.counts])],
      element,
    );
    const resize = () => plot.setSize({ width: Math.max(240, element.clientWidth), height: HEIGHT });
    addEventListener('resize', resize);
    return () => {
      removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [categories, series]);
  return (
    <figure class="bar-plot">
      <div class="plot bars" ref={box} role="img" aria-label={label} />
      {series.length > 1 && (
        <figcaption class="legend">
          {series.map((s) => (
            <span key={s.label}>
              <span class="swatch" style={{ background: s.colour }} aria-hidden="true" /> {s.label}
            </span>
          ))}
        </figcaption>
      )}
    </figure>
  );
}
