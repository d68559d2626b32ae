/** A score over event time (uPlot). */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { HistoryPoint } from '../api.js';

export function HistoryPlot({ points, label }: { points: HistoryPoint[]; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (element === null || points.length === 0) return;
    const xs = points.map((p) => p.time / 1000);
    const ys = points.map((p) => p.score);
    const plot = new uPlot(
      {
        width: Math.max(240, element.clientWidth),
        height: 160,
        legend: { show: false },
        scales: { x: { time: true } },
        series: [{}, { label, stroke: '#3465a4', width: 2, spanGaps: true }],
        axes: [{ stroke: '#555' }, { stroke: '#555', size: 56 }],
      },
      [xs, ys as (number | null)[]],
      element,
    );
    const resize = () => plot.setSize({ width: Math.max(240, element.clientWidth), height: 160 });
    addEventListener('resize', resize);
    return () => {
      removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [points, label]);
  if (points.length === 0) return <p class="muted">No history yet.</p>;
  return <div class="plot" ref={box} role="img" aria-label={`${label} over time`} />;
}
