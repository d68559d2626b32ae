/**
 * Small, dependency-free SVG charts for the simulations' figures: line charts (one or more
 * series over x) and bar histograms. Deterministic output, so plots can be compared byte for byte.
 */

export interface Series {
  readonly name: string;
  readonly points: readonly (readonly [number, number])[];
}

export interface LineChart {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly Series[];
  /** y range; defaults to the data's. */
  readonly yMin?: number;
  readonly yMax?: number;
}

export interface Histogram {
  readonly title: string;
  readonly xLabel: string;
  /** Bin labels and heights, left to right. */
  readonly bins: readonly { readonly label: string; readonly values: readonly number[] }[];
  /** Names of the stacked values in each bin. */
  readonly names: readonly string[];
}

const WIDTH = 640;
const HEIGHT = 400;
const MARGIN = { left: 64, right: 24, top: 40, bottom: 56 };
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f'];

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fixed = (n: number) => Number(n.toFixed(2));

/** Roughly `count` round tick values covering [min, max]. */
export function ticks(min: number, max: number, count = 5): number[] {
  if (max <= min) return [min];
  const raw = (max - min) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw)!;
  const out: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

function frame(title: string, xLabel: string, yLabel: string, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="22" text-anchor="middle" font-size="15">${escape(title)}</text>`,
    `<text x="${WIDTH / 2}" y="${HEIGHT - 12}" text-anchor="middle">${escape(xLabel)}</text>`,
    `<text transform="translate(16 ${HEIGHT / 2}) rotate(-90)" text-anchor="middle">${escape(yLabel)}</text>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

export function lineChart(chart: LineChart): string {
  const xs = chart.series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = chart.series.flatMap((s) => s.points.map((p) => p[1]));
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [chart.yMin ?? Math.min(...ys), chart.yMax ?? Math.max(...ys)];
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const sx = (x: number) => fixed(MARGIN.left + ((x - x0) / (x1 - x0 || 1)) * plotW);
  const sy = (y: number) => fixed(MARGIN.top + plotH - ((y - y0) / (y1 - y0 || 1)) * plotH);
  const body: string[] = [];
  for (const t of ticks(y0, y1)) {
    body.push(`<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${sy(t)}" y2="${sy(t)}" stroke="#e0e0e0"/>`);
    body.push(`<text x="${MARGIN.left - 6}" y="${sy(t) + 4}" text-anchor="end">${t}</text>`);
  }
  for (const t of ticks(x0, x1)) body.push(`<text x="${sx(t)}" y="${HEIGHT - MARGIN.bottom + 18}" text-anchor="middle">${t.toLocaleString('en-US')}</text>`);
  body.push(`<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#444"/>`);
  chart.series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length]!;
    const d = s.points.map((p, j) => `${j === 0 ? 'M' : 'L'}${sx(p[0])} ${sy(p[1])}`).join(' ');
    body.push(`<path d="${d}" fill="none" stroke="${colour}" stroke-width="1.8"/>`);
    body.push(`<rect x="${MARGIN.left + 12}" y="${MARGIN.top + 10 + i * 18}" width="12" height="3" fill="${colour}"/>`);
    body.push(`<text x="${MARGIN.left + 30}" y="${MARGIN.top + 15 + i * 18}">${escape(s.name)}</text>`);
  });
  return frame(chart.title, chart.xLabel, chart.yLabel, body);
}

export function histogram(chart: Histogram): string {
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const top = Math.max(1, ...chart.bins.map((b) => b.values.reduce((a, v) => a + v, 0)));
  const barW = plotW / chart.bins.length;
  const body: string[] = [];
  for (const t of ticks(0, top)) {
    const y = fixed(MARGIN.top + plotH - (t / top) * plotH);
    body.push(`<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y}" y2="${y}" stroke="#e0e0e0"/>`);
    body.push(`<text x="${MARGIN.left - 6}" y="${y + 4}" text-anchor="end">${t}</text>`);
  }
  chart.bins.forEach((bin, i) => {
    let base = MARGIN.top + plotH;
    bin.values.forEach((v, k) => {
      const h = (v / top) * plotH;
      base -= h;
      body.push(`<rect x="${fixed(MARGIN.left + i * barW + 2)}" y="${fixed(base)}" width="${fixed(barW - 4)}" height="${fixed(h)}" fill="${COLOURS[k % COLOURS.length]}"/>`);
    });
    body.push(`<text x="${fixed(MARGIN.left + (i + 0.5) * barW)}" y="${HEIGHT - MARGIN.bottom + 18}" text-anchor="middle" font-size="10">${escape(bin.label)}</text>`);
  });
  chart.names.forEach((name, k) => {
    body.push(`<rect x="${MARGIN.left + 12}" y="${MARGIN.top + 8 + k * 18}" width="12" height="10" fill="${COLOURS[k % COLOURS.length]}"/>`);
    body.push(`<text x="${MARGIN.left + 30}" y="${MARGIN.top + 17 + k * 18}">${escape(name)}</text>`);
  });
  body.push(`<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#444"/>`);
  return frame(chart.title, chart.xLabel, 'players', body);
}
