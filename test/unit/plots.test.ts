/** The SVG charts: round ticks, and well-formed, deterministic documents. */
import { describe, expect, it } from 'vitest';
import { pngRenderer } from '../../src/plots/png.js';
import { histogram, lineChart, ticks } from '../../src/plots/svg.js';

describe('plots', () => {
  it('ticks are round and cover the range', () => {
    expect(ticks(0, 1)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(ticks(0, 1_000_000)).toEqual([0, 200_000, 400_000, 600_000, 800_000, 1_000_000]);
    expect(ticks(0.1, 0.2)).toEqual([0.1, 0.12, 0.14, 0.16, 0.18, 0.2]);
    expect(ticks(3, 3)).toEqual([3]);
  });

  it('a line chart has one path per series, a legend, and escapes text', () => {
    const svg = lineChart({ title: 'A & B', xLabel: 'x', yLabel: 'y', series: [{ name: 'one', points: [[0, 0], [1, 1]] }, { name: '<two>', points: [[0, 1], [1, 0]] }] });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/<path /g)).toHaveLength(2);
    expect(svg).toContain('A &amp; B');
    expect(svg).toContain('&lt;two&gt;');
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(lineChart({ title: 't', xLabel: 'x', yLabel: 'y', series: [{ name: 'a', points: [[0, 2], [5, 3]] }] })).toBe(
      lineChart({ title: 't', xLabel: 'x', yLabel: 'y', series: [{ name: 'a', points: [[0, 2], [5, 3]] }] }),
    );
  });

  it('a histogram stacks one bar per value per bin', () => {
    const svg = histogram({ title: 'h', xLabel: 'x', names: ['a', 'b'], bins: [{ label: '0', values: [2, 1] }, { label: '1', values: [0, 3] }] });
    // 4 bars + 2 legend swatches + background + frame
    expect(svg.match(/<rect /g)).toHaveLength(8);
  });
});

describe('issue 26: the PNG renderer, an optional dependency', () => {
  it('renders a PNG with resvg where it is installed, and is undefined for a module that cannot be loaded', async () => {
    const render = await pngRenderer();
    expect(render).toBeDefined();
    expect(render!(histogram({ title: 'h', xLabel: 'x', names: ['a'], bins: [{ label: '0', values: [1] }] })).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(await pngRenderer('@resvg/resvg-js-not-installed')).toBeUndefined();
  });
});
